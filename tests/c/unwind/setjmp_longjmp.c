/* gimso-test
 * expect: run
 * stdout:
 * | first pass: 0
 * | dive to 3, jump with 5
 * | back with 5: volatile 1, memory 10
 * | dive to 3, jump with 6
 * | back with 6: volatile 2, memory 20
 * | inner 1, outer 0
 * | outer caught 9
 * | longjmp(env, 0) arrives as 1
 * | sigsetjmp: 0 then 4
 * | done
 */
/* setjmp/longjmp across frames: the jump returns to the setjmp with the
 * value (0 becomes 1); volatile locals and memory keep their latest values;
 * jmp_bufs nest (an inner one can jump out past its own frame to an outer
 * one); sigsetjmp/siglongjmp. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;

static __attribute__((noinline)) void dive(int n, int val) {
    if (n == 3) {
        printf("dive to %d, jump with %d\n", n, val);
        longjmp(env, val);
    }
    dive(n + 1, val);
    printf("not reached\n");
}

static jmp_buf outer;

static __attribute__((noinline)) void inner_then_outer(void) {
    jmp_buf inner;
    int r = setjmp(inner);
    if (r == 0)
        longjmp(inner, 1);
    printf("inner %d, outer 0\n", r);
    longjmp(outer, 9);
}

int main(void) {
    volatile int tries = 0;
    int *memory = malloc(sizeof *memory);
    *memory = 0;
    int r = setjmp(env);
    if (r == 0)
        printf("first pass: %d\n", r);
    else
        printf("back with %d: volatile %d, memory %d\n", r, tries, *memory);
    if (tries < 2) {
        tries++;
        *memory += 10;
        dive(0, 4 + tries);
    }
    if ((r = setjmp(outer)) == 0)
        inner_then_outer();
    printf("outer caught %d\n", r);
    jmp_buf zero;
    if ((r = setjmp(zero)) == 0)
        longjmp(zero, 0);
    printf("longjmp(env, 0) arrives as %d\n", r);
    sigjmp_buf sig;
    volatile int first = -1;
    r = sigsetjmp(sig, 1);
    if (first < 0) {
        first = r;
        siglongjmp(sig, 4);
    }
    printf("sigsetjmp: %d then %d\n", first, r);
    free(memory);
    printf("done\n");
    return 0;
}
