/* gimso-test
 * expect: error out-of-bounds read
 * line: 28
 * stdout:
 * | n 3
 */
/* A check passed before a loop that calls nothing holds in every round
 * (nothing in the loop can free or shrink the object), so reads of the
 * same fields inside need none. A read past what was checked is still
 * checked: the struct's last word is missing from this object. */
#include <stdio.h>
#include <stdlib.h>

struct vec {
    long n;
    long scale;
    long last;
};

__attribute__((noinline)) long total(struct vec *v, unsigned char *out, int all) {
    printf("n %ld\n", v->n);
    fflush(stdout);
    long s = 0;
    for (long i = 0; i < v->n; i++) {
        out[i] = (unsigned char)(i * v->scale); /* a store LLVM cannot prove leaves v alone */
        s += out[i];
        if (all)
            s += v->last; /* BUG */
    }
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    struct vec *v = malloc(2 * sizeof(long)); /* no room for last */
    v->n = 3;
    v->scale = 5;
    unsigned char out[3];
    printf("%ld\n", total(v, out, argc));
    return 0;
}
