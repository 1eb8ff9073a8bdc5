/* gimso-test
 * expect: error out-of-bounds write
 * line: 34
 * stdout:
 * | sigwait: 0 SIGUSR1
 */
/* sigwait takes a blocked signal another thread sends, without a handler;
 * its result goes through the program's pointer, checked for an int. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static void *sender(void *arg) {
    (void)arg;
    usleep(20000);
    kill(getpid(), SIGUSR1);
    return NULL;
}

int main(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_t t;
    pthread_create(&t, NULL, sender, NULL);
    int sig = 0;
    int r = sigwait(&set, &sig);
    pthread_join(t, NULL);
    printf("sigwait: %d %s\n", r, sig == SIGUSR1 ? "SIGUSR1" : "other");
    fflush(stdout);
    short small;
    sigwait(&set, (int *)&small); /* BUG */
    return 0;
}
