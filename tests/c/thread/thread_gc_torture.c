/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=10 GIMSO_GC_VERIFY=1
 * stdout:
 * | join values 10008, mailbox sum 1225, 50 sent intact
 * | list 1200 nodes, sum 1079400, damaged 0
 */
/* Threads under collector torture (a full collection every 10 allocations
 * of each thread, verified): pointers handed between threads through a
 * mutex-protected list, a condition-variable mailbox, thread-specific
 * data, start-routine arguments and join values. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 4
#define ITEMS 300

struct node {
    long value;
    char *text;
    struct node *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct node *list;
static struct node *mailbox;
static struct node *sent[50]; /* also keeps clang's globalopt from turning the
                                 * mailbox's heap nodes into one static node */
static pthread_key_t key;

static struct node *make(long v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->text = malloc(24);
    snprintf(n->text, 24, "n%ld", v);
    n->next = NULL;
    return n;
}

static int intact(struct node *n) {
    char buf[24];
    snprintf(buf, sizeof buf, "n%ld", n->value);
    return strcmp(buf, n->text) == 0;
}

static void *worker(void *arg) {
    struct node *seed = arg; /* the argument is the only reference */
    long id = seed->value;
    pthread_setspecific(key, make(id * 1000));
    for (long i = 0; i < ITEMS; i++) {
        struct node *n = make(id * ITEMS + i);
        pthread_mutex_lock(&lock);
        n->next = list;
        list = n;
        pthread_mutex_unlock(&lock);
    }
    struct node *mine = pthread_getspecific(key);
    struct node *ret = make(mine->value + intact(mine) + intact(seed));
    return ret;
}

static void *receiver(void *arg) {
    (void)arg;
    long sum = 0;
    for (int i = 0; i < 50; i++) {
        pthread_mutex_lock(&lock);
        while (!mailbox)
            pthread_cond_wait(&changed, &lock);
        struct node *n = mailbox;
        mailbox = NULL;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
        free(malloc(100));
        sum += intact(n) ? n->value : -1000000;
    }
    return make(sum);
}

static void free_value(void *p) {
    struct node *n = p;
    free(n->text);
    free(n);
}

int main(void) {
    pthread_key_create(&key, free_value);
    pthread_t t[THREADS], r;
    pthread_create(&r, NULL, receiver, NULL);
    for (long i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, worker, make(i + 1));
    for (long i = 0; i < 50; i++) {
        struct node *n = make(i);
        pthread_mutex_lock(&lock);
        while (mailbox)
            pthread_cond_wait(&changed, &lock);
        mailbox = n;
        sent[i] = n;
        pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
    }
    long results = 0;
    for (int i = 0; i < THREADS; i++) {
        struct node *n;
        pthread_join(t[i], (void **)&n);
        results += intact(n) ? n->value : -1000000;
    }
    struct node *got;
    pthread_join(r, (void **)&got);
    long count = 0, sum = 0, bad = 0;
    for (struct node *n = list; n; n = n->next) {
        count++;
        sum += n->value;
        bad += !intact(n);
    }
    long sent_ok = 0;
    for (int i = 0; i < 50; i++)
        sent_ok += intact(sent[i]) && sent[i]->value == i;
    printf("join values %ld, mailbox sum %ld, %ld sent intact\n", results, got->value, sent_ok);
    printf("list %ld nodes, sum %ld, damaged %ld\n", count, sum, bad);
    return 0;
}
