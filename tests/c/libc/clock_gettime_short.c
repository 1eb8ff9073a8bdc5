/* gimso-test
 * expect: error out-of-bounds write
 * line: 14
 */
/* clock_gettime writes a 16-byte struct timespec; given an 8-byte buffer
 * it would overflow it. */
#include <stdio.h>
#include <stdint.h>
#include <time.h>

int main(void) {
    int64_t room[1];
    struct timespec *ts = (struct timespec *)room;
    clock_gettime(CLOCK_MONOTONIC, ts); /* BUG */
    printf("%lld\n", (long long)ts->tv_sec);
    return 0;
}
