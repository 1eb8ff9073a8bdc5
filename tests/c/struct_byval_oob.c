/* gimso-test
 * expect: error out-of-bounds read
 * line: 21
 * stdout:
 * | sum 6
 */
/* A struct passed by value on the stack (after the argument registers
 * run out) keeps its pointer's bounds: reading past the 3-long array it
 * names is caught in the callee. */
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    long *items;
    long count;
} Span;

__attribute__((noinline)) static int sum(long a, long b, long c, long d, long e, Span s, int extra) {
    long t = (a + b + c + d + e) * 0 + extra;
    for (long i = 0; i < s.count; i++)
        t += s.items[i]; /* BUG */
    return (int)t;
}

int main(void) {
    long *v = malloc(3 * sizeof(long));
    v[0] = 1, v[1] = 2, v[2] = 3;
    printf("sum %d\n", sum(1, 2, 3, 4, 5, (Span){v, 3}, 0));
    fflush(stdout);
    printf("sum %d\n", sum(1, 2, 3, 4, 5, (Span){v, 4}, 0));
    free(v);
    return 0;
}
