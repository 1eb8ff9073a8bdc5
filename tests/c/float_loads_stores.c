/* gimso-test
 * expect: run
 * stdout:
 * | floats 1.500 3.250 -0.125
 * | dot 70.000000
 * | mixed 2.500000 7 0.333333
 */
#include <stdio.h>
#include <stdlib.h>

struct rec {
    float f;
    int i;
    double d;
};

__attribute__((noinline)) double dot(const double *a, const double *b, int n) {
    double s = 0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

int main(void) {
    float *f = malloc(3 * sizeof(float));
    f[0] = 1.5f;
    f[1] = 3.25f;
    f[2] = -0.125f;
    printf("floats %.3f %.3f %.3f\n", f[0], f[1], f[2]);
    double a[4] = {1, 2, 3, 4};
    double *b = malloc(4 * sizeof(double));
    for (int i = 0; i < 4; i++)
        b[i] = 2.0 * (i + 1) + 1.0;
    /* 1*3 + 2*5 + 3*7 + 4*9 = 70 */
    printf("dot %f\n", dot(a, b, 4));
    struct rec *r = calloc(2, sizeof *r);
    r[1].f = 2.5f;
    r[1].i = 7;
    r[1].d = 1.0 / 3.0;
    printf("mixed %f %d %f\n", r[1].f, r[1].i, r[1].d);
    free(r);
    free(b);
    free(f);
    return 0;
}
