/* gimso-test
 * expect: run
 * native: differs (fork with other threads running is refused under gimso)
 * stderr: fork refused
 * stdout:
 * | fork with two threads: -1 EAGAIN 1
 * | after join: fork ok, child exit 9
 */
/* fork() while another thread is registered is refused cleanly (EAGAIN and
 * a warning); once the thread is joined, fork works again. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

static int fds[2];

static void *waiter(void *arg) {
    char c;
    read(fds[0], &c, 1);
    return arg;
}

int main(void) {
    pipe(fds);
    pthread_t t;
    pthread_create(&t, NULL, waiter, NULL);
    errno = 0;
    pid_t pid = fork();
    if (pid == 0)
        _exit(1);
    printf("fork with two threads: %d EAGAIN %d\n", pid, errno == EAGAIN);
    write(fds[1], "x", 1);
    pthread_join(t, NULL);
    fflush(stdout);
    pid = fork();
    if (pid == 0)
        _exit(9);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("after join: fork ok, child exit %d\n", WEXITSTATUS(status));
    return 0;
}
