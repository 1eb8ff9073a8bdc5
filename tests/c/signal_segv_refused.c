/* gimso-test
 * expect: run
 * stderr: is refused
 * stdout:
 * | SIGSEGV handler refused (EINVAL)
 * | SIGFPE handler refused
 */
/* Handlers for the fault signals are refused with a clear message: a bad
 * access is a safety report under gimso, never a SIGSEGV to recover from. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void handler(int sig) { (void)sig; }

int main(void) {
    if (signal(SIGSEGV, handler) == SIG_ERR && errno == EINVAL)
        printf("SIGSEGV handler refused (EINVAL)\n");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    if (sigaction(SIGFPE, &sa, NULL) == -1)
        printf("SIGFPE handler refused\n");
    return 0;
}
