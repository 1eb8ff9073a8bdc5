/* gimso-test
 * expect: run
 * native: differs (natively the atomic load sees W's address, element 1)
 * stdout:
 * | atomic load: 111
 * | integer load: W
 * | plain load: 222
 * | plain store mode: 222
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The spec's atomic-mode sequence on one 8-byte location:
 * 1. atomically store pointer V to P; 2. store integer W to P (as a long);
 * 3. atomically load a pointer from P -> V (intval and capability);
 * 4. load an integer from P -> W.
 * A plain pointer load takes the capability from the box and the intval
 * from memory (W), so it reads V[1]. */
union cell {
    _Atomic(long *) ap;
    long *p;
    long bits;
};

/* The integer W: v + 1's address as a number parsed from text, so it
 * carries no capability (one made from the pointer itself would carry
 * v's, and storing it would be a pointer store). */
__attribute__((noinline)) long number_of(long *p) {
    char text[32];
    snprintf(text, sizeof text, "%p", (void *)p);
    return (long)strtoull(text, NULL, 16);
}
__attribute__((noinline)) void step1(union cell *c, long *v) { atomic_store(&c->ap, v); }
__attribute__((noinline)) void step2(union cell *c, long w) { c->bits = w; }
__attribute__((noinline)) long *step3(union cell *c) { return atomic_load(&c->ap); }
__attribute__((noinline)) long step4(union cell *c) { return c->bits; }
__attribute__((noinline)) long *plain(union cell *c) { return c->p; }
__attribute__((noinline)) void plain_store(union cell *c, long *v) { c->p = v; }

int main(void) {
    long *v = malloc(2 * sizeof(long));
    v[0] = 111;
    v[1] = 222;
    long w = number_of(v + 1);
    union cell *c = malloc(sizeof *c);
    step1(c, v);
    step2(c, w);
    long *r = step3(c);
    printf("atomic load: %ld\n", *r);
    printf("integer load: %s\n", step4(c) == w ? "W" : "other");
    printf("plain load: %ld\n", *plain(c));
    /* Without the atomic store the location is in non-atomic mode. */
    plain_store(c, v);
    step2(c, w);
    printf("plain store mode: %ld\n", *step3(c));
    free(c);
    free(v);
    return 0;
}
