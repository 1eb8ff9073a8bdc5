/* gimso-test
 * expect: run
 * stdout:
 * | consumed 9000 items, sum 40495500 (expected 40495500), bad 0, left 0
 * | timedwait realtime: ETIMEDOUT
 * | timedwait monotonic: ETIMEDOUT
 * | bad timespec: EINVAL
 */
/* A bounded producer/consumer queue of heap items (pointers stored into a
 * shared ring by one thread, loaded by another) with a mutex and two
 * condition variables: signal on every put and take, broadcast at the end.
 * Then timed waits that time out, on both clocks. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CAPACITY 4
#define PRODUCERS 3
#define CONSUMERS 2
#define ITEMS 3000 /* per producer */

struct item {
    long value;
    char *text;
};

static struct item *ring[CAPACITY];
static int first, count, done;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full;

static void *producer(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < ITEMS; i++) {
        struct item *it = malloc(sizeof *it);
        it->value = id * ITEMS + i;
        it->text = malloc(32);
        snprintf(it->text, 32, "item %ld", it->value);
        free(malloc(512)); /* churn */
        pthread_mutex_lock(&lock);
        while (count == CAPACITY)
            pthread_cond_wait(&not_full, &lock);
        ring[(first + count) % CAPACITY] = it;
        count++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

struct tally {
    long items, sum, bad;
};

static void *consumer(void *arg) {
    (void)arg;
    struct tally *t = calloc(1, sizeof *t);
    for (;;) {
        pthread_mutex_lock(&lock);
        while (count == 0 && !done)
            pthread_cond_wait(&not_empty, &lock);
        if (count == 0 && done) {
            pthread_mutex_unlock(&lock);
            return t;
        }
        struct item *it = ring[first];
        ring[first] = NULL;
        first = (first + 1) % CAPACITY;
        count--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&lock);

        char expect[32];
        snprintf(expect, sizeof expect, "item %ld", it->value);
        if (strcmp(expect, it->text) != 0)
            t->bad++;
        t->items++;
        t->sum += it->value;
    }
}

static int timed_out(clockid_t clock) {
    pthread_condattr_t a;
    pthread_cond_t c;
    pthread_mutex_t m;
    pthread_condattr_init(&a);
    pthread_condattr_setclock(&a, clock);
    clockid_t got = -1;
    pthread_condattr_getclock(&a, &got);
    pthread_cond_init(&c, &a);
    pthread_condattr_destroy(&a);
    pthread_mutex_init(&m, NULL);
    struct timespec ts;
    clock_gettime(clock, &ts);
    ts.tv_nsec += 20 * 1000 * 1000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    pthread_mutex_lock(&m);
    int rc;
    do
        rc = pthread_cond_timedwait(&c, &m, &ts);
    while (rc == 0); /* spurious wake-ups are allowed */
    /* The mutex is held again after a timeout. */
    int busy = pthread_mutex_trylock(&m) == EBUSY;
    pthread_mutex_unlock(&m);
    pthread_cond_destroy(&c);
    pthread_mutex_destroy(&m);
    return rc == ETIMEDOUT && busy && got == clock;
}

int main(void) {
    pthread_cond_init(&not_full, NULL);
    pthread_t p[PRODUCERS], c[CONSUMERS];
    for (long i = 0; i < CONSUMERS; i++)
        pthread_create(&c[i], NULL, consumer, NULL);
    for (long i = 0; i < PRODUCERS; i++)
        pthread_create(&p[i], NULL, producer, (void *)i);
    for (int i = 0; i < PRODUCERS; i++)
        pthread_join(p[i], NULL);
    pthread_mutex_lock(&lock);
    done = 1;
    pthread_cond_broadcast(&not_empty);
    pthread_mutex_unlock(&lock);
    long items = 0, sum = 0, bad = 0;
    for (int i = 0; i < CONSUMERS; i++) {
        struct tally *t;
        pthread_join(c[i], (void **)&t);
        items += t->items;
        sum += t->sum;
        bad += t->bad;
    }
    long all = (long)PRODUCERS * ITEMS;
    printf("consumed %ld items, sum %ld (expected %ld), bad %ld, left %d\n", items, sum,
           all * (all - 1) / 2, bad, count);
    printf("timedwait realtime: %s\n", timed_out(CLOCK_REALTIME) ? "ETIMEDOUT" : "wrong");
    printf("timedwait monotonic: %s\n", timed_out(CLOCK_MONOTONIC) ? "ETIMEDOUT" : "wrong");
    struct timespec bad_ts = {0, 2000000000};
    pthread_mutex_lock(&lock);
    printf("bad timespec: %s\n",
           pthread_cond_timedwait(&not_empty, &lock, &bad_ts) == EINVAL ? "EINVAL" : "other");
    pthread_mutex_unlock(&lock);
    return 0;
}
