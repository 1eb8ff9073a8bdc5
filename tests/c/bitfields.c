/* gimso-test
 * expect: run
 * stdout:
 * | flags: ready=1 mode=5 count=1000 neg=-3
 * | packed size ok
 * | after inc: mode=6 count=1001
 * | wrap: mode=0
 * | heap flags 7 31
 */
#include <stdio.h>
#include <stdlib.h>

struct flags {
    unsigned ready : 1;
    unsigned mode : 3;
    unsigned count : 12;
    signed neg : 4;
    unsigned : 0;
    unsigned long long wide : 40;
};

struct small {
    unsigned char a : 3;
    unsigned char b : 5;
};

__attribute__((noinline)) void bump(struct flags *f) {
    f->mode++;
    f->count++;
}

int main(void) {
    struct flags f = {0};
    f.ready = 1;
    f.mode = 5;
    f.count = 1000;
    f.neg = -3;
    f.wide = 1ULL << 39;
    printf("flags: ready=%u mode=%u count=%u neg=%d\n", f.ready, f.mode, f.count, f.neg);
    printf("packed size %s\n", sizeof(struct small) == 1 ? "ok" : "bad");
    bump(&f);
    printf("after inc: mode=%u count=%u\n", f.mode, f.count);
    f.mode = 7;
    f.mode++;
    printf("wrap: mode=%u\n", f.mode);
    struct small *s = calloc(8, sizeof *s);
    s[7].a = 7;
    s[7].b = 31;
    printf("heap flags %u %u\n", s[7].a, s[7].b);
    free(s);
    return 0;
}
