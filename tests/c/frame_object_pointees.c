/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=7
 * stdout:
 * | total 4518390
 */
/* A local struct filled by `nocapture` callees is a capability object in
 * the frame; the heap strings it points at are referenced only from its
 * shadow, in the frame. Collections run while they are only there (every
 * 7 allocations, in `churn`): the stack scan must keep them alive, or
 * `use` reads freed memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pair {
    char *a;
    char *b;
    long n;
};

__attribute__((noinline)) static void make(struct pair *p, int i) {
    p->a = malloc(32);
    snprintf(p->a, 32, "a%d", i);
    p->b = strdup("bb");
    p->n = i;
}

__attribute__((noinline)) static long churn(int k) {
    long s = 0;
    for (int j = 0; j < 20; j++) {
        char *t = malloc(48);
        memset(t, k & 0x7f, 48);
        s += t[47];
        free(t);
    }
    return s - 20 * (k & 0x7f);
}

__attribute__((noinline)) static long use(const struct pair *p) {
    long r = p->n + (long)strlen(p->a) + (long)strlen(p->b);
    free(p->a);
    free(p->b);
    return r;
}

int main(void) {
    long total = 0;
    for (int i = 0; i < 3000; i++) {
        struct pair p;
        make(&p, i);
        total += churn(i);
        total += use(&p);
    }
    printf("total %ld\n", total);
    return 0;
}
