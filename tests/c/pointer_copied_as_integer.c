/* gimso-test
 * expect: run
 * stdout:
 * | 42 42 5
 */
/* Pointers copied as 8-byte integers keep their capabilities: a union
 * assigned (Lua's TValue copy, which the optimiser turns into an i64 load
 * and store) and a one-pointer struct copied with memcpy. A misaligned
 * 8-byte integer store stays a plain integer store. (A pointer stored as a
 * uintptr_t keeps no capability: inttoptr_through_memory.c.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef union {
    void *gc;
    long long i;
    double n;
} Value;

typedef struct {
    Value v;
    int tt;
} TValue;

__attribute__((noinline)) static void setobj(TValue *a, const TValue *b) {
    a->v = b->v;
    a->tt = b->tt;
}

struct one {
    int *p;
};

__attribute__((noinline)) static void copy(struct one *a, const struct one *b) {
    memcpy(a, b, sizeof *a);
}

int main(void) {
    int *x = malloc(16);
    x[1] = 42;
    TValue a, *b = malloc(sizeof *b);
    a.v.gc = x;
    a.tt = 1;
    setobj(b, &a);
    struct one s1 = {x}, *s2 = malloc(sizeof *s2);
    copy(s2, &s1);
    long long *w = malloc(24);
    long long *u = (long long *)((char *)w + 4);
    *u = 5;
    printf("%d %d %lld\n", ((int *)b->v.gc)[1], s2->p[1], *u);
    return 0;
}
