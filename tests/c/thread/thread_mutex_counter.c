/* gimso-test
 * expect: run
 * stdout:
 * | list 21328 nodes (length 21328), popped 10672
 * | list sum + popped sum = 511984000 (expected 511984000)
 * | counter 64000, bad tags 0
 * | destroy 0
 */
/* 8 threads push heap nodes onto a shared list and pop some of them back,
 * all under one mutex, while allocating enough garbage for the collector
 * to run many times meanwhile. The nodes are reachable only through the
 * shared list (pointers stored into shared structures by other threads).
 * Counts and sums are the same whatever the interleaving. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 8
#define ITERATIONS 4000

struct node {
    long value;
    struct node *next;
    char *tag; /* a second object per node */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct node *head;
static long length;
static long counter;

struct popped {
    long count;
    long sum;
};

static void *worker(void *arg) {
    long id = (long)arg;
    struct popped *p = calloc(1, sizeof *p);
    for (int i = 0; i < ITERATIONS; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = id * ITERATIONS + i;
        n->tag = malloc(24);
        snprintf(n->tag, 24, "%ld", n->value);
        /* Garbage: about 8 * 4000 * 1000 bytes in all. */
        char *junk = malloc(1000);
        memset(junk, (int)i, 1000);

        pthread_mutex_lock(&lock);
        n->next = head;
        head = n;
        length++;
        counter += 2;
        if (i % 3 == 0) {
            struct node *x = head;
            head = x->next;
            length--;
            if (atol(x->tag) != x->value)
                puts("tag mismatch");
            p->count++;
            p->sum += x->value;
        }
        pthread_mutex_unlock(&lock);
    }
    return p;
}

int main(void) {
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long popped = 0, popped_sum = 0;
    for (int i = 0; i < THREADS; i++) {
        struct popped *p;
        pthread_join(t[i], (void **)&p);
        popped += p->count;
        popped_sum += p->sum;
    }
    long n = 0, sum = 0, bad = 0;
    for (struct node *x = head; x; x = x->next) {
        n++;
        sum += x->value;
        if (atol(x->tag) != x->value)
            bad++;
    }
    long all = (long)THREADS * ITERATIONS;
    printf("list %ld nodes (length %ld), popped %ld\n", n, length, popped);
    printf("list sum + popped sum = %ld (expected %ld)\n", sum + popped_sum,
           all * (all - 1) / 2);
    printf("counter %ld, bad tags %ld\n", counter, bad);
    printf("destroy %d\n", pthread_mutex_destroy(&lock));
    return 0;
}
