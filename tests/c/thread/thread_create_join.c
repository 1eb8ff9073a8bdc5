/* gimso-test
 * expect: run
 * stdout:
 * | join 0: rc 0 id 0 sum 500500 label worker-0 chain 0 self-matches 1
 * | join 1: rc 0 id 1 sum 2001000 label worker-1 chain 100 self-matches 1
 * | join 2: rc 0 id 2 sum 4501500 label worker-2 chain 200 self-matches 1
 * | join 3: rc 0 id 3 sum 8002000 label worker-3 chain 300 self-matches 1
 * | join 4: rc 0 id 4 sum 12502500 label worker-4 chain 400 self-matches 1
 * | join 5: rc 0 id 5 sum 18003000 label worker-5 chain 500 self-matches 1
 * | pthread_exit: id 42 label exited early
 * | detach state 1
 * | detached thread ran: 7
 * | self stable 1, join self EDEADLK
 * | done
 */
/* pthread_create/join: each thread returns a pointer to a heap object it
 * built; the results are held only by the runtime between the threads'
 * end and the joins while the collector runs (main allocates a lot before
 * joining). Also pthread_self/pthread_equal, pthread_exit from a nested
 * call, a detached thread, and joining oneself. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 6

struct task {
    int id;
    long n;
};

struct result {
    int id;
    long sum;
    char *label;
    pthread_t self;
    struct result *chain; /* a second heap object, reached only through this one */
};

static void *garbage(int rounds) {
    void *keep = NULL;
    for (int i = 0; i < rounds; i++) {
        char *p = malloc(256);
        memset(p, i, 256);
        if (i % 97 == 0)
            keep = p;
    }
    return keep;
}

static void *worker(void *arg) {
    struct task *t = arg;
    struct result *r = malloc(sizeof *r);
    r->id = t->id;
    r->sum = 0;
    for (long i = 1; i <= t->n; i++)
        r->sum += i;
    r->label = malloc(32);
    snprintf(r->label, 32, "worker-%d", t->id);
    r->self = pthread_self();
    r->chain = malloc(sizeof *r->chain);
    memset(r->chain, 0, sizeof *r->chain);
    r->chain->id = t->id * 100;
    garbage(2000);
    free(t);
    return r;
}

static void leave_from_nested(int depth, struct result *r) {
    if (depth == 0)
        pthread_exit(r);
    leave_from_nested(depth - 1, r);
    puts("not reached");
}

static void *exiter(void *arg) {
    struct result *r = calloc(1, sizeof *r);
    r->id = (int)(long)arg;
    r->label = strdup("exited early");
    leave_from_nested(5, r);
    return NULL;
}

static atomic_int detached_done;

static void *detached_worker(void *arg) {
    garbage(500);
    atomic_store(&detached_done, (int)(long)arg);
    return NULL;
}

int main(void) {
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        struct task *task = malloc(sizeof *task);
        task->id = i;
        task->n = 1000 * (i + 1);
        if (pthread_create(&t[i], NULL, worker, task) != 0)
            return 1;
    }
    /* Let them finish, then make the collector run while only the
     * runtime holds their results. */
    garbage(20000);
    for (int i = 0; i < THREADS; i++) {
        void *ret;
        int rc = pthread_join(t[i], &ret);
        struct result *r = ret;
        printf("join %d: rc %d id %d sum %ld label %s chain %d self-matches %d\n", i, rc,
               r->id, r->sum, r->label, r->chain->id, pthread_equal(r->self, t[i]) != 0);
    }

    pthread_t e;
    pthread_create(&e, NULL, exiter, (void *)42L);
    void *ret = NULL;
    pthread_join(e, &ret);
    struct result *er = ret;
    printf("pthread_exit: id %d label %s\n", er->id, er->label);

    pthread_t d;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int state = -1;
    pthread_attr_getdetachstate(&attr, &state);
    printf("detach state %d\n", state == PTHREAD_CREATE_DETACHED);
    pthread_create(&d, &attr, detached_worker, (void *)7L);
    pthread_attr_destroy(&attr);
    while (atomic_load(&detached_done) == 0)
        sched_yield();
    printf("detached thread ran: %d\n", atomic_load(&detached_done));

    pthread_t me = pthread_self();
    printf("self stable %d, join self %s\n", pthread_equal(me, pthread_self()) != 0,
           pthread_join(me, NULL) == EDEADLK ? "EDEADLK" : "other");

    pthread_t late;
    pthread_create(&late, NULL, worker, memcpy(malloc(sizeof(struct task)),
                                              &(struct task){99, 10}, sizeof(struct task)));
    pthread_join(late, NULL); /* value discarded */
    puts("done");
    return 0;
}
