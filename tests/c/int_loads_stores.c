/* gimso-test
 * expect: run
 * stdout:
 * | i8 -3 u8 253 i16 -300 u16 65236
 * | i32 -70000 u32 4294897296
 * | i64 -5000000000 sum 123456789012
 * | stack 45 heap 4950
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct mixed {
    int8_t a;
    uint8_t b;
    int16_t c;
    uint16_t d;
    int32_t e;
    uint32_t f;
    int64_t g;
};

__attribute__((noinline)) void fill(struct mixed *m) {
    m->a = -3;
    m->b = (uint8_t)-3;
    m->c = -300;
    m->d = (uint16_t)-300;
    m->e = -70000;
    m->f = (uint32_t)-70000;
    m->g = -5000000000LL;
}

int main(void) {
    struct mixed *m = malloc(sizeof *m);
    fill(m);
    printf("i8 %d u8 %u i16 %d u16 %u\n", m->a, m->b, m->c, m->d);
    printf("i32 %d u32 %u\n", m->e, m->f);
    long long big[4] = {100000000000LL, 23456789012LL, 0, 0};
    big[2] = big[0] + big[1];
    printf("i64 %lld sum %lld\n", (long long)m->g, big[2]);
    int local[10];
    int s = 0;
    for (int i = 0; i < 10; i++)
        local[i] = i;
    for (int i = 0; i < 10; i++)
        s += local[i];
    int *h = malloc(100 * sizeof(int));
    long hs = 0;
    for (int i = 0; i < 100; i++)
        h[i] = i;
    for (int i = 0; i < 100; i++)
        hs += h[i];
    printf("stack %d heap %ld\n", s, hs);
    free(h);
    free(m);
    return 0;
}
