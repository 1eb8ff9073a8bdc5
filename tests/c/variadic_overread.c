/* gimso-test
 * expect: error out-of-bounds read
 * line: 16
 * native: no-asan (natively va_arg reads stale register-save slots)
 * stdout:
 * | sum 6
 */
#include <stdarg.h>
#include <stdio.h>

__attribute__((noinline)) long sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    long s = 0;
    for (int i = 0; i < n; i++)
        s += va_arg(ap, long); /* BUG */
    va_end(ap);
    return s;
}

int main(void) {
    printf("sum %ld\n", sum(3, 1L, 2L, 3L));
    fflush(stdout);
    /* Claims 12 arguments, passes 3. */
    printf("sum %ld\n", sum(12, 1L, 2L, 3L));
    return 0;
}
