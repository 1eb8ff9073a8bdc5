/* gimso-test
 * expect: error out-of-bounds read
 * line: 23
 * stdout:
 * | 15 15 0
 */
/* An escaping local of constant size is never freed or resized, so its
 * bounds are known in the function that owns it: an indexed read there is
 * one compare of the offset with the size, no header load. Every index
 * inside passes, the first past the end is caught. */
#include <stdio.h>

__attribute__((noinline)) void fill(int *a, int n) {
    for (int i = 0; i < n; i++)
        a[i] = i;
}

__attribute__((noinline)) int sum_to(int k) {
    int a[6];
    fill(a, 6);
    int s = 0;
    for (int i = 0; i <= k; i++)
        s += a[i]; /* BUG */
    return s;
}

int main(int argc, char **argv) {
    (void)argv;
    printf("%d %d %d\n", sum_to(5), sum_to(5 * argc), sum_to(0) * 0);
    fflush(stdout);
    printf("%d\n", sum_to(5 + argc));
    return 0;
}
