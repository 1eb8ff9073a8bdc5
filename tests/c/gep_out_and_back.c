/* gimso-test
 * expect: run
 * stdout:
 * | far back: 3
 * | below and up: 1
 * | one past end compare: yes
 * | walk: 0 2 4 6
 */
#include <stdio.h>
#include <stdlib.h>

/* Pointer arithmetic may leave the object; only accesses are checked. */
__attribute__((noinline)) int *offset(int *p, long by) { return p + by; }

int main(void) {
    int *a = malloc(8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        a[i] = i;
    int *far = offset(a, 1000000);
    int *back = offset(far, -999997);
    printf("far back: %d\n", *back);
    int *below = offset(a, -50);
    printf("below and up: %d\n", *offset(below, 51));
    int *end = a + 8;
    printf("one past end compare: %s\n", end - a == 8 ? "yes" : "no");
    printf("walk:");
    for (int *p = offset(a, -8) + 8; p < end; p += 2)
        printf(" %d", *p);
    printf("\n");
    free(a);
    return 0;
}
