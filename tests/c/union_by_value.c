/* gimso-test
 * expect: run
 * stdout:
 * | mk 0
 * | dup 1
 * | put 1 11 21 31
 * | refcounts 5 5
 * | define 6 6
 */
/* A union holding a pointer passed and returned by value (QuickJS's
 * JSValue: `union { int32_t; double; void *; }` plus a tag). clang types
 * the union as `{ double }` and the x86-64 convention passes the pair as
 * two i64s, so the pointer crosses every call as an integer: it must keep
 * its capability as an argument, as a result, through a `byval` copy (the
 * arguments that no longer fit in registers), through the `double` that
 * -O0 moves it as, and into a static function whose name is a C library
 * function's (`dup`). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef union U {
    int32_t i;
    double d;
    void *p;
} U;
typedef struct V {
    U u;
    int64_t tag;
} V;
typedef struct Obj {
    int rc;
    V props[8];
    int n;
} Obj;

__attribute__((noinline)) static V mk(void *p) {
    V v;
    v.u.p = p;
    v.tag = -1;
    return v;
}

/* Named like dup(2): still compiled code of this file. */
__attribute__((noinline)) static V dup(V v) {
    if (v.tag < 0)
        ((Obj *)v.u.p)->rc++;
    return v;
}

/* Six integer registers: c and d go on the stack (byval). */
__attribute__((noinline)) static int put(Obj *o, int k, V a, V b, V c, V d) {
    o->props[0] = a;
    o->props[1] = b;
    o->props[2] = c;
    o->props[3] = d;
    o->n = 4;
    return k;
}

static V mkobj(int rc) {
    Obj *o = calloc(1, sizeof *o);
    o->rc = rc;
    return mk(o);
}

__attribute__((noinline)) static int create(Obj *o, V val, V getter, V setter, int flags) {
    if (flags & 1) {
        o->props[o->n++] = dup(getter);
        o->props[o->n++] = dup(setter);
    } else {
        o->props[o->n++] = dup(val);
    }
    return o->n;
}

/* Exported, so called through the CC buffer; its value may be replaced
 * on one path (a phi of a parameter and a loaded word). */
__attribute__((noinline)) int define(V target, V val, V getter, V setter, int flags) {
    Obj *o = target.u.p;
    for (int i = 0; i < o->n; i++)
        if ((flags & 4) && o->props[i].tag == -1)
            val = o->props[i];
    return create(o, val, getter, setter, flags & 3);
}

int main(void) {
    V a = mkobj(0);
    printf("mk %d\n", ((Obj *)a.u.p)->rc);
    V b = dup(a);
    printf("dup %d\n", ((Obj *)b.u.p)->rc);

    Obj *o = calloc(1, sizeof *o);
    put(o, 1, b, mkobj(11), mkobj(21), mkobj(31));
    printf("put %d %d %d %d\n", ((Obj *)o->props[0].u.p)->rc, ((Obj *)o->props[1].u.p)->rc,
           ((Obj *)o->props[2].u.p)->rc, ((Obj *)o->props[3].u.p)->rc);

    V target = mkobj(0);
    V none = {.tag = 3};
    for (int k = 0; k < 3; k++)
        define(target, a, none, none, 2);
    define(target, none, none, none, 2 | 4);
    define(target, none, mkobj(0), mkobj(0), 1 | 4);
    Obj *t = target.u.p;
    printf("refcounts %d %d\n", ((Obj *)a.u.p)->rc, ((Obj *)t->props[3].u.p)->rc);
    int s = 0;
    for (int i = 0; i < t->n; i++)
        s += ((Obj *)t->props[i].u.p)->rc > 0;
    printf("define %d %d\n", t->n, s);
    return 0;
}
