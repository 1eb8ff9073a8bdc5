/* gimso-test
 * expect: error out-of-bounds read
 * line: 31
 * stdout:
 * | in bounds 7
 */
/* A pointer in a union passed by value as integers keeps its real
 * capability, not a blanket one: reading one element past its 4-int
 * array is caught in the callee. */
#include <stdio.h>
#include <stdlib.h>

typedef union U {
    int i;
    double d;
    int *p;
} U;
typedef struct V {
    U u;
    long tag;
} V;

__attribute__((noinline)) static V wrap(int *p) {
    V v;
    v.u.p = p;
    v.tag = 1;
    return v;
}

__attribute__((noinline)) static int at(V v, int i) {
    return v.u.p[i]; /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    int *xs = malloc(4 * sizeof *xs);
    for (int i = 0; i < 4; i++)
        xs[i] = i + 4;
    V v = wrap(xs);
    printf("in bounds %d\n", at(v, 3));
    fflush(stdout);
    printf("out of bounds %d\n", at(v, 3 + argc));
    return 0;
}
