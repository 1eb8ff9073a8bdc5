/*
 * gimso.h — the stable C ABI of the gimso runtime (libgimso.a / libgimso.so).
 *
 * Code compiled by gimso-cc calls these entry points and inlines a few fast
 * paths against the layouts below. Every constant and layout here is checked
 * against the runtime's own definitions (crate gimso-abi) by the test
 * `abi_header`, and every exported function by `abi_exports`.
 *
 * Capabilities are unforgeable for compiled code; hand-written C calling this
 * API directly must only pass `lower` values the runtime gave it.
 */
#ifndef GIMSO_H
#define GIMSO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on every incompatible change. */
#define GIMSO_ABI_VERSION 1

#define GIMSO_WORD_SIZE 8
#define GIMSO_HEADER_SIZE 16
#define GIMSO_MIN_ALIGN 16
#define GIMSO_MAX_ALIGN 65536
#define GIMSO_MAX_OBJECT_SIZE 0x400000000000ULL

/* ---- Object header: [ header (16 B) | payload ], lower = payload -------- */

typedef struct gimso_object_header {
    uintptr_t upper; /* one past the last accessible byte */
    uint64_t aux;    /* aux allocation (low 48 bits) | flags (high 16 bits) */
} gimso_object_header;

#define GIMSO_HEADER_UPPER_OFFSET 0
#define GIMSO_HEADER_AUX_OFFSET 8

#define GIMSO_AUX_PTR_MASK 0x0000ffffffffffffULL
#define GIMSO_FLAG_FREE (1ULL << 48)
#define GIMSO_FLAG_READONLY (1ULL << 49)
#define GIMSO_FLAG_GLOBAL (1ULL << 50)
#define GIMSO_FLAG_STACK (1ULL << 51)
#define GIMSO_FLAG_PAD (1ULL << 52)
#define GIMSO_SPECIAL_SHIFT 56
#define GIMSO_SPECIAL_MASK (0xfULL << GIMSO_SPECIAL_SHIFT)

#define GIMSO_SPECIAL_NONE 0
#define GIMSO_SPECIAL_FUNCTION 1
#define GIMSO_SPECIAL_AUX 2
#define GIMSO_SPECIAL_ATOMIC_BOX 3
#define GIMSO_SPECIAL_THREAD 4
#define GIMSO_SPECIAL_JMP_BUF 5
#define GIMSO_SPECIAL_FILE 6

/* A shadow word holds a plain lower, or (box | GIMSO_SHADOW_BOX_TAG). */
#define GIMSO_SHADOW_BOX_TAG 1

typedef struct gimso_atomic_box {
    uint64_t intval;
    uintptr_t lower;
} gimso_atomic_box;
#define GIMSO_ATOMIC_BOX_SIZE 16

/* ---- Flight pointers ----------------------------------------------------- */

/* A pointer in flight: untrusted address + capability (payload address of
 * the capability object, or 0). Returned in two registers. */
typedef struct gimso_ptr {
    uintptr_t intval;
    uintptr_t lower;
} gimso_ptr;

typedef struct gimso_cmpxchg_result {
    gimso_ptr old;
    uint64_t success;
} gimso_cmpxchg_result;

/* Source location of a checked operation; null/0 fields mean unknown. */
typedef struct gimso_source_location {
    const char *file;
    const char *function;
    uint32_t line;
    uint32_t column;
} gimso_source_location;

/* Access kinds for gimso_check_access and the failure path. */
#define GIMSO_ACCESS_READ 1
#define GIMSO_ACCESS_WRITE 2
#define GIMSO_ACCESS_ALIGNED 4

/* ---- Thread struct prefix read by compiled code ------------------------- */

#define GIMSO_CC_INLINE_BYTES 512
#define GIMSO_CC_INLINE_WORDS 64

#define GIMSO_THREAD_STATE_ENTERED 1
#define GIMSO_THREAD_STATE_EXITED 2
#define GIMSO_THREAD_STATE_MODE_MASK 3
#define GIMSO_THREAD_REQUEST_HANDSHAKE (1ULL << 8)
#define GIMSO_THREAD_REQUEST_STOP (1ULL << 9)
#define GIMSO_THREAD_REQUEST_SIGNAL (1ULL << 10)
#define GIMSO_THREAD_REQUEST_COLLECT (1ULL << 11)
#define GIMSO_THREAD_REQUEST_MASK                                                     \
    (GIMSO_THREAD_REQUEST_HANDSHAKE | GIMSO_THREAD_REQUEST_STOP | GIMSO_THREAD_REQUEST_SIGNAL | \
     GIMSO_THREAD_REQUEST_COLLECT)

typedef struct gimso_thread_abi {
    uint64_t state; /* mode | request bits; pollcheck: state & REQUEST_MASK */
    uint64_t *cc_outline_payload;
    uintptr_t *cc_outline_caps;
    uint64_t cc_outline_bytes;
    uint64_t cc_payload[GIMSO_CC_INLINE_WORDS];
    uintptr_t cc_caps[GIMSO_CC_INLINE_WORDS];
} gimso_thread_abi;

#define GIMSO_THREAD_STATE_OFFSET 0
#define GIMSO_THREAD_CC_OUTLINE_PAYLOAD_OFFSET 8
#define GIMSO_THREAD_CC_OUTLINE_CAPS_OFFSET 16
#define GIMSO_THREAD_CC_OUTLINE_BYTES_OFFSET 24
#define GIMSO_THREAD_CC_PAYLOAD_OFFSET 32
#define GIMSO_THREAD_CC_CAPS_OFFSET 544
#define GIMSO_THREAD_ABI_SIZE 1056

/* Exit status of a program stopped by a safety error (GIMSO_ERROR_EXIT_CODE
 * in the environment overrides it). Reports start "gimso: safety error:". */
#define GIMSO_SAFETY_EXIT_CODE 134

/* Non-zero while the collector marks: the store barrier's fast path is one
 * byte load of this flag and a branch. */
extern volatile uint8_t gimso_gc_marking;

/* ---- Runtime entry points ------------------------------------------------ */

/* GIMSO_ABI_VERSION of the linked runtime. */
uint32_t gimso_abi_version(void);

/* Allocate a zeroed object of `size` bytes (bounds rounded up to 8), 16-byte
 * aligned; never returns null (out of memory is a fatal error). */
gimso_ptr gimso_alloc(size_t size);
/* Same with an explicit power-of-two alignment <= GIMSO_MAX_ALIGN; returns
 * the null pointer for an invalid alignment. */
gimso_ptr gimso_alloc_aligned(size_t size, size_t align);
/* free(): NULL is a no-op; double, interior, global, stack, special and
 * capability-less frees are safety errors. */
void gimso_free(gimso_ptr p);
/* Bytes accessible from the start of p's object (0 when freed or special). */
size_t gimso_object_size(gimso_ptr p);

/* Check an access of `size` bytes (GIMSO_ACCESS_* in `access`); a failing
 * check stops the program with a safety report. */
void gimso_check_access(gimso_ptr p, size_t size, uint32_t access);
/* The out-of-line failure path of an inlined check: classifies the failure
 * and reports it with `loc` (may be null). Only returns if the access would
 * in fact have passed. */
void gimso_access_failed(gimso_ptr p, size_t size, uint32_t access,
                         const gimso_source_location *loc);

/* Non-atomic pointer store and load through shadow storage. */
void gimso_store_ptr(gimso_ptr dst, gimso_ptr value);
gimso_ptr gimso_load_ptr(gimso_ptr src);

/* Atomic pointer operations through atomic boxes (lock-free, seq_cst). */
void gimso_atomic_store_ptr(gimso_ptr dst, gimso_ptr value);
gimso_ptr gimso_atomic_load_ptr(gimso_ptr src);
gimso_cmpxchg_result gimso_atomic_cmpxchg_ptr(gimso_ptr dst, uintptr_t expected,
                                              gimso_ptr value, int weak);
gimso_ptr gimso_atomic_xchg_ptr(gimso_ptr dst, gimso_ptr value);

/* memmove/memcpy/memset with the capability rules of the spec (memcpy is a
 * memmove). */
void gimso_memmove(gimso_ptr dst, gimso_ptr src, size_t n);
void gimso_memcpy(gimso_ptr dst, gimso_ptr src, size_t n);
void gimso_memset(gimso_ptr dst, int c, size_t n);

/* Function capabilities: create one for an entry address, and the call
 * check, which returns the entry to call. */
gimso_ptr gimso_function_new(uintptr_t entry);
uintptr_t gimso_check_call(gimso_ptr fn);

/* The object containing address `addr` (intval = addr), or the null pointer. */
gimso_ptr gimso_lookup(uintptr_t addr);

/* ---- Threads and the collector ------------------------------------------- */

/* Attach the calling thread (threads also attach on their first runtime
 * call and detach when they exit); returns its ABI struct. */
gimso_thread_abi *gimso_thread_attach(void);
void gimso_thread_detach(void);
/* Bracket anything that may block (sleep, I/O, waiting): while exited, the
 * collector scans the thread on its behalf instead of waiting for it. */
void gimso_exit(void);
void gimso_enter(void);
/* A safepoint. Inlined form: if (t->state & GIMSO_THREAD_REQUEST_MASK)
 * gimso_pollcheck_slow(t); */
void gimso_pollcheck(void);
void gimso_pollcheck_slow(gimso_thread_abi *thread);
/* Run a full collection and wait for it; completed cycles so far. */
void gimso_gc_collect(void);
uint64_t gimso_gc_cycles(void);
/* Keep a global object (and all it references) alive for good. */
void gimso_register_global(gimso_ptr p);

/* ---- Inline helpers (not exported functions) ----------------------------- */

static inline gimso_ptr gimso_ptr_offset(gimso_ptr p, intptr_t delta) {
    p.intval += (uintptr_t)delta;
    return p;
}

static inline void *gimso_ptr_address(gimso_ptr p) { return (void *)p.intval; }

#ifdef __cplusplus
}
#endif

#endif /* GIMSO_H */
