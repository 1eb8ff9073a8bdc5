/* gimso-test
 * expect: error out-of-bounds read
 * line: 9
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int prev(const int *p) {
    return p[-1]; /* BUG */
}

int main(void) {
    int *p = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        p[i] = i + 1;
    printf("%d\n", prev(p));
    free(p);
    return 0;
}
