/* gimso-test
 * expect: error call through function capability at wrong address
 * line: 13
 * native: no-asan (natively jumps into the middle of the function)
 */
#include <stdio.h>

static int answer(void) { return 42; }

typedef int (*fn)(void);

__attribute__((noinline)) int call(fn f) {
    int r = f(); /* BUG */
    return r + 1;
}

int main(void) {
    printf("%d\n", call(answer));
    fflush(stdout);
    printf("%d\n", call((fn)((char *)answer + 1)));
    return 0;
}
