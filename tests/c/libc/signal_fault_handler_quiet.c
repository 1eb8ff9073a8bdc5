/* gimso-test
 * expect: error access through pointer with null capability
 * line: 40
 * stdout:
 * | installed
 * | recorded
 * | reset
 */
/* A handler for a fault signal (SIGSEGV, SIGBUS, SIGFPE) is accepted
 * quietly and recorded, as bzip2 installs one to print a last message; it
 * never runs: a bad access is a safety report under gimso. Resetting the
 * disposition to SIG_DFL leaves the runtime's own handling in place. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void handler(int sig) {
    (void)sig;
    static const char msg[] = "handler ran\n";
    write(1, msg, sizeof msg - 1);
    _exit(3);
}

int main(void) {
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    if (signal(SIGSEGV, handler) != SIG_ERR && sigaction(SIGBUS, &sa, NULL) == 0 &&
        sigaction(SIGFPE, &sa, NULL) == 0)
        printf("installed\n");
    memset(&old, 0, sizeof old);
    if (sigaction(SIGBUS, NULL, &old) == 0 && old.sa_handler == handler)
        printf("recorded\n");
    if (signal(SIGSEGV, SIG_DFL) == handler)
        printf("reset\n");
    fflush(stdout);
    int *volatile p = NULL;
    int *q = p;
    return *q; /* BUG */
}
