/* gimso-test
 * expect: run
 * stdout:
 * | first thread: left init
 * | init runs 2, initialised by second thread
 * | main calls pthread_exit
 * | at exit: 3 slow threads finished, total 6000
 */
/* pthread_exit: from an init routine of pthread_once (which then counts as
 * not run: another thread runs it), and from main, which makes the process
 * wait for the other threads and then exit with status 0, running the
 * atexit handlers. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_runs;
static const char *initialised_by;

static void init_and_leave(void) {
    init_runs++;
    pthread_exit((void *)"left init");
}

static void init_and_stay(void) {
    init_runs++;
    initialised_by = "second thread";
}

static void *first(void *arg) {
    (void)arg;
    pthread_once(&once, init_and_leave);
    return (void *)"returned";
}

static void *second(void *arg) {
    (void)arg;
    pthread_once(&once, init_and_stay);
    return NULL;
}

static atomic_int finished;
static atomic_long total;

static void *slow(void *arg) {
    long n = (long)arg;
    usleep(20000 * n);
    long *cells = malloc(1000 * sizeof *cells);
    for (int i = 0; i < 1000; i++)
        cells[i] = n;
    long s = 0;
    for (int i = 0; i < 1000; i++)
        s += cells[i];
    atomic_fetch_add(&total, s);
    atomic_fetch_add(&finished, 1);
    return NULL;
}

static void report(void) {
    printf("at exit: %d slow threads finished, total %ld\n", atomic_load(&finished),
           atomic_load(&total));
}

int main(void) {
    pthread_t a, b;
    void *ret;
    pthread_create(&a, NULL, first, NULL);
    pthread_join(a, &ret);
    printf("first thread: %s\n", (char *)ret);
    pthread_create(&b, NULL, second, NULL);
    pthread_join(b, NULL);
    printf("init runs %d, initialised by %s\n", init_runs, initialised_by);

    atexit(report);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (long i = 1; i <= 3; i++) {
        pthread_t t;
        pthread_create(&t, &attr, slow, (void *)i);
    }
    puts("main calls pthread_exit");
    fflush(stdout);
    pthread_exit(NULL);
}
