/* gimso-test
 * expect: error use after free
 * line: 30
 * native: no-asan (glibc's pthread functions are not instrumented)
 * stdout:
 * | worker done
 */
/* A mutex inside a heap object that one thread frees while another still
 * uses it: locking it is a safety error, never a futex on freed
 * (or reused) memory. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct shared {
    pthread_mutex_t lock;
    long value;
};

static void *worker(void *arg) {
    struct shared *s = arg;
    pthread_mutex_lock(&s->lock);
    s->value++;
    pthread_mutex_unlock(&s->lock);
    puts("worker done");
    return NULL;
}

__attribute__((noinline)) static void bump(struct shared *s) {
    if (pthread_mutex_trylock(&s->lock) == 0) { /* BUG */
        s->value++;
        pthread_mutex_unlock(&s->lock);
    }
}

int main(void) {
    struct shared *s = calloc(1, sizeof *s);
    pthread_mutex_init(&s->lock, NULL);
    pthread_t t;
    pthread_create(&t, NULL, worker, s);
    pthread_join(t, NULL);
    free(s);
    bump(s);
    return 0;
}
