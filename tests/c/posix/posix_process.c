/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=50
 * native: differs (dlopen is refused under gimso)
 * stdout:
 * | ids: pid 1 ppid 1 uid 1 gid 1
 * | sysconf page 4096 getpagesize 4096 open max 1
 * | uname sysname Linux hostname matches 1
 * | getrlimit 0 cur<=max 1 setrlimit 0 getrusage 0
 * | fork: child exit 7 list 4950
 * | waitpid nohang 0 then 0
 * | execvp: exit 5
 * | execve: exit 6
 * | execl: exit 4
 * | system: exit 3 null 1
 * | dlopen NULL 1 dlerror [gimso: dlopen is not supported: code loaded at run time would bypass the checks] again NULL 1 dlsym NULL 1
 */
/* Process functions: ids, sysconf, uname/gethostname, limits and usage,
 * fork (the child allocates under GC torture: it needs its own
 * collector), waitpid, the exec family, system, and the refused dlopen. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

struct node {
    struct node *next;
    int value;
};

static int exit_of(pid_t pid) {
    int status = -1;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -2;
}

int main(void) {
    printf("ids: pid %d ppid %d uid %d gid %d\n", getpid() > 1, getppid() >= 1,
           getuid() == geteuid(), getgid() == getegid());
    printf("sysconf page %ld getpagesize %d open max %d\n", sysconf(_SC_PAGESIZE), getpagesize(),
           sysconf(_SC_OPEN_MAX) > 0);

    struct utsname u;
    uname(&u);
    char host[256];
    gethostname(host, sizeof host);
    printf("uname sysname %s hostname matches %d\n", u.sysname, strcmp(host, u.nodename) == 0);

    struct rlimit rl;
    int g = getrlimit(RLIMIT_NOFILE, &rl);
    int s = setrlimit(RLIMIT_NOFILE, &rl);
    struct rusage ru;
    int r = getrusage(RUSAGE_SELF, &ru);
    printf("getrlimit %d cur<=max %d setrlimit %d getrusage %d\n", g,
           rl.rlim_max == RLIM_INFINITY || rl.rlim_cur <= rl.rlim_max, s, r);
    fflush(stdout);

    pid_t pid = fork();
    if (pid == 0) {
        /* The child allocates a lot: collections must run here too. */
        struct node *list = NULL;
        for (int round = 0; round < 200; round++) {
            list = NULL;
            for (int i = 0; i < 100; i++) {
                struct node *n = malloc(sizeof *n);
                n->next = list;
                n->value = i;
                list = n;
            }
        }
        long sum = 0;
        for (struct node *n = list; n; n = n->next)
            sum += n->value;
        printf("fork: child exit 7 list %ld\n", sum);
        fflush(stdout);
        _exit(7);
    }
    int code = exit_of(pid);
    if (code != 7)
        printf("fork: child exit %d\n", code);

    int pipefd[2];
    pipe(pipefd);
    pid = fork();
    if (pid == 0) {
        char c;
        read(pipefd[0], &c, 1);
        _exit(0);
    }
    int status;
    pid_t nohang = waitpid(pid, &status, WNOHANG);
    write(pipefd[1], "x", 1);
    printf("waitpid nohang %d then %d\n", nohang, exit_of(pid));
    close(pipefd[0]);
    close(pipefd[1]);
    fflush(stdout);

    pid = fork();
    if (pid == 0) {
        char *argv[] = {"sh", "-c", "exit 5", NULL};
        execvp("sh", argv);
        _exit(99);
    }
    printf("execvp: exit %d\n", exit_of(pid));
    fflush(stdout);

    pid = fork();
    if (pid == 0) {
        char *argv[] = {"sh", "-c", "exit $CODE", NULL};
        char *envp[] = {"CODE=6", NULL};
        execve("/bin/sh", argv, envp);
        _exit(99);
    }
    printf("execve: exit %d\n", exit_of(pid));
    fflush(stdout);

    pid = fork();
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", "exit 4", (char *)NULL);
        _exit(99);
    }
    printf("execl: exit %d\n", exit_of(pid));

    int sys = system("exit 3");
    printf("system: exit %d null %d\n", WEXITSTATUS(sys), system(NULL) != 0);

    void *h = dlopen("libm.so.6", RTLD_NOW);
    char *err = dlerror();
    char *again = dlerror();
    void *sym = dlsym(RTLD_DEFAULT, "printf");
    printf("dlopen NULL %d dlerror [%s] again NULL %d dlsym NULL %d\n", h == NULL, err,
           again == NULL, sym == NULL);
    return 0;
}
