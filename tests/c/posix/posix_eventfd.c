/* gimso-test
 * expect: error out-of-bounds write
 * line: 62
 * stdout:
 * | eventfd 1 write 0 0 read 0 value 12
 * | semaphore 1 1 then EAGAIN 1
 * | timerfd 1 settime 0 old 0 gettime 0 armed 1 fired 1
 * | signalfd 1 got SIGUSR1 1
 */
/* eventfd (counter and semaphore modes), timerfd (arming, the previous
 * setting, expiry read with read), signalfd (a blocked signal read as a
 * signalfd_siginfo); eventfd_read into the last 4 bytes of an object is
 * caught before anything is read. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    int e = eventfd(2, EFD_CLOEXEC);
    int w1 = eventfd_write(e, 3), w2 = eventfd_write(e, 7);
    eventfd_t v = 0;
    int r = eventfd_read(e, &v);
    printf("eventfd %d write %d %d read %d value %llu\n", e >= 0, w1, w2, r, (unsigned long long)v);

    int sem = eventfd(1, EFD_SEMAPHORE | EFD_NONBLOCK);
    uint64_t one = 0;
    ssize_t n = read(sem, &one, sizeof one);
    errno = 0;
    ssize_t again = read(sem, &one, sizeof one);
    printf("semaphore %d %d then EAGAIN %d\n", n == 8, (int)one, again == -1 && errno == EAGAIN);

    int t = timerfd_create(CLOCK_MONOTONIC, 0);
    struct itimerspec set = {.it_value = {0, 20 * 1000 * 1000}}, old, cur;
    int s1 = timerfd_settime(t, 0, &set, &old);
    int g = timerfd_gettime(t, &cur);
    uint64_t expirations = 0;
    read(t, &expirations, sizeof expirations);
    printf("timerfd %d settime %d old %d gettime %d armed %d fired %d\n", t >= 0, s1,
           (int)(old.it_value.tv_sec + old.it_value.tv_nsec), g,
           cur.it_value.tv_sec > 0 || cur.it_value.tv_nsec > 0, expirations == 1);

    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGUSR1);
    sigprocmask(SIG_BLOCK, &mask, NULL);
    int sfd = signalfd(-1, &mask, 0);
    raise(SIGUSR1);
    struct signalfd_siginfo info;
    ssize_t got = read(sfd, &info, sizeof info);
    printf("signalfd %d got SIGUSR1 %d\n", sfd >= 0, got == sizeof info && info.ssi_signo == SIGUSR1);

    eventfd_write(e, 1);
    char *eight = malloc(8);
    return eventfd_read(e, (eventfd_t *)(eight + 4));
}
