/* gimso-test
 * expect: error use after free
 * line: 27
 * stdout:
 * | first 7
 */
/* A check of p->a is not reused across a call: the call may free p, and
 * the second read of the same field is a use after free. */
#include <stdio.h>
#include <stdlib.h>

struct box {
    long a;
    long b;
};

__attribute__((noinline)) void maybe_free(struct box *p, int really) {
    if (really)
        free(p);
}

__attribute__((noinline)) long twice(struct box *p, int really) {
    long x = p->a;
    printf("first %ld\n", x);
    fflush(stdout);
    maybe_free(p, really);
    return x + p->a; /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    struct box *p = malloc(sizeof *p);
    p->a = 7;
    p->b = 1;
    printf("%ld\n", twice(p, argc));
    return 0;
}
