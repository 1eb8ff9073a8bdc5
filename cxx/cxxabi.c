/* The C++ ABI support gimso-c++ links into every C++ program: operator
 * new/delete on the GC heap, the __cxa_* exception functions, the C++
 * personality (__gxx_personality_v0) over gimso's LSDA (gimso.h,
 * gimso_eh_landing_pad), the type_info classes catch matching needs, and
 * the small rest of the Itanium C++ ABI (guards, __cxa_atexit, pure
 * virtual calls, std::terminate).
 *
 * It is ordinary C compiled by gimso-cc (with -fexceptions, so exceptions
 * pass through it): every access it makes is checked like the program's
 * own, and the personality is "an ordinary compiled function called
 * through the call ABI" (docs/architecture.md, "Exceptions and the unwinder"). Written for gimso; the layouts are
 * the Itanium C++ ABI's. Not thread-safe yet: the caught-exception stack
 * and the guards become per-thread / atomic with thread support.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unwind.h>

#include "gimso.h"

/* ---- type_info ------------------------------------------------------------
 * Every type_info starts {vptr, name}; the vptr says which class it is.
 * The vtables are never called through (type_info's virtual functions are
 * libstdc++'s business), so they are zero-filled objects compared by
 * address. Layouts (Itanium ABI 2.9.5):
 *   __class_type_info        {vptr, name}
 *   __si_class_type_info     {vptr, name, base}
 *   __vmi_class_type_info    {vptr, name, u32 flags, u32 base_count,
 *                             {base, long offset_flags}[base_count]}
 *   __pointer_type_info      {vptr, name, u32 flags, pointee}
 */
typedef struct type_info {
    const void *vptr;
    const char *name;
} type_info;

typedef struct si_class_type_info {
    type_info base_ti;
    const type_info *base;
} si_class_type_info;

typedef struct base_class_info {
    const type_info *base;
    long offset_flags;
} base_class_info;

typedef struct vmi_class_type_info {
    type_info base_ti;
    uint32_t flags;
    uint32_t base_count;
    base_class_info bases[];
} vmi_class_type_info;

typedef struct pointer_type_info {
    type_info base_ti;
    uint32_t flags;
    const type_info *pointee;
} pointer_type_info;

enum { BASE_VIRTUAL = 1, BASE_PUBLIC = 2, BASE_OFFSET_SHIFT = 8 };
enum { PTR_CONST = 1, PTR_VOLATILE = 2, PTR_RESTRICT = 4 };

const void *_ZTVN10__cxxabiv117__class_type_infoE[8];
const void *_ZTVN10__cxxabiv120__si_class_type_infoE[8];
const void *_ZTVN10__cxxabiv121__vmi_class_type_infoE[8];
const void *_ZTVN10__cxxabiv119__pointer_type_infoE[8];
const void *_ZTVN10__cxxabiv129__pointer_to_member_type_infoE[8];
const void *_ZTVN10__cxxabiv123__fundamental_type_infoE[8];
const void *_ZTVN10__cxxabiv117__array_type_infoE[8];
const void *_ZTVN10__cxxabiv120__function_type_infoE[8];
const void *_ZTVN10__cxxabiv116__enum_type_infoE[8];
const void *_ZTVSt9type_info[8];

#define VPTR(v) ((const void *)&(v)[2])
#define CLASS_VPTR VPTR(_ZTVN10__cxxabiv117__class_type_infoE)
#define SI_VPTR VPTR(_ZTVN10__cxxabiv120__si_class_type_infoE)
#define VMI_VPTR VPTR(_ZTVN10__cxxabiv121__vmi_class_type_infoE)
#define POINTER_VPTR VPTR(_ZTVN10__cxxabiv119__pointer_type_infoE)
#define FUNDAMENTAL_VPTR VPTR(_ZTVN10__cxxabiv123__fundamental_type_infoE)

/* The fundamental types, and pointers and pointers to const to each. */
#define FUNDAMENTAL(code)                                                      \
    const type_info _ZTI##code = {FUNDAMENTAL_VPTR, #code};                    \
    const pointer_type_info _ZTIP##code = {{POINTER_VPTR, "P" #code}, 0,       \
                                           &_ZTI##code};                       \
    const pointer_type_info _ZTIPK##code = {{POINTER_VPTR, "PK" #code},        \
                                            PTR_CONST, &_ZTI##code};
FUNDAMENTAL(v)
FUNDAMENTAL(b)
FUNDAMENTAL(c)
FUNDAMENTAL(a)
FUNDAMENTAL(h)
FUNDAMENTAL(s)
FUNDAMENTAL(t)
FUNDAMENTAL(i)
FUNDAMENTAL(j)
FUNDAMENTAL(l)
FUNDAMENTAL(m)
FUNDAMENTAL(x)
FUNDAMENTAL(y)
FUNDAMENTAL(n)
FUNDAMENTAL(o)
FUNDAMENTAL(f)
FUNDAMENTAL(d)
FUNDAMENTAL(e)
FUNDAMENTAL(w)
FUNDAMENTAL(Ds)
FUNDAMENTAL(Di)
FUNDAMENTAL(Du)
FUNDAMENTAL(Dn)

static int same_type(const type_info *a, const type_info *b) {
    return a == b || (a && b && strcmp(a->name, b->name) == 0);
}

/* Whether an object of class `derived` at `obj` has a public base of class
 * `base`; *adjusted becomes the base subobject's address. */
static int find_base(const type_info *derived, const type_info *base, char *obj,
                     char **adjusted) {
    if (same_type(derived, base)) {
        *adjusted = obj;
        return 1;
    }
    if (derived->vptr == SI_VPTR) {
        const si_class_type_info *si = (const si_class_type_info *)derived;
        return find_base(si->base, base, obj, adjusted);
    }
    if (derived->vptr == VMI_VPTR) {
        const vmi_class_type_info *vmi = (const vmi_class_type_info *)derived;
        for (uint32_t i = 0; i < vmi->base_count; i++) {
            long of = vmi->bases[i].offset_flags;
            if (!(of & BASE_PUBLIC))
                continue;
            long offset = of >> BASE_OFFSET_SHIFT;
            char *sub;
            if (of & BASE_VIRTUAL) {
                /* The offset of the virtual base is in the vtable, at
                 * `offset` bytes from the address point. */
                char *vtable = *(char **)obj;
                sub = obj + *(const long *)(vtable + offset);
            } else {
                sub = obj + offset;
            }
            if (find_base(vmi->bases[i].base, base, sub, adjusted))
                return 1;
        }
    }
    return 0;
}

/* Whether a handler for `catch_type` catches an exception of `thrown` at
 * `obj`; *adjusted becomes what __cxa_begin_catch returns. */
static int can_catch(const type_info *catch_type, const type_info *thrown, void *obj,
                     void **adjusted) {
    if (same_type(catch_type, thrown)) {
        *adjusted = thrown->vptr == POINTER_VPTR ? *(void **)obj : obj;
        return 1;
    }
    if (catch_type->vptr == POINTER_VPTR && thrown->vptr == POINTER_VPTR) {
        const pointer_type_info *c = (const pointer_type_info *)catch_type;
        const pointer_type_info *t = (const pointer_type_info *)thrown;
        /* The handler may add qualifiers, never drop them. */
        if (t->flags & ~c->flags)
            return 0;
        char *p = *(char **)obj;
        if (same_type(c->pointee, t->pointee) || c->pointee == &_ZTIv) {
            *adjusted = p;
            return 1;
        }
        char *sub;
        if (p && find_base(t->pointee, c->pointee, p, &sub)) {
            *adjusted = sub;
            return 1;
        }
        if (!p && (t->pointee->vptr == CLASS_VPTR || t->pointee->vptr == SI_VPTR ||
                   t->pointee->vptr == VMI_VPTR)) {
            *adjusted = NULL;
            return find_base(t->pointee, c->pointee, (char *)&p, &sub);
        }
        return 0;
    }
    char *sub;
    if (find_base(thrown, catch_type, obj, &sub)) {
        *adjusted = sub;
        return 1;
    }
    return 0;
}

/* dynamic_cast<dst *>(sub), where sub points at a `src` subobject: finds the
 * most-derived object through the vtable (offset-to-top at -2 words, its
 * type_info at -1) and looks for a public `dst` in it. The source-to-
 * destination hint and ambiguity checks are not used: the first public
 * base found wins. */
void *__dynamic_cast(const void *sub, const type_info *src, const type_info *dst,
                     long src2dst) {
    (void)src, (void)src2dst;
    if (!sub)
        return NULL;
    const void *const *vptr = *(const void *const *const *)sub;
    long offset_to_top = ((const long *)vptr)[-2];
    const type_info *whole_type = (const type_info *)vptr[-1];
    char *whole = (char *)sub + offset_to_top;
    char *found;
    if (find_base(whole_type, dst, whole, &found))
        return found;
    return NULL;
}

/* ---- exceptions -------------------------------------------------------- */

#define CXX_CLASS 0x474e5543432b2b00ULL /* "GNUCC++\0" */

typedef struct cxa_exception {
    const type_info *type;
    void (*dest)(void *);
    struct cxa_exception *next_caught;
    long handlers;
    long rethrown;
    void *adjusted;
    int64_t selector;
    struct _Unwind_Exception unwind; /* last: the thrown object follows */
} cxa_exception;

static cxa_exception *caught; /* innermost caught exception */

static cxa_exception *from_unwind(struct _Unwind_Exception *ue) {
    return (cxa_exception *)((char *)ue - offsetof(cxa_exception, unwind));
}

static void *thrown_object(cxa_exception *h) { return (char *)h + sizeof *h; }

__attribute__((noreturn)) void _ZSt9terminatev(void) {
    const char *what = caught && caught->type ? caught->type->name : NULL;
    fflush(stdout);
    if (what)
        fprintf(stderr, "terminate called after throwing an exception of type %s\n", what);
    else
        fprintf(stderr, "terminate called\n");
    abort();
}

__attribute__((noreturn)) static void terminate_uncaught(cxa_exception *h) {
    fflush(stdout);
    fprintf(stderr, "terminate called after throwing an exception of type %s (no handler)\n",
            h->type ? h->type->name : "?");
    abort();
}

void *__cxa_allocate_exception(size_t size) {
    cxa_exception *h = calloc(1, sizeof *h + size);
    return thrown_object(h);
}

void __cxa_free_exception(void *obj) {
    if (obj)
        free((char *)obj - sizeof(cxa_exception));
}

static void destroy(cxa_exception *h) {
    if (h->dest)
        h->dest(thrown_object(h));
    free(h);
}

static void delete_unwound(_Unwind_Reason_Code reason, struct _Unwind_Exception *ue) {
    (void)reason;
    destroy(from_unwind(ue));
}

void __cxa_throw(void *obj, const type_info *type, void (*dest)(void *)) {
    cxa_exception *h = (cxa_exception *)((char *)obj - sizeof(cxa_exception));
    h->type = type;
    h->dest = dest;
    h->unwind.exception_class = CXX_CLASS;
    h->unwind.exception_cleanup = delete_unwound;
    _Unwind_RaiseException(&h->unwind);
    /* Returned: nothing will catch it (or a personality failed). */
    terminate_uncaught(h);
}

void *__cxa_get_exception_ptr(struct _Unwind_Exception *ue) {
    if (ue->exception_class != CXX_CLASS)
        return NULL;
    return from_unwind(ue)->adjusted;
}

void *__cxa_begin_catch(struct _Unwind_Exception *ue) {
    if (ue->exception_class != CXX_CLASS) {
        /* A foreign exception: caught by catch (...) only; nothing to
         * adjust. */
        return NULL;
    }
    cxa_exception *h = from_unwind(ue);
    if (h->handlers == 0 || caught != h) {
        h->next_caught = caught;
        caught = h;
    }
    h->handlers++;
    h->rethrown = 0;
    return h->adjusted;
}

void __cxa_end_catch(void) {
    cxa_exception *h = caught;
    if (!h)
        return;
    if (--h->handlers > 0)
        return;
    caught = h->next_caught;
    if (!h->rethrown)
        destroy(h);
}

void __cxa_rethrow(void) {
    cxa_exception *h = caught;
    if (!h)
        _ZSt9terminatev();
    h->rethrown = 1;
    _Unwind_Resume_or_Rethrow(&h->unwind);
    terminate_uncaught(h);
}

const type_info *__cxa_current_exception_type(void) {
    return caught ? caught->type : NULL;
}

__attribute__((noreturn)) void __cxa_call_unexpected(void *ue) {
    (void)ue;
    fflush(stdout);
    fprintf(stderr, "terminate called: an exception violated a dynamic exception "
                    "specification\n");
    abort();
}

/* The C++ personality: the clauses of the frame's landing pad in order. */
_Unwind_Reason_Code __gxx_personality_v0(int version, _Unwind_Action actions,
                                         uint64_t cls, struct _Unwind_Exception *ue,
                                         struct _Unwind_Context *ctx) {
    if (version != 1)
        return _URC_FATAL_PHASE1_ERROR;
    const gimso_eh_landing_pad *lp = _Unwind_GetLanguageSpecificData(ctx);
    if (!lp)
        return _URC_CONTINUE_UNWIND;
    int native = cls == CXX_CLASS;
    cxa_exception *h = native ? from_unwind(ue) : NULL;
    int64_t selector = 0;
    void *adjusted = NULL;
    if (!(actions & _UA_FORCE_UNWIND)) {
        for (uint64_t i = 0; i < lp->num_clauses && !selector; i++) {
            const gimso_eh_clause *c = &lp->clauses[i];
            if (c->kind == GIMSO_EH_CLAUSE_CATCH) {
                const type_info *t = c->types[0];
                if (!t) {
                    selector = c->selector;
                    adjusted = native ? thrown_object(h) : NULL;
                    if (native && h->type->vptr == POINTER_VPTR)
                        adjusted = *(void **)thrown_object(h);
                } else if (native && can_catch(t, h->type, thrown_object(h), &adjusted)) {
                    selector = c->selector;
                }
            } else if (c->kind == GIMSO_EH_CLAUSE_FILTER) {
                /* Applies when the exception matches none of the types. */
                int allowed = 0;
                for (uint64_t k = 0; native && k < c->num_types && !allowed; k++) {
                    void *ignored;
                    allowed = can_catch(c->types[k], h->type, thrown_object(h), &ignored);
                }
                if (!allowed)
                    selector = c->selector;
            }
        }
    }
    if (actions & _UA_SEARCH_PHASE) {
        if (!selector)
            return _URC_CONTINUE_UNWIND;
        if (native) {
            h->adjusted = adjusted;
            h->selector = selector;
        }
        return _URC_HANDLER_FOUND;
    }
    if ((actions & _UA_HANDLER_FRAME) && selector) {
        _Unwind_SetGR(ctx, 0, (uintptr_t)ue);
        _Unwind_SetGR(ctx, 1, (uintptr_t)selector);
        return _URC_INSTALL_CONTEXT;
    }
    if (lp->cleanup) {
        _Unwind_SetGR(ctx, 0, (uintptr_t)ue);
        _Unwind_SetGR(ctx, 1, 0);
        return _URC_INSTALL_CONTEXT;
    }
    return _URC_CONTINUE_UNWIND;
}

/* ---- operator new and delete ------------------------------------------- */

void *_Znwm(size_t n) { return malloc(n ? n : 1); }
void *_Znam(size_t n) { return malloc(n ? n : 1); }
void *_ZnwmRKSt9nothrow_t(size_t n, const void *tag) { (void)tag; return malloc(n ? n : 1); }
void *_ZnamRKSt9nothrow_t(size_t n, const void *tag) { (void)tag; return malloc(n ? n : 1); }
void *_ZnwmSt11align_val_t(size_t n, size_t align) { return aligned_alloc(align, n ? n : 1); }
void *_ZnamSt11align_val_t(size_t n, size_t align) { return aligned_alloc(align, n ? n : 1); }
void _ZdlPv(void *p) { free(p); }
void _ZdaPv(void *p) { free(p); }
void _ZdlPvm(void *p, size_t n) { (void)n; free(p); }
void _ZdaPvm(void *p, size_t n) { (void)n; free(p); }
void _ZdlPvSt11align_val_t(void *p, size_t a) { (void)a; free(p); }
void _ZdaPvSt11align_val_t(void *p, size_t a) { (void)a; free(p); }
void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t a) { (void)n, (void)a; free(p); }
void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t a) { (void)n, (void)a; free(p); }
void _ZdlPvRKSt9nothrow_t(void *p, const void *tag) { (void)tag; free(p); }
void _ZdaPvRKSt9nothrow_t(void *p, const void *tag) { (void)tag; free(p); }
const char _ZSt7nothrow = 0;

/* ---- the rest ------------------------------------------------------------- */

__attribute__((noreturn)) void __cxa_pure_virtual(void) {
    fflush(stdout);
    fprintf(stderr, "pure virtual function called\n");
    abort();
}

/* typeid(*null) and dynamic_cast<T&> failures would throw std::bad_typeid
 * and std::bad_cast, which live in the C++ standard library gimso does not
 * have yet: the program stops as an uncaught one would. */
__attribute__((noreturn)) void __cxa_bad_typeid(void) {
    fflush(stdout);
    fprintf(stderr, "terminate called after throwing an instance of 'std::bad_typeid'\n");
    abort();
}

__attribute__((noreturn)) void __cxa_bad_cast(void) {
    fflush(stdout);
    fprintf(stderr, "terminate called after throwing an instance of 'std::bad_cast'\n");
    abort();
}

__attribute__((noreturn)) void __cxa_deleted_virtual(void) {
    fflush(stdout);
    fprintf(stderr, "deleted virtual function called\n");
    abort();
}

/* Static local initialisation: byte 0 of the guard is "done", byte 1
 * "in progress" (a recursive initialisation is a program error). */
int __cxa_guard_acquire(uint64_t *guard) {
    unsigned char *g = (unsigned char *)guard;
    if (g[0])
        return 0;
    if (g[1]) {
        fflush(stdout);
        fprintf(stderr, "recursive initialisation of a static local variable\n");
        abort();
    }
    g[1] = 1;
    return 1;
}

void __cxa_guard_release(uint64_t *guard) {
    unsigned char *g = (unsigned char *)guard;
    g[1] = 0;
    g[0] = 1;
}

void __cxa_guard_abort(uint64_t *guard) { ((unsigned char *)guard)[1] = 0; }

/* Destructors of static objects are registered with the runtime's
 * __cxa_atexit, which shares atexit's list. */
void *__dso_handle = &__dso_handle;
