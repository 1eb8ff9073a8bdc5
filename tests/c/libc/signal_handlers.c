/* gimso-test
 * expect: run
 * stdout:
 * | raise: handler ran before raise returned (10)
 * | alarm: the spinning loop saw the handler's store (100)
 * | blocked: 0, after unblocking: 10
 * | siginfo handler: signal 12
 * | pause returned -1 after the handler (7)
 * | SA_RESETHAND: 1 then default disposition restored
 */
/* Handlers compiled by gimso-cc run at the thread's next safepoint (or
 * before raise/pause/sigprocmask return) and update a volatile
 * sig_atomic_t the program watches. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void add(int sig) { got += sig; }
static void on_alarm(int sig) { (void)sig; got = 100; }
static void with_info(int sig, siginfo_t *info, void *ctx) {
    (void)ctx;
    got = info->si_signo == sig ? sig : -1;
}
static void seven(int sig) { (void)sig; got = 7; }

int main(void) {
    signal(SIGUSR1, add);
    raise(SIGUSR1);
    printf("raise: handler ran before raise returned (%d)\n", (int)got);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    alarm(1);
    while (got != 100) {
    }
    printf("alarm: the spinning loop saw the handler's store (%d)\n", (int)got);

    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigprocmask(SIG_BLOCK, &set, &old);
    got = 0;
    raise(SIGUSR1);
    int blocked = got;
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("blocked: %d, after unblocking: %d\n", blocked, (int)got);

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = with_info;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR2, &sa, NULL);
    raise(SIGUSR2);
    printf("siginfo handler: signal %d\n", (int)got);

    signal(SIGALRM, seven);
    alarm(1);
    int r = pause();
    printf("pause returned %d after the handler (%d)\n", r, (int)got);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = add;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGURG, &sa, NULL);
    got = -(SIGURG - 1);
    raise(SIGURG);
    struct sigaction now;
    sigaction(SIGURG, NULL, &now);
    printf("SA_RESETHAND: %d then %s\n", (int)got,
           now.sa_handler == SIG_DFL ? "default disposition restored" : "still installed");
    return 0;
}
