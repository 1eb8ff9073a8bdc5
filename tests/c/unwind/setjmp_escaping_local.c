/* gimso-test
 * expect: run
 * stdout:
 * | first: 0
 * | after the jump: 7
 */
/* A volatile local whose address escapes, declared on a path that then
 * calls setjmp and written through its address before longjmp, keeps its
 * value when setjmp returns the second time: its object is not made again.
 * (pass/tests/lazy_alloca.rs checks that functions calling setjmp create
 * such locals at entry.) */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

static __attribute__((noinline)) void fill(volatile int *p, int v) { *p = v; }
static __attribute__((noinline)) void jump(void) { longjmp(env, 1); }

static __attribute__((noinline)) int run(int go) {
    if (go) {
        volatile int local;
        if (setjmp(env) == 0) {
            fill(&local, 7);
            printf("first: 0\n");
            jump();
        }
        return local;
    }
    return -1;
}

int main(int argc, char **argv) {
    (void)argv;
    printf("after the jump: %d\n", run(argc > 0));
    return 0;
}
