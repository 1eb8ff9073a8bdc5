/* gimso-test
 * expect: error argument size mismatch
 * stdout:
 * | before
 */
/* A call through a function pointer cast to a type with fewer parameters
 * than the callee reads: at -O2 the optimiser would make it a direct call
 * with the missing arguments filled in; the callee is kept unknown to it,
 * so the call check reports the mismatch at both levels. */
#include <stdio.h>

static int add3(int a, int b, int c) { return a + b + c; }

int main(void) {
    int (*f)(int) = (int (*)(int))add3;
    printf("before\n");
    fflush(stdout);
    printf("%d\n", f(1));
    return 0;
}
