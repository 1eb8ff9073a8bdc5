/* gimso-test
 * expect: run
 * stdout:
 * | n=5: 0 1 2 3 4 sum 10
 * | n=100: sum 4950
 * | matrix 3x4 corner 11
 */
#include <stdio.h>

__attribute__((noinline)) long fill_sum(int *v, int n) {
    long s = 0;
    for (int i = 0; i < n; i++)
        v[i] = i;
    for (int i = 0; i < n; i++)
        s += v[i];
    return s;
}

static void show(int n) {
    int v[n];
    long s = fill_sum(v, n);
    if (n <= 5) {
        printf("n=%d:", n);
        for (int i = 0; i < n; i++)
            printf(" %d", v[i]);
        printf(" sum %ld\n", s);
    } else {
        printf("n=%d: sum %ld\n", n, s);
    }
}

static int corner(int r, int c) {
    int m[r][c];
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++)
            m[i][j] = i * c + j;
    return m[r - 1][c - 1];
}

int main(void) {
    show(5);
    show(100);
    printf("matrix 3x4 corner %d\n", corner(3, 4));
    return 0;
}
