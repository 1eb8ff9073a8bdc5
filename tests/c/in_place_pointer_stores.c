/* gimso-test
 * expect: run
 * env: GIMSO_GC_TORTURE=40
 * stdout:
 * | restored 11 22
 * | stack 4950 top 100
 * | atomic then plain 1 2
 */
/* Pointer stores of a capability read from the same slot (`s->top++`)
 * store the intval alone. A store to the slot in between (saving,
 * overwriting and restoring a pointer) must put the saved pointer's
 * capability back: the reader below would see the other object's
 * capability with the saved address otherwise. A slot an atomic store put
 * in atomic mode (its value in a box) must leave it: the atomic load after
 * the increment would see the boxed value otherwise. Collections run every
 * 40 allocations, so some increments happen while marking. */
#include <stdio.h>
#include <stdlib.h>

struct stack {
    long *top;
    long *base;
};

__attribute__((noinline)) long read_top(struct stack *s) { return s->top[0]; }

__attribute__((noinline)) long swap_and_restore(struct stack *s, long *other) {
    long *saved = s->top;
    s->top = other;
    long v = read_top(s);
    s->top = saved;
    return v;
}

__attribute__((noinline)) void push(struct stack *s, long v) {
    *s->top = v;
    s->top++;
}

int main(void) {
    struct stack *s = malloc(sizeof *s);
    long *first = malloc(4 * sizeof(long));
    long *other = malloc(sizeof(long));
    first[0] = 22;
    other[0] = 11;
    s->top = first;
    long v = swap_and_restore(s, other);
    printf("restored %ld %ld\n", v, read_top(s));

    s->base = malloc(100 * sizeof(long));
    s->top = s->base;
    for (long i = 0; i < 100; i++) {
        push(s, i);
        free(malloc(32)); /* allocations drive the collector */
    }
    long sum = 0;
    for (long *p = s->base; p < s->top; p++)
        sum += *p;
    printf("stack %ld top %ld\n", sum, (long)(s->top - s->base));

    __atomic_store_n(&s->top, s->base + 1, __ATOMIC_SEQ_CST);
    push(s, 7);
    long *seen = __atomic_load_n(&s->top, __ATOMIC_SEQ_CST);
    printf("atomic then plain %ld %ld\n", (long)(s->base + 1 - s->base),
           (long)(seen - s->base));
    return 0;
}
