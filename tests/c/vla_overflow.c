/* gimso-test
 * expect: error out-of-bounds write
 * line: 9
 */
#include <stdio.h>

__attribute__((noinline)) void fill(long *v, int n) {
    for (int i = 0; i <= n; i++)
        v[i] = i; /* BUG */
}

__attribute__((noinline)) long work(int n) {
    long v[n];
    fill(v, n);
    return v[0] + v[n - 1];
}

int main(void) {
    printf("%ld\n", work(6));
    return 0;
}
