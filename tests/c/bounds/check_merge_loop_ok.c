/* gimso-test
 * expect: run
 * stdout:
 * | 3 450
 * | 4 240
 */
/* Fields checked before loops that call nothing are read in every round
 * without checks of their own; the loops' results are the plain build's. */
#include <stdio.h>
#include <stdlib.h>

struct vec {
    long n;
    long scale;
    unsigned char *bytes;
};

__attribute__((noinline)) long fill(struct vec *v) {
    long s = 0;
    for (long i = 0; i < v->n; i++) {
        v->bytes[i] = (unsigned char)(i * v->scale);
        s += v->bytes[i] * v->n;
    }
    return s;
}

int main(void) {
    struct vec *v = malloc(sizeof *v);
    v->n = 3;
    v->scale = 50;
    v->bytes = malloc(8);
    printf("%ld %ld\n", v->n, fill(v));
    v->n = 4;
    v->scale = 10;
    printf("%ld %ld\n", v->n, fill(v));
    return 0;
}
