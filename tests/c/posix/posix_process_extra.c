/* gimso-test
 * expect: error out-of-bounds write
 * line: 57
 * stdout:
 * | wait4 exited 3 rusage 1
 * | wait3 exited 4
 * | times 1 sysinfo 1 nprocs 1 1
 * | getrandom 16 differ 1
 * | pgrp 1 session 1 setpgid 1
 * | flock 0 0 lockf 0 0
 */
/* wait3/wait4 (with resource usage), times, sysinfo, get_nprocs,
 * getrandom, process groups (getsid is 0 in a container whose session leader
 * is outside its PID namespace), flock/lockf; getrandom into a buffer shorter
 * than the count is caught before anything is written. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/sysinfo.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    int st = 0;
    struct rusage ru;
    memset(&ru, 0xff, sizeof ru);
    if (fork() == 0) _exit(3);
    int pid = wait4(-1, &st, 0, &ru);
    printf("wait4 exited %d rusage %d\n", pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, ru.ru_maxrss >= 0);
    if (fork() == 0) _exit(4);
    pid = wait3(&st, 0, NULL);
    printf("wait3 exited %d\n", pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    struct tms t;
    struct sysinfo si;
    printf("times %d sysinfo %d nprocs %d %d\n", times(&t) != (clock_t)-1, sysinfo(&si) == 0 && si.totalram > 0,
           get_nprocs() >= 1, get_nprocs_conf() >= get_nprocs());
    unsigned char r1[16], r2[16];
    long n = getrandom(r1, sizeof r1, 0);
    getrandom(r2, sizeof r2, 0);
    printf("getrandom %ld differ %d\n", n, memcmp(r1, r2, 16) != 0);
    int sp = setpgid(0, 0);
    printf("pgrp %d session %d setpgid %d\n", getpgrp() == getpgid(0), getsid(0) >= 0,
           sp == 0 || errno == EPERM);
    char path[] = "/tmp/gimso-lock-XXXXXX";
    int fd = mkstemp(path);
    printf("flock %d %d lockf %d %d\n", flock(fd, LOCK_EX), flock(fd, LOCK_UN), lockf(fd, F_LOCK, 0),
           lockf(fd, F_ULOCK, 0));
    unlink(path);
    unsigned char *small = malloc(8);
    return (int)getrandom(small, 32, 0);
}
