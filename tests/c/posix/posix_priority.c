/* gimso-test
 * expect: run
 * stdout:
 * | getpriority ok
 * | setpriority ok
 * | nice ok
 * | bad which EINVAL
 */
/* Scheduling priority: getpriority (where -1 is a valid answer, so errno
 * is what tells a failure), setpriority and nice, raising the nice value
 * only (lowering it needs privileges). */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {
    errno = 0;
    int p = getpriority(PRIO_PROCESS, 0);
    printf("getpriority %s\n", errno == 0 && p >= -20 && p <= 19 ? "ok" : "FAILED");
    int want = p < 19 ? p + 1 : 19;
    int r = setpriority(PRIO_PROCESS, 0, want);
    errno = 0;
    int q = getpriority(PRIO_PROCESS, 0);
    printf("setpriority %s\n", r == 0 && errno == 0 && q == want ? "ok" : "FAILED");
    errno = 0;
    int n = nice(1);
    int expect = q < 19 ? q + 1 : 19;
    printf("nice %s\n", errno == 0 && n == expect ? "ok" : "FAILED");
    errno = 0;
    r = getpriority(12345, 0);
    printf("bad which %s\n", r == -1 && errno == EINVAL ? "EINVAL" : "FAILED");
    return 0;
}
