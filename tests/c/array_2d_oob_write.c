/* gimso-test
 * expect: error out-of-bounds write
 * line: 10
 */
#include <stdio.h>

__attribute__((noinline)) void fill(int (*m)[4], int rows) {
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < 4; j++)
            m[i][j] = i * 4 + j; /* BUG */
}

int main(void) {
    int m[3][4];
    fill(m, 4);
    printf("%d\n", m[2][3]);
    return 0;
}
