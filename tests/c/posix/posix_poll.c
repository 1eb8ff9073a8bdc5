/* gimso-test
 * expect: error out-of-bounds write
 * line: 57
 * stdout:
 * | poll empty 0 revents 0
 * | poll ready 1 POLLIN 1 POLLOUT 1
 * | ppoll 1 POLLIN 1
 * | select 2 read 1 write 1 other 0
 * | select timeout 0 tv 0 0
 * | pselect 1 read 1
 */
/* poll/ppoll/select/pselect on a pipe; an array shorter than nfds is
 * caught before the call waits. */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/select.h>
#include <unistd.h>

int main(void) {
    int fd[2];
    pipe(fd);
    struct pollfd p[2] = {{.fd = fd[0], .events = POLLIN}, {.fd = fd[1], .events = POLLOUT}};
    int n = poll(p, 1, 0);
    printf("poll empty %d revents %d\n", n, p[0].revents);
    write(fd[1], "x", 1);
    n = poll(p, 2, 1000);
    printf("poll ready %d POLLIN %d POLLOUT %d\n", n - 1, (p[0].revents & POLLIN) != 0,
           (p[1].revents & POLLOUT) != 0);
    struct timespec ts = {1, 0};
    sigset_t mask;
    sigemptyset(&mask);
    n = ppoll(p, 1, &ts, &mask);
    printf("ppoll %d POLLIN %d\n", n, (p[0].revents & POLLIN) != 0);
    fd_set r, w, e;
    FD_ZERO(&r); FD_ZERO(&w); FD_ZERO(&e);
    FD_SET(fd[0], &r); FD_SET(fd[1], &w); FD_SET(fd[0], &e);
    struct timeval tv = {1, 0};
    n = select(fd[1] + 1, &r, &w, &e, &tv);
    printf("select %d read %d write %d other %d\n", n, FD_ISSET(fd[0], &r) != 0, FD_ISSET(fd[1], &w) != 0,
           FD_ISSET(fd[0], &e) != 0);
    char c;
    read(fd[0], &c, 1);
    FD_ZERO(&r); FD_SET(fd[0], &r);
    tv.tv_sec = 0; tv.tv_usec = 0;
    n = select(fd[0] + 1, &r, NULL, NULL, &tv);
    printf("select timeout %d tv %ld %ld\n", n, (long)tv.tv_sec, (long)tv.tv_usec);
    write(fd[1], "y", 1);
    FD_ZERO(&r); FD_SET(fd[0], &r);
    n = pselect(fd[0] + 1, &r, NULL, NULL, &ts, &mask);
    printf("pselect %d read %d\n", n, FD_ISSET(fd[0], &r) != 0);
    struct pollfd *one = malloc(sizeof *one);
    one->fd = fd[0];
    one->events = POLLIN;
    poll(one, 2, 0); /* two entries claimed, one allocated */
    return 0;
}
