/* gimso-test
 * expect: run
 * stdout:
 * | as int: same
 * | moved: 20
 * | back: 10
 * | pointer in struct union: 30
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

union slot {
    int *p;
    uintptr_t i;
};

/* Pointer-integer aliasing through memory: the capability stays at rest in
 * the slot while the integer half is rewritten. */
__attribute__((noinline)) void bump(union slot *s, uintptr_t by) { s->i += by; }
__attribute__((noinline)) uintptr_t as_int(union slot *s) { return s->i; }
__attribute__((noinline)) void set_int(union slot *s, uintptr_t v) { s->i = v; }

struct holder {
    int tag;
    union {
        int *ptr;
        long bits;
    } u;
};

int main(void) {
    int *arr = malloc(4 * sizeof(int));
    arr[0] = 10;
    arr[1] = 20;
    arr[2] = 30;
    arr[3] = 40;
    union slot *s = malloc(sizeof *s);
    s->p = arr;
    printf("as int: %s\n", as_int(s) == (uintptr_t)arr ? "same" : "different");
    bump(s, sizeof(int));
    printf("moved: %d\n", *s->p);
    set_int(s, as_int(s) - sizeof(int));
    printf("back: %d\n", *s->p);
    struct holder *h = malloc(sizeof *h);
    h->u.ptr = arr;
    h->u.bits += 2 * sizeof(int);
    printf("pointer in struct union: %d\n", *h->u.ptr);
    free(h);
    free(s);
    free(arr);
    return 0;
}
