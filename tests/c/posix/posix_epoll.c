/* gimso-test
 * expect: error out-of-bounds write
 * line: 141
 * env: GIMSO_GC_THRESHOLD=256K
 * stdout:
 * | create 1 1
 * | empty 0
 * | ready 2 conn pipe-reader 1 fd 1
 * | after gc: pipe-reader 7
 * | mod 1 EPOLLOUT 1 conn socket-end
 * | pwait 1 pwait2 1
 * | del 0 then 0 rc -1
 * | closed instance: create 1
 */
/* epoll with pointers in epoll_data: the kernel keeps the data, gimso
 * keeps its capability (and the object alive: the only reference to the
 * connection below is the kernel's registration while the collector
 * runs); an event array shorter than maxevents is caught before the wait.
 * Descriptors registered with data.fd come back as integers. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct conn {
    int fd;
    int hits;
    char name[24];
};

static struct conn *new_conn(int fd, const char *name) {
    struct conn *c = malloc(sizeof *c);
    c->fd = fd;
    c->hits = 0;
    strcpy(c->name, name);
    return c;
}

/* Registers a new connection for fd: afterwards the registration is the
 * only reference to it (the function's frame is gone). */
__attribute__((noinline)) static int watch(int ep, int op, int fd, unsigned events, const char *name) {
    struct epoll_event ev = {.events = events};
    ev.data.ptr = new_conn(fd, name);
    return epoll_ctl(ep, op, fd, &ev);
}

/* Several collections' worth of same-size objects, after overwriting the
 * argument slots the last calls used (the thread's argument buffers are
 * roots). */
__attribute__((noinline)) static void churn(void) {
    char b[8];
    snprintf(b, sizeof b, "%s%s%s%s%s", "", "", "", "", "");
    for (int i = 0; i < 40000; i++) {
        struct conn *junk = new_conn(-1, "junk");
        junk->hits = i;
    }
}

/* The first wait, in a frame of its own (so no copy of the pointer it
 * gets stays in main's). */
__attribute__((noinline)) static void first_events(int ep, int reader, int fd) {
    struct epoll_event out[4];
    int n = epoll_wait(ep, out, 4, 1000);
    struct conn *got = NULL;
    int fd_seen = 0;
    for (int i = 0; i < n; i++) {
        if (out[i].data.fd == fd)
            fd_seen = 1;
        else
            got = out[i].data.ptr;
    }
    printf("ready %d conn %s %d fd %d\n", n, got ? got->name : "?", got && got->fd == reader, fd_seen);
}

int main(void) {
    int ep = epoll_create1(EPOLL_CLOEXEC);
    int ep_old = epoll_create(4);
    printf("create %d %d\n", ep >= 0, ep_old >= 0);
    int p[2], s[2];
    pipe(p);
    socketpair(AF_UNIX, SOCK_STREAM, 0, s);

    watch(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, "pipe-reader");
    struct epoll_event ev = {.events = EPOLLIN};
    ev.data.fd = s[1];
    epoll_ctl(ep, EPOLL_CTL_ADD, s[1], &ev);

    struct epoll_event out[4];
    printf("empty %d\n", epoll_wait(ep, out, 4, 0));
    write(p[1], "x", 1);
    write(s[0], "y", 1);
    first_events(ep, p[0], s[1]);

    /* The connection is reachable only through the registration now:
     * allocate enough for several collections, then use it again. */
    churn();
    int n = epoll_wait(ep, out, 4, 1000);
    struct conn *got = NULL;
    for (int i = 0; i < n; i++)
        if (out[i].data.fd != s[1]) {
            got = out[i].data.ptr;
            got->hits = 7;
        }
    printf("after gc: %s %d\n", got ? got->name : "?", got ? got->hits : -1);

    int m = watch(ep, EPOLL_CTL_MOD, s[1], EPOLLOUT, "socket-end");
    n = epoll_wait(ep, out, 4, 1000);
    struct conn *c = NULL;
    int outs = 0;
    for (int i = 0; i < n; i++)
        if (out[i].events & EPOLLOUT) {
            outs++;
            c = out[i].data.ptr;
        }
    printf("mod %d EPOLLOUT %d conn %s\n", m == 0, outs, c ? c->name : "?");

    sigset_t none;
    sigemptyset(&none);
    struct timespec zero = {0, 0};
    int a = epoll_pwait(ep, out, 4, 0, &none);
    int b = epoll_pwait2(ep, out, 4, &zero, NULL);
    printf("pwait %d pwait2 %d\n", a >= 1, b >= 1);

    int d = epoll_ctl(ep, EPOLL_CTL_DEL, s[1], NULL);
    errno = 0;
    int again = epoll_ctl(ep, EPOLL_CTL_DEL, s[1], NULL);
    printf("del %d then %d rc %d\n", d, errno == ENOENT ? 0 : errno, again);

    close(ep);
    int ep2 = epoll_create1(0);
    printf("closed instance: create %d\n", ep2 >= 0);
    epoll_ctl(ep2, EPOLL_CTL_ADD, p[0], &(struct epoll_event){.events = EPOLLIN});

    struct epoll_event *two = malloc(2 * sizeof *two);
    return epoll_wait(ep2, two, 8, 0);
}
