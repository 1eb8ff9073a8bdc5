/* gimso-test
 * expect: error out-of-bounds write
 * line: 17
 */
/* strftime told its buffer holds 64 bytes when it holds 8: the result (19
 * bytes) would overflow it. The whole claimed size is checked, as C lets
 * strftime use all of it. */
#include <stdio.h>
#include <time.h>

int main(void) {
    time_t t = 1000000000;
    struct tm tm;
    gmtime_r(&t, &tm);
    char small[8];
    size_t claimed = 64;
    size_t n = strftime(small, claimed, "%Y-%m-%d %H:%M:%S", &tm); /* BUG */
    printf("%zu\n", n);
    return 0;
}
