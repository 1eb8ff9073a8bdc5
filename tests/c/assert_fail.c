/* gimso-test
 * expect: run
 * exit: 134
 * stderr: Assertion
 * stdout:
 * | checking
 */
#include <assert.h>
#include <stdio.h>

__attribute__((noinline)) int half(int x) {
    assert(x % 2 == 0 && "x must be even");
    return x / 2;
}

int main(void) {
    printf("checking\n");
    fflush(stdout);
    int r = half(4) + half(3);
    printf("%d\n", r);
    return 0;
}
