/* gimso-test
 * expect: run
 * stdout:
 * | 12 12 0xc 0xc
 * | 13 0xd
 * | 0xc 7
 * | (nil) (nil) (nil)
 */
/* Integer stores over a word whose pointer was stored atomically (its
 * shadow word holds an atomic box): integer loads, plain or atomic, see
 * the integer, also when the integer is then used as a pointer, and the
 * same at every -O. An atomic pointer load still sees the boxed pointer
 * (the spec's atomic mode: a box is replaced only by pointer stores); a
 * memset, memcpy or struct assignment over the word replaces the box. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

union U {
    _Atomic(int *) p;
    _Atomic intptr_t ai;
    intptr_t i;
    int *np;
};
struct S {
    _Atomic(int *) p;
    int n;
};
int x = 7;

__attribute__((noinline)) void store_int(union U *u, intptr_t v) { u->i = v; }
__attribute__((noinline)) intptr_t load_int(union U *u) { return u->i; }
__attribute__((noinline)) int *load_int_as_ptr(union U *u) { return (int *)u->i; }
__attribute__((noinline)) int *load_atomic_int_as_ptr(union U *u) {
    return (int *)atomic_load(&u->ai);
}
__attribute__((noinline)) void store_atomic_int(union U *u, intptr_t v) { atomic_store(&u->ai, v); }

int main(void) {
    static union U u;
    atomic_store(&u.p, &x);
    store_int(&u, 12);
    intptr_t direct = u.i;
    printf("%ld %ld %p %p\n", (long)load_int(&u), (long)direct, (void *)load_int_as_ptr(&u),
           (void *)load_atomic_int_as_ptr(&u));

    atomic_store(&u.p, &x);
    store_atomic_int(&u, 13);
    printf("%ld %p\n", (long)atomic_load(&u.ai), (void *)load_atomic_int_as_ptr(&u));

    /* A non-atomic pointer load: the integer's value, the box's capability
     * (so a pointer stored back as an integer still reaches its object). */
    atomic_store(&u.p, &x);
    u.i = 12;
    int *plain = u.np;
    u.i = (intptr_t)&x;
    printf("%p %d\n", (void *)plain, *u.np);

    static struct S s;
    struct S z = {NULL, 0};
    atomic_store(&s.p, &x);
    memset(&s, 0, sizeof s);
    int *a = atomic_load(&s.p);
    atomic_store(&s.p, &x);
    memcpy(&s, &z, sizeof s);
    int *b = atomic_load(&s.p);
    atomic_store(&s.p, &x);
    s = z;
    printf("%p %p %p\n", (void *)a, (void *)b, (void *)atomic_load(&s.p));
    return 0;
}
