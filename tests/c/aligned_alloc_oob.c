/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) void clear(double *v, int n) {
    for (int i = 0; i < n; i++)
        v[i] = 0.0; /* BUG */
}

int main(void) {
    double *v = aligned_alloc(64, 8 * sizeof(double));
    clear(v, 9);
    printf("%f\n", v[0]);
    return 0;
}
