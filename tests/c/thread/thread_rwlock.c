/* gimso-test
 * expect: run
 * stdout:
 * | writes 2000, final table 2000, torn reads 0
 * | rdlock 0, second reader 0, writer with readers EBUSY
 * | wrlock 0, again EDEADLK, reader with a writer refused, destroy 0
 * | barrier: 3 serial threads for 3 rounds, phase sums 10 10 10
 * | spin: 12000, trylock 0
 */
/* Read-write locks guarding a heap table that writers replace (readers
 * check its invariant), try-locks and self-deadlock errors, a barrier that
 * elects one serial thread per round, and a spin lock. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define READERS 4
#define WRITERS 2
#define ROUNDS 3

struct table {
    long n;
    long *cells; /* every cell equals n */
};

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static struct table *current;
static long writes;

static struct table *make(long n) {
    struct table *t = malloc(sizeof *t);
    t->n = n;
    t->cells = malloc(64 * sizeof(long));
    for (int i = 0; i < 64; i++)
        t->cells[i] = n;
    return t;
}

static void *reader(void *arg) {
    (void)arg;
    long bad = 0;
    for (int i = 0; i < 3000; i++) {
        pthread_rwlock_rdlock(&rw);
        struct table *t = current;
        for (int j = 0; j < 64; j++)
            bad += t->cells[j] != t->n;
        pthread_rwlock_unlock(&rw);
    }
    return (void *)bad;
}

static void *writer(void *arg) {
    (void)arg;
    for (int i = 0; i < 1000; i++) {
        struct table *t = NULL;
        pthread_rwlock_wrlock(&rw);
        writes++;
        t = make(writes); /* allocates while holding the lock */
        current = t;
        pthread_rwlock_unlock(&rw);
    }
    return NULL;
}

static pthread_barrier_t barrier;
static pthread_spinlock_t spin;
static long spun;
static int serial_count;
static int phase_sum[ROUNDS];

static void *stepper(void *arg) {
    long id = (long)arg;
    for (int r = 0; r < ROUNDS; r++) {
        __atomic_fetch_add(&phase_sum[r], (int)id, __ATOMIC_SEQ_CST);
        for (int i = 0; i < 1000; i++) {
            pthread_spin_lock(&spin);
            spun++;
            pthread_spin_unlock(&spin);
        }
        if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)
            __atomic_fetch_add(&serial_count, 1, __ATOMIC_SEQ_CST);
    }
    return NULL;
}

int main(void) {
    current = make(0);
    pthread_t r[READERS], w[WRITERS];
    for (long i = 0; i < READERS; i++)
        pthread_create(&r[i], NULL, reader, NULL);
    for (long i = 0; i < WRITERS; i++)
        pthread_create(&w[i], NULL, writer, NULL);
    long bad = 0;
    for (int i = 0; i < READERS; i++) {
        void *b;
        pthread_join(r[i], &b);
        bad += (long)b;
    }
    for (int i = 0; i < WRITERS; i++)
        pthread_join(w[i], NULL);
    printf("writes %ld, final table %ld, torn reads %ld\n", writes, current->n, bad);

    pthread_rwlock_t l;
    pthread_rwlockattr_t a;
    pthread_rwlockattr_init(&a);
    pthread_rwlock_init(&l, &a);
    pthread_rwlockattr_destroy(&a);
    int r1 = pthread_rwlock_rdlock(&l);
    int r2 = pthread_rwlock_tryrdlock(&l);
    int w1 = pthread_rwlock_trywrlock(&l);
    pthread_rwlock_unlock(&l);
    pthread_rwlock_unlock(&l);
    int w2 = pthread_rwlock_wrlock(&l);
    int w3 = pthread_rwlock_wrlock(&l);
    int r3 = pthread_rwlock_tryrdlock(&l);
    pthread_rwlock_unlock(&l);
    printf("rdlock %d, second reader %d, writer with readers %s\n", r1, r2,
           w1 == EBUSY ? "EBUSY" : "other");
    printf("wrlock %d, again %s, reader with a writer %s, destroy %d\n", w2,
           w3 == EDEADLK ? "EDEADLK" : "other", r3 == EBUSY || r3 == EDEADLK ? "refused" : "other",
           pthread_rwlock_destroy(&l));

    pthread_barrier_init(&barrier, NULL, 4);
    pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
    pthread_t s[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&s[i], NULL, stepper, (void *)(i + 1));
    for (int i = 0; i < 4; i++)
        pthread_join(s[i], NULL);
    printf("barrier: %d serial threads for %d rounds, phase sums %d %d %d\n", serial_count,
           ROUNDS, phase_sum[0], phase_sum[1], phase_sum[2]);
    printf("spin: %ld, trylock %d\n", spun, pthread_spin_trylock(&spin));
    pthread_spin_unlock(&spin);
    pthread_spin_destroy(&spin);
    pthread_barrier_destroy(&barrier);
    return 0;
}
