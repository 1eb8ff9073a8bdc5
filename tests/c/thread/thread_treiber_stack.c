/* gimso-test
 * expect: run
 * stdout:
 * | popped by threads 40000, left 40000, total 80000 of 80000
 * | sum 3199960000 (expected 3199960000), duplicates among the rest 0
 */
/* A lock-free Treiber stack on C11 pointer atomics: 4 threads push and pop
 * heap nodes concurrently (compare-exchange loops on `_Atomic(struct node *)`)
 * while the collector runs; nothing is lost or duplicated. Popped nodes are
 * never freed (the collector reclaims them), so there is no ABA problem. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define PUSHES 20000

struct node {
    long value;
    struct node *next;
    char pad[32];
};

static _Atomic(struct node *) top;

static void push(struct node *n) {
    n->next = atomic_load(&top);
    while (!atomic_compare_exchange_weak(&top, &n->next, n))
        ;
}

static struct node *pop(void) {
    struct node *n = atomic_load(&top);
    while (n && !atomic_compare_exchange_weak(&top, &n, n->next))
        ;
    return n;
}

struct stats {
    long pops, sum;
};

static void *worker(void *arg) {
    long id = (long)arg;
    struct stats *s = calloc(1, sizeof *s);
    for (long i = 0; i < PUSHES; i++) {
        struct node *n = malloc(sizeof *n);
        n->value = id * PUSHES + i;
        memset(n->pad, (int)i, sizeof n->pad);
        push(n);
        if (i % 2 == 1) {
            struct node *p = pop();
            if (p) {
                s->pops++;
                s->sum += p->value;
            }
        }
    }
    return s;
}

int main(void) {
    pthread_t t[THREADS];
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    long pops = 0, sum = 0;
    for (int i = 0; i < THREADS; i++) {
        struct stats *s;
        pthread_join(t[i], (void **)&s);
        pops += s->pops;
        sum += s->sum;
    }
    long left = 0;
    char *seen = calloc(THREADS * PUSHES, 1);
    long dup = 0;
    for (struct node *n = pop(); n; n = pop()) {
        left++;
        sum += n->value;
        if (seen[n->value]++)
            dup++;
    }
    long all = (long)THREADS * PUSHES;
    printf("popped by threads %ld, left %ld, total %ld of %ld\n", pops, left, pops + left, all);
    printf("sum %ld (expected %ld), duplicates among the rest %ld\n", sum, all * (all - 1) / 2,
           dup);
    return 0;
}
