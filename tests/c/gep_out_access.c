/* gimso-test
 * expect: error out-of-bounds read
 * line: 21
 * stdout:
 * | in range: 7
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int *offset(int *p, long by) { return p + by; }

int main(void) {
    int *a = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        a[i] = i;
    int *far = offset(a, 1000);
    int *near = offset(far, -993);
    printf("in range: %d\n", *near);
    fflush(stdout);
    int *past = offset(near, 1);
    printf("past: %d\n", *past); /* BUG */
    return 0;
}
