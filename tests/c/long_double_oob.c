/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void fill(long double *a, int n) {
    for (int i = 0; i <= n; i++)
        a[i] = i * 0.5L; /* BUG */
}

int main(void) {
    long double *a = malloc(4 * sizeof(long double));
    fill(a, 4);
    printf("%Lf\n", a[3]);
    return 0;
}
