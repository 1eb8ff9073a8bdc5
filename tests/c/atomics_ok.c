/* gimso-test
 * expect: run
 * stdout:
 * | fetch_add: old 0 new 55
 * | counters: 10 -10 0x0f
 * | cas ptr: first ok, second failed (saw b), value 2
 * | exchange: got a then b, now c
 * | stack pop order: 3 2 1
 * | flag: 0 1
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    int value;
    struct node *next;
};

static _Atomic(struct node *) top;

static void push(int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
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

int main(void) {
    atomic_int *counter = malloc(sizeof *counter);
    atomic_init(counter, 0);
    int old = atomic_fetch_add(counter, 0);
    for (int i = 1; i <= 10; i++)
        atomic_fetch_add_explicit(counter, i, memory_order_relaxed);
    printf("fetch_add: old %d new %d\n", old, atomic_load(counter));
    _Atomic long l = 0;
    atomic_long *pl = &l;
    for (int i = 0; i < 10; i++)
        atomic_fetch_sub(pl, 1);
    atomic_uint bits = 0;
    atomic_fetch_or(&bits, 0xff);
    atomic_fetch_and(&bits, 0x0f);
    printf("counters: %d %ld 0x%02x\n", 10, atomic_load(pl), atomic_load(&bits));

    int a = 1, b = 2, c = 3;
    _Atomic(int *) *slot = malloc(sizeof *slot);
    atomic_store(slot, &a);
    int *expected = &a;
    bool first = atomic_compare_exchange_strong(slot, &expected, &b);
    expected = &a;
    bool second = atomic_compare_exchange_strong(slot, &expected, &c);
    printf("cas ptr: %s, %s (saw %s), value %d\n", first ? "first ok" : "first failed",
           second ? "second ok" : "second failed", expected == &b ? "b" : "?", *atomic_load(slot));

    atomic_store(slot, &a);
    int *g1 = atomic_exchange(slot, &b);
    int *g2 = atomic_exchange(slot, &c);
    printf("exchange: got %s then %s, now %s\n", g1 == &a ? "a" : "?", g2 == &b ? "b" : "?",
           *atomic_load(slot) == 3 ? "c" : "?");

    push(1);
    push(2);
    push(3);
    printf("stack pop order:");
    for (struct node *n; (n = pop());) {
        printf(" %d", n->value);
        free(n);
    }
    printf("\n");
    atomic_flag f = ATOMIC_FLAG_INIT;
    int t1 = atomic_flag_test_and_set(&f);
    int t2 = atomic_flag_test_and_set(&f);
    printf("flag: %d %d\n", t1, t2);
    free(slot);
    free(counter);
    return 0;
}
