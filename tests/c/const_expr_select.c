/* gimso-test
 * expect: run
 * stdout:
 * | 0 7 1 1 1
 */
/* Constant expressions LLVM folds from comparisons of global addresses at
 * -O2: a `select` on `&a[2] == &b[0]`, an address converted to `double`
 * and compared with `fcmp`. All compile and keep each arm's capability. */
#include <stdio.h>

int a[2], b[2];

static int *pick(void) { return &a[1] == &b[0] ? &a[0] : &b[1]; }
int same(void) { return &a[2] == &b[0]; }
double positive(void) { return (double)(unsigned long)&a[0] > 0 ? 1.0 : 0.0; }

int main(void) {
    int *p = pick();
    *p = 7;
    printf("%d %d %d %d %g\n", a[0], b[1], same() == (&a[2] == &b[0]),
           (int)(p == &a[0] || p == &b[1]), positive());
    return 0;
}
