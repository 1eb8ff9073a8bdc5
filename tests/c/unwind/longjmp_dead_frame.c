/* gimso-test
 * expect: error longjmp to a frame no longer on the stack
 * line: 22
 * stdout:
 * | setjmp in a function that returns
 */
/* A longjmp to a setjmp whose function has returned: that frame is gone
 * (another call now uses its stack), so the jump is a safety error. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

static __attribute__((noinline)) int arm(void) {
    printf("setjmp in a function that returns\n");
    return setjmp(env);
}

static __attribute__((noinline)) void later(int r) {
    volatile char scratch[64] = {0};
    if (r == 0)
        longjmp(env, 1); /* BUG */
    (void)scratch;
}

int main(void) {
    int r = arm();
    later(r);
    printf("not reached\n");
    return 0;
}
