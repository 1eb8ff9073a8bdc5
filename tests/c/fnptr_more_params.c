/* gimso-test
 * expect: error argument size mismatch
 * line: 15
 * native: no-asan (the callee reads whatever is in the argument registers)
 * stdout:
 * | direct 6
 */
#include <stdio.h>

__attribute__((noinline)) int add3(int a, int b, int c) { return a + b + c; }

typedef int (*one_arg)(int);

__attribute__((noinline)) int call_one(one_arg f, int x) {
    int r = f(x); /* BUG */
    return r + 1;
}

int main(void) {
    printf("direct %d\n", add3(1, 2, 3));
    fflush(stdout);
    /* add3 needs 24 bytes of arguments; the caller passes 8. */
    printf("cast %d\n", call_one((one_arg)add3, 1));
    return 0;
}
