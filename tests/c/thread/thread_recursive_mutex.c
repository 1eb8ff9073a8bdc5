/* gimso-test
 * expect: run
 * stdout:
 * | recursive total 26000
 * | trylock from another thread while held: EBUSY
 * | trylock by the owner: 0
 * | still held after 3 of 4 unlocks: EBUSY
 * | trylock after the last unlock: 0
 * | attr type recursive: 1, settype bogus: EINVAL
 * | rec2 lock twice: 0 0, unlock twice: 0 0, extra unlock: EPERM
 * | errorcheck: lock 0, relock EDEADLK, foreign unlock EPERM, unlock 0, unlock again EPERM
 * | normal trylock while held: EBUSY, destroy while held: EBUSY
 * | cond wait on a recursive mutex: unlock 0 then EPERM
 */
/* Mutex types: a recursive mutex (static initialiser and attribute) locked
 * through nested calls, held against other threads until the last unlock;
 * error-checking mutexes refuse relocking and foreign unlocks; normal
 * trylock; a condition wait on a recursive mutex. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t rec = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static pthread_mutex_t checked;
static pthread_mutex_t normal = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void add(int depth) {
    pthread_mutex_lock(&rec);
    total += depth;
    if (depth > 0)
        add(depth - 1);
    pthread_mutex_unlock(&rec);
}

static void *adder(void *arg) {
    for (int i = 0; i < 500; i++)
        add((int)(long)arg);
    return NULL;
}

static void *try_rec(void *arg) {
    (void)arg;
    int rc = pthread_mutex_trylock(&rec);
    if (rc == 0)
        pthread_mutex_unlock(&rec);
    return (void *)(long)rc;
}

static void *unlock_checked(void *arg) {
    (void)arg;
    return (void *)(long)pthread_mutex_unlock(&checked);
}

static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int ready;

static void *signaller(void *arg) {
    (void)arg;
    pthread_mutex_lock(&rec); /* only possible while the waiter released it fully */
    ready = 1;
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&rec);
    return NULL;
}

static long run(void *(*f)(void *)) {
    pthread_t t;
    void *r;
    pthread_create(&t, NULL, f, NULL);
    pthread_join(t, &r);
    return (long)r;
}

int main(void) {
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, adder, (void *)(i + 3));
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    printf("recursive total %ld\n", total);

    pthread_mutex_lock(&rec);
    pthread_mutex_lock(&rec);
    pthread_mutex_lock(&rec);
    printf("trylock from another thread while held: %s\n", run(try_rec) == EBUSY ? "EBUSY" : "other");
    printf("trylock by the owner: %d\n", pthread_mutex_trylock(&rec));
    pthread_mutex_unlock(&rec);
    pthread_mutex_unlock(&rec);
    pthread_mutex_unlock(&rec);
    printf("still held after 3 of 4 unlocks: %s\n", run(try_rec) == EBUSY ? "EBUSY" : "other");
    pthread_mutex_unlock(&rec);
    printf("trylock after the last unlock: %ld\n", run(try_rec));

    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    int type = -1;
    pthread_mutexattr_gettype(&a, &type);
    pthread_mutex_t rec2;
    pthread_mutex_init(&rec2, &a);
    printf("attr type recursive: %d, settype bogus: %s\n", type == PTHREAD_MUTEX_RECURSIVE,
           pthread_mutexattr_settype(&a, 12345) == EINVAL ? "EINVAL" : "other");
    int l1 = pthread_mutex_lock(&rec2), l2 = pthread_mutex_lock(&rec2);
    int u1 = pthread_mutex_unlock(&rec2), u2 = pthread_mutex_unlock(&rec2);
    int u3 = pthread_mutex_unlock(&rec2);
    printf("rec2 lock twice: %d %d, unlock twice: %d %d, extra unlock: %s\n", l1, l2, u1, u2,
           u3 == EPERM ? "EPERM" : "other");

    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&checked, &a);
    pthread_mutexattr_destroy(&a);
    int lock = pthread_mutex_lock(&checked);
    int relock = pthread_mutex_lock(&checked);
    long foreign = run(unlock_checked);
    int unlock = pthread_mutex_unlock(&checked);
    int again = pthread_mutex_unlock(&checked);
    printf("errorcheck: lock %d, relock %s, foreign unlock %s, unlock %d, unlock again %s\n",
           lock, relock == EDEADLK ? "EDEADLK" : "other", foreign == EPERM ? "EPERM" : "other",
           unlock, again == EPERM ? "EPERM" : "other");

    pthread_mutex_lock(&normal);
    int busy = pthread_mutex_trylock(&normal);
    int destroy = pthread_mutex_destroy(&normal);
    printf("normal trylock while held: %s, destroy while held: %s\n",
           busy == EBUSY ? "EBUSY" : "other", destroy == EBUSY ? "EBUSY" : "other");
    pthread_mutex_unlock(&normal);

    /* A condition wait on a recursive mutex (locked once) releases it and
     * takes it back. */
    pthread_mutex_lock(&rec);
    pthread_t s;
    pthread_create(&s, NULL, signaller, NULL);
    while (!ready)
        pthread_cond_wait(&cond, &rec);
    int w1 = pthread_mutex_unlock(&rec);
    int w2 = pthread_mutex_unlock(&rec);
    pthread_join(s, NULL);
    printf("cond wait on a recursive mutex: unlock %d then %s\n", w1,
           w2 == EPERM ? "EPERM" : "other");
    return 0;
}
