/* gimso-test
 * expect: error use after free
 * line: 31
 * stdout:
 * | round 0
 * | round 1
 * | round 2
 */
/* What was checked before a loop holds inside it only when the loop calls
 * nothing: here the loop calls a function that frees p at the end of its
 * second round, so the next read of p->a, checked before the loop, is a use
 * after free. */
#include <stdio.h>
#include <stdlib.h>

struct box {
    long a;
    long b;
};

__attribute__((noinline)) void maybe_free(struct box *p, int round, int when) {
    if (round == when)
        free(p);
}

__attribute__((noinline)) long rounds(struct box *p, int n, int when) {
    long s = p->a;
    for (int i = 0; i < n; i++) {
        printf("round %d\n", i);
        fflush(stdout);
        s += p->a; /* BUG */
        maybe_free(p, i, when);
    }
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    struct box *p = malloc(sizeof *p);
    p->a = 7;
    p->b = 1;
    printf("%ld\n", rounds(p, 3, argc));
    return 0;
}
