/* gimso-test
 * expect: error out-of-bounds read
 * line: 13
 */
#include <stdio.h>
#include <stdlib.h>

/* Compares pairs (a[0], a[1]) but the array is sorted as single ints. */
static int cmp_pair(const void *a, const void *b) {
    const int *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] - y[0];
    return x[1] - y[1]; /* BUG */
}

int main(void) {
    int *v = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        v[i] = 5;
    qsort(v, 8, sizeof(int), cmp_pair);
    printf("%d\n", v[0]);
    return 0;
}
