/* gimso-test
 * expect: error out-of-bounds read
 * line: 13
 * stdout:
 * | sum of 8: 28
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long sum(const int *a, int n) {
    long s = 0;
    for (int i = 0; i < n; i++)
        s += a[i]; /* BUG */
    return s;
}

int main(void) {
    int *a = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        a[i] = i;
    printf("sum of 8: %ld\n", sum(a, 8));
    fflush(stdout);
    printf("sum of 9: %ld\n", sum(a, 9));
    free(a);
    return 0;
}
