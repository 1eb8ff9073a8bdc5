/* gimso-test
 * expect: error out-of-bounds read
 * line: 19
 * stdout:
 * | 7
 */
/* A pointer passed as `unsigned long` (Oniguruma's and Ruby's st.c
 * tables) converts back to a pointer with its own capability: a 64-bit
 * integer crosses a call with the capability that flowed into it. It is
 * the pointer's real capability, not a blanket one: reading past its
 * 4-int object is caught. (An integer with no pointer behind it has none:
 * tests/c/union_int_never_pointer.c.) */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned long data_t;

static int __attribute__((noinline)) at(data_t key, int i) {
    return ((int *)key)[i]; /* BUG */
}

int main(int argc, char **argv) {
    (void)argv;
    int *a = malloc(4 * sizeof *a);
    a[0] = 7;
    printf("%d\n", at((data_t)a, 0));
    fflush(stdout);
    printf("%d\n", at((data_t)a, 3 + argc));
    return 0;
}
