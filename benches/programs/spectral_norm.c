/* spectral-norm (Computer Language Benchmarks Game style).
 * Usage: spectral_norm [n]   (default 4000) */
#include <stdio.h>
#include <stdlib.h>

static double a(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }

static void mul_av(int n, const double *v, double *av) {
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += a(i, j) * v[j];
        av[i] = s;
    }
}

static void mul_atv(int n, const double *v, double *atv) {
    for (int i = 0; i < n; i++) {
        double s = 0;
        for (int j = 0; j < n; j++)
            s += a(j, i) * v[j];
        atv[i] = s;
    }
}

static void mul_atav(int n, const double *v, double *out, double *tmp) {
    mul_av(n, v, tmp);
    mul_atv(n, tmp, out);
}

static double my_sqrt(double v) {
    double r = v > 1 ? v : 1;
    for (int i = 0; i < 60; i++)
        r = 0.5 * (r + v / r);
    return r;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4000;
    double *u = malloc(n * sizeof(double)), *v = malloc(n * sizeof(double));
    double *tmp = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++)
        u[i] = 1;
    for (int i = 0; i < 10; i++) {
        mul_atav(n, u, v, tmp);
        mul_atav(n, v, u, tmp);
    }
    double vbv = 0, vv = 0;
    for (int i = 0; i < n; i++) {
        vbv += u[i] * v[i];
        vv += v[i] * v[i];
    }
    printf("%.9f\n", my_sqrt(vbv / vv));
    free(u);
    free(v);
    free(tmp);
    return 0;
}
