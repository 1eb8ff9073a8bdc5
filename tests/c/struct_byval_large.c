/* gimso-test
 * expect: run
 * stdout:
 * | sum 136 first name one
 * | caller unchanged: 1
 * | returned big: 100 115
 */
#include <stdio.h>

struct big {
    long v[16];
    const char *name;
};

__attribute__((noinline)) long sum(struct big b) {
    long s = 0;
    for (int i = 0; i < 16; i++)
        s += b.v[i];
    b.v[0] = 1000; /* local copy only */
    return s;
}

__attribute__((noinline)) struct big make(long base) {
    struct big b;
    for (int i = 0; i < 16; i++)
        b.v[i] = base + i;
    b.name = "made";
    return b;
}

int main(void) {
    struct big b;
    for (int i = 0; i < 16; i++)
        b.v[i] = i + 1;
    b.name = "one";
    printf("sum %ld first name %s\n", sum(b), b.name);
    printf("caller unchanged: %ld\n", b.v[0]);
    struct big m = make(100);
    printf("returned big: %ld %ld\n", m.v[0], m.v[15]);
    return 0;
}
