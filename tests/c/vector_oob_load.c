/* gimso-test
 * expect: error out-of-bounds read
 * line: 14
 */
#include <stdio.h>
#include <stdlib.h>

typedef int v4si __attribute__((vector_size(16)));

__attribute__((noinline)) int sum(const int *a, int n) {
    v4si acc = {0, 0, 0, 0};
    /* Processes 4 at a time and rounds n up: reads past the end. */
    for (int i = 0; i < n; i += 4)
        acc += *(const v4si *)(a + i); /* BUG */
    return acc[0] + acc[1] + acc[2] + acc[3];
}

int main(void) {
    int *a = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        a[i] = i;
    printf("%d\n", sum(a, 8));
    printf("%d\n", sum(a, 10));
    free(a);
    return 0;
}
