/* gimso-test
 * expect: run
 * stdout:
 * | trace 15
 * | product row0 30 24 18
 * | product row2 138 114 90
 * | jagged 0 1 3 6 10
 */
#include <stdio.h>
#include <stdlib.h>

#define N 3

static void matmul(int a[N][N], int b[N][N], int c[N][N]) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

int main(void) {
    int a[N][N] = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
    int b[N][N] = {{9, 8, 7}, {6, 5, 4}, {3, 2, 1}};
    int (*c)[N] = malloc(sizeof(int[N][N]));
    int t = 0;
    for (int i = 0; i < N; i++)
        t += a[i][i];
    printf("trace %d\n", t);
    matmul(a, b, c);
    printf("product row0 %d %d %d\n", c[0][0], c[0][1], c[0][2]);
    printf("product row2 %d %d %d\n", c[2][0], c[2][1], c[2][2]);
    int **jag = malloc(5 * sizeof(int *));
    for (int i = 0; i < 5; i++) {
        jag[i] = malloc((i + 1) * sizeof(int));
        jag[i][0] = 0;
        for (int j = 1; j <= i; j++)
            jag[i][j] = jag[i][j - 1] + j;
    }
    printf("jagged");
    for (int i = 0; i < 5; i++)
        printf(" %d", jag[i][i]);
    printf("\n");
    for (int i = 0; i < 5; i++)
        free(jag[i]);
    free(jag);
    free(c);
    return 0;
}
