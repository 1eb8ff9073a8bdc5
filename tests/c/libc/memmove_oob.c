/* gimso-test
 * expect: error out-of-bounds write
 * line: 11
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Inserts at position i by shifting the tail right, without growing. */
__attribute__((noinline)) void insert_at(int *a, int n, int i, int v) {
    memmove(a + i + 1, a + i, (size_t)(n - i) * sizeof(int)); /* BUG */
    a[i] = v;
}

int main(void) {
    int *a = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        a[i] = i;
    insert_at(a, 8, 3, 100);
    printf("%d\n", a[3]);
    return 0;
}
