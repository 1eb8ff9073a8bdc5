/* gimso-test
 * expect: run
 * stdout:
 * | strtoq -42 strtouq 255
 * | getentropy 0 nonzero 1
 * | getentropy 257 -1 EIO 1
 * | arc4random_uniform in range 1
 * | arc4random_buf 1
 * | getloadavg 3
 * | tmpnam /tmp/ 1
 * | tempnam prefix ab 1
 * | siginterrupt 0
 * | child: child1 child2
 * | atfork prepare2 prepare1 parent1 parent2
 */
/* The BSD and GNU extensions configure scripts probe for: they link and
 * behave as glibc's do. */
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

long long strtoq(const char *, char **, int);
unsigned long long strtouq(const char *, char **, int);
char *tmpnam(char *);
char *tempnam(const char *, const char *);

static char order[128];
static void add(const char *s) {
    strcat(order, " ");
    strcat(order, s);
}
static void prepare1(void) { add("prepare1"); }
static void prepare2(void) { add("prepare2"); }
static void parent1(void) { add("parent1"); }
static void parent2(void) { add("parent2"); }
static void child1(void) { add("child1"); }
static void child2(void) { add("child2"); }
static void on_alarm(int sig) { (void)sig; }

int main(void) {
    char *end;
    printf("strtoq %lld strtouq %llu\n", strtoq("-42", &end, 10), strtouq("ff", &end, 16));

    unsigned char buf[32] = {0};
    int r = getentropy(buf, sizeof buf);
    int nonzero = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        nonzero |= buf[i] != 0;
    printf("getentropy %d nonzero %d\n", r, nonzero);
    unsigned char big[300];
    errno = 0;
    r = getentropy(big, 257);
    printf("getentropy 257 %d EIO %d\n", r, errno == EIO);

    int ok = 1;
    for (int i = 0; i < 1000; i++)
        ok &= arc4random_uniform(7) < 7;
    (void)arc4random();
    printf("arc4random_uniform in range %d\n", ok);
    memset(buf, 0, sizeof buf);
    arc4random_buf(buf, sizeof buf);
    nonzero = 0;
    for (size_t i = 0; i < sizeof buf; i++)
        nonzero |= buf[i] != 0;
    printf("arc4random_buf %d\n", nonzero);

    double load[3];
    printf("getloadavg %d\n", getloadavg(load, 3));

    char name[L_tmpnam];
    char *t = tmpnam(name);
    printf("tmpnam %.5s %d\n", t, t == name && strlen(name) > 5);
    char *tn = tempnam("/tmp", "abcdefg");
    const char *base = tn ? strrchr(tn, '/') + 1 : "";
    printf("tempnam prefix %.2s %d\n", base, tn && strncmp(base, "abcde", 5) == 0);
    free(tn);

    signal(SIGALRM, on_alarm);
    printf("siginterrupt %d\n", siginterrupt(SIGALRM, 1));

    pthread_atfork(prepare1, parent1, child1);
    pthread_atfork(prepare2, parent2, child2);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        /* The child sees the prepare handlers, then its own. */
        const char *c = strstr(order, "child1");
        printf("child: %s\n", c ? c : order);
        fflush(stdout);
        _exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("atfork%s\n", order);
    return 0;
}
