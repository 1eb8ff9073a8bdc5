/* gimso-test
 * expect: run
 * stdout:
 * | raise 8 frames deep: back with 1, depth was 8
 * | handler ran 1, mask restored: 1
 * | alarm in a loop: back with 2, counter ran: 1
 * | raise again: back with 3
 * | longjmp without mask: back with 4, SIGUSR2 blocked: 1
 * | local kept: 42
 */
/* siglongjmp (and longjmp) out of a signal handler into a live frame, as
 * POSIX allows: from raise() called several frames deep, from SIGALRM
 * arriving while compiled code spins in a loop, and again afterwards;
 * sigsetjmp(env, 1) restores the signal mask, so the handler's signal is
 * unblocked after the jump. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static sigjmp_buf env;
static jmp_buf plain_env;
static volatile sig_atomic_t handled;
static volatile int depth_reached;
static volatile long spins;

static void on_usr1(int sig) {
    handled++;
    siglongjmp(env, sig == SIGUSR1 ? 1 : 9);
}

static void on_alarm(int sig) {
    (void)sig;
    siglongjmp(env, 2);
}

static void on_usr1_again(int sig) {
    (void)sig;
    siglongjmp(env, 3);
}

static void on_usr2(int sig) {
    (void)sig;
    longjmp(plain_env, 4);
}

__attribute__((noinline)) static int dive(int depth) {
    depth_reached = depth;
    if (depth == 8)
        return raise(SIGUSR1);
    return dive(depth + 1) + 1;
}

static int blocked(int sig) {
    sigset_t now;
    sigprocmask(SIG_BLOCK, NULL, &now);
    return sigismember(&now, sig);
}

int main(void) {
    volatile int local = 42;
    signal(SIGUSR1, on_usr1);
    int r = sigsetjmp(env, 1);
    if (r == 0) {
        dive(1);
        printf("not reached\n");
        return 1;
    }
    printf("raise 8 frames deep: back with %d, depth was %d\n", r, depth_reached);
    printf("handler ran %d, mask restored: %d\n", (int)handled, !blocked(SIGUSR1));

    signal(SIGALRM, on_alarm);
    r = sigsetjmp(env, 1);
    if (r == 0) {
        alarm(1);
        for (;;)
            spins++;
    }
    printf("alarm in a loop: back with %d, counter ran: %d\n", r, spins > 0);

    signal(SIGUSR1, on_usr1_again);
    r = sigsetjmp(env, 1);
    if (r == 0) {
        dive(1);
        return 1;
    }
    printf("raise again: back with %d\n", r);

    /* setjmp saves no mask: after longjmp the handler's signal stays
     * blocked, as in a native build. */
    signal(SIGUSR2, on_usr2);
    r = setjmp(plain_env);
    if (r == 0) {
        raise(SIGUSR2);
        return 1;
    }
    printf("longjmp without mask: back with %d, SIGUSR2 blocked: %d\n", r, blocked(SIGUSR2));
    printf("local kept: %d\n", local);
    return 0;
}
