/* gimso-test
 * expect: error use after free
 * line: 12
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long total(long *cur, long *old, int use_old, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) {
        long *src = (use_old && i >= n / 2) ? old : cur;
        s += src[i]; /* BUG */
    }
    return s;
}

int main(void) {
    long *old = malloc(8 * sizeof(long));
    long *cur = malloc(8 * sizeof(long));
    for (int i = 0; i < 8; i++) {
        old[i] = i;
        cur[i] = 10 * i;
    }
    printf("%ld\n", total(cur, old, 1, 8));
    free(old);
    printf("%ld\n", total(cur, old, 1, 8));
    return 0;
}
