/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void scale(double *v, int n, double k) {
    for (int i = 0; i <= n; i++)
        v[i] = i * k + 1.0; /* BUG */
}

int main(void) {
    double *v = malloc(6 * sizeof(double));
    for (int i = 0; i < 6; i++)
        v[i] = i;
    scale(v, 6, 2.0);
    printf("%f\n", v[5]);
    free(v);
    return 0;
}
