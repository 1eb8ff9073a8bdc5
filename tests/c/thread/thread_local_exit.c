/* gimso-test
 * expect: run
 * stdout:
 * | threads 16 sum 136 main 1
 */
/* Threads that use thread-locals and exit: each thread's copies are
 * released when it ends, after it has left the collector (the copies were
 * once rooted in the thread's own handle list, cleared after that list was
 * freed: a write into freed memory that crashed about every other thread
 * exit). */
#include <pthread.h>
#include <stdio.h>

static _Thread_local int counter[4] = {1, 2, 3, 4};
static _Thread_local char name[32] = "main";

static void *work(void *arg) {
    int id = (int)(long)arg;
    counter[0] += id;
    snprintf(name, sizeof name, "thread %d", id);
    return (void *)(long)(counter[0] - 1);
}

int main(void) {
    long sum = 0;
    int n = 0;
    for (int i = 1; i <= 16; i++) {
        pthread_t t;
        void *r;
        pthread_create(&t, NULL, work, (void *)(long)i);
        pthread_join(t, &r);
        sum += (long)r;
        n++;
    }
    printf("threads %d sum %ld main %d\n", n, sum, counter[0]);
    return 0;
}
