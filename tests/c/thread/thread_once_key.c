/* gimso-test
 * expect: run
 * stdout:
 * | init calls 1, table[7] 49
 * | values ok 1
 * | destructor calls 8, sum of ids 28
 * | destructor rounds for the re-setting key: 16
 * | once again: init calls 1
 * | main value: main value
 * | never set: (nil)
 * | fresh key value: (nil)
 */
/* pthread_once raced by many threads (the init routine runs exactly once
 * and its result is seen by all), and thread-specific data: values that
 * are heap pointers held only by the runtime while the collector runs,
 * destructors at thread exit (including one that sets a new value and so
 * runs again), keys without destructors, and deleted keys. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_int init_calls;
static long *table; /* built by the init routine */

static void init_table(void) {
    atomic_fetch_add(&init_calls, 1);
    long *t = malloc(100 * sizeof *t);
    for (int i = 0; i < 100; i++)
        t[i] = i * i;
    /* Slow enough that the other threads wait for it. */
    for (int i = 0; i < 200; i++)
        free(malloc(1000));
    table = t;
}

static pthread_key_t key, plain_key, again_key;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long destructed_sum;
static int destructor_calls, again_calls;

struct value {
    int id;
    char *name;
};

static void destroy_value(void *p) {
    struct value *v = p;
    char expect[32];
    snprintf(expect, sizeof expect, "thread %d", v->id);
    pthread_mutex_lock(&lock);
    destructor_calls++;
    if (strcmp(expect, v->name) == 0)
        destructed_sum += v->id;
    pthread_mutex_unlock(&lock);
    free(v->name);
    free(v);
}

/* Sets a new value the first time: the destructor runs a second round. */
static void destroy_again(void *p) {
    pthread_mutex_lock(&lock);
    again_calls++;
    pthread_mutex_unlock(&lock);
    if (*(int *)p == 1) {
        int *next = malloc(sizeof *next);
        *next = 2;
        pthread_setspecific(again_key, next);
    }
}

static void *worker(void *arg) {
    int id = (int)(long)arg;
    pthread_once(&once, init_table);
    long ok = table[id] == (long)id * id;

    struct value *v = malloc(sizeof *v);
    v->id = id;
    v->name = malloc(32);
    snprintf(v->name, 32, "thread %d", id);
    pthread_setspecific(key, v);
    v = NULL;
    pthread_setspecific(plain_key, (void *)(long)(id + 1000));
    int *first = malloc(sizeof *first);
    *first = 1;
    pthread_setspecific(again_key, first);
    first = NULL;

    /* The collector runs while only the runtime holds the values. */
    for (int i = 0; i < 3000; i++) {
        char *junk = malloc(300);
        memset(junk, i, 300);
    }
    struct value *back = pthread_getspecific(key);
    char expect[32];
    snprintf(expect, sizeof expect, "thread %d", id);
    ok = ok && back->id == id && strcmp(back->name, expect) == 0;
    ok = ok && (long)pthread_getspecific(plain_key) == id + 1000;
    return (void *)ok;
}

int main(void) {
    pthread_key_create(&key, destroy_value);
    pthread_key_create(&plain_key, NULL);
    pthread_key_create(&again_key, destroy_again);
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long all_ok = 1;
    for (int i = 0; i < THREADS; i++) {
        void *ok;
        pthread_join(t[i], &ok);
        all_ok = all_ok && (long)ok;
    }
    printf("init calls %d, table[7] %ld\n", atomic_load(&init_calls), table[7]);
    printf("values ok %ld\n", all_ok);
    printf("destructor calls %d, sum of ids %ld\n", destructor_calls, destructed_sum);
    printf("destructor rounds for the re-setting key: %d\n", again_calls);
    pthread_once(&once, init_table);
    printf("once again: init calls %d\n", atomic_load(&init_calls));

    /* The main thread's own values; deleting a key forgets them. */
    pthread_setspecific(plain_key, "main value");
    printf("main value: %s\n", (char *)pthread_getspecific(plain_key));
    printf("never set: %p\n", pthread_getspecific(key));
    pthread_key_delete(plain_key);
    pthread_key_t fresh;
    pthread_key_create(&fresh, NULL);
    printf("fresh key value: %p\n", pthread_getspecific(fresh));
    return 0;
}
