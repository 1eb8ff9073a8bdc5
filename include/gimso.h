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
#define GIMSO_ABI_VERSION 7

/* Failure entry points end the program. */
#define GIMSO_NORETURN __attribute__((noreturn))

#define GIMSO_WORD_SIZE 8
#define GIMSO_HEADER_SIZE 16
#define GIMSO_MIN_ALIGN 16
#define GIMSO_MAX_ALIGN 65536
#define GIMSO_MAX_OBJECT_SIZE 0x400000000000ULL

/* ---- Object header: [ header (16 B) | payload ], lower = payload -------- */

typedef struct gimso_object_header {
    uintptr_t upper; /* one past the last accessible byte */
    uint64_t aux;    /* flags (low 16 bits) | signed distance from the payload
                      * to its shadow storage (GIMSO_FLAG_SHADOW set) or to
                      * the runtime's zero region (clear; 0 for specials),
                      * high 48 bits */
} gimso_object_header;

#define GIMSO_HEADER_UPPER_OFFSET 0
#define GIMSO_HEADER_AUX_OFFSET 8

/* The shadow word of the pointer slot at p is p + ((int64_t)aux >> 16). */
#define GIMSO_AUX_DELTA_SHIFT 16
#define GIMSO_AUX_FLAGS_MASK 0xffffULL
#define GIMSO_FLAG_FREE (1ULL << 0)
#define GIMSO_FLAG_READONLY (1ULL << 1)
#define GIMSO_FLAG_GLOBAL (1ULL << 2)
#define GIMSO_FLAG_STACK (1ULL << 3)
#define GIMSO_FLAG_PAD (1ULL << 4)
/* The address was converted to an integer under -fgimso-exposed-provenance. */
#define GIMSO_FLAG_EXPOSED (1ULL << 5)
/* The distance leads to shadow words, which pointer stores may write. */
#define GIMSO_FLAG_SHADOW (1ULL << 6)
#define GIMSO_SPECIAL_SHIFT 8
#define GIMSO_SPECIAL_MASK (0xfULL << GIMSO_SPECIAL_SHIFT)
/* Marking epoch (1..15) in which the object was last seen marked; while
 * gimso_gc_marking holds that epoch, storing a pointer to it needs no
 * store barrier. */
#define GIMSO_BARRIER_EPOCH_SHIFT 12
#define GIMSO_BARRIER_EPOCH_MASK (0xfULL << GIMSO_BARRIER_EPOCH_SHIFT)

/* Function object payload: entry, direct body, body's type hash. */
#define GIMSO_FUNCTION_PAYLOAD_SIZE 24
#define GIMSO_FUNCTION_BODY_OFFSET 8
#define GIMSO_FUNCTION_TYPE_HASH_OFFSET 16

#define GIMSO_SPECIAL_NONE 0
#define GIMSO_SPECIAL_FUNCTION 1
#define GIMSO_SPECIAL_AUX 2
#define GIMSO_SPECIAL_ATOMIC_BOX 3
#define GIMSO_SPECIAL_THREAD 4
#define GIMSO_SPECIAL_JMP_BUF 5
#define GIMSO_SPECIAL_FILE 6
#define GIMSO_SPECIAL_UNWIND_CONTEXT 7
#define GIMSO_SPECIAL_DIR 8

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

/* Source location of a checked operation; null/0 fields mean unknown.
 * When `column` has GIMSO_SITE_RELATIVE set (compiled code's records),
 * `file` and `function` hold byte offsets from the record's own address
 * instead of addresses (0: unknown), so that the records need no dynamic
 * relocation in a position-independent executable; the column is the rest
 * of the bits. */
#define GIMSO_SITE_RELATIVE 0x80000000u
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
    struct gimso_frame_record *unwind_frames; /* innermost unwindable frame */
} gimso_thread_abi;

/* One unwindable frame (docs/architecture.md): a function with a personality links one
 * from its native stack while it runs; the runtime links a barrier (null
 * personality capability) wherever it calls compiled code. `lsda` is the
 * landing-pad object of the call the frame is in, or null in a plain call. */
typedef struct gimso_frame_record {
    struct gimso_frame_record *prev;
    gimso_ptr personality;
    gimso_ptr lsda;
    uint64_t epoch; /* 0; numbered by the runtime for setjmp */
} gimso_frame_record;

#define GIMSO_FRAME_PREV_OFFSET 0
#define GIMSO_FRAME_PERSONALITY_OFFSET 8
#define GIMSO_FRAME_LSDA_OFFSET 24
#define GIMSO_FRAME_EPOCH_OFFSET 40
#define GIMSO_FRAME_RECORD_SIZE 48
/* personality.intval of a frame without a personality that keeps a record
 * for setjmp (a barrier has intval 0). */
#define GIMSO_FRAME_NO_PERSONALITY 1

#define GIMSO_THREAD_STATE_OFFSET 0
#define GIMSO_THREAD_CC_OUTLINE_PAYLOAD_OFFSET 8
#define GIMSO_THREAD_CC_OUTLINE_CAPS_OFFSET 16
#define GIMSO_THREAD_CC_OUTLINE_BYTES_OFFSET 24
#define GIMSO_THREAD_CC_PAYLOAD_OFFSET 32
#define GIMSO_THREAD_CC_CAPS_OFFSET 544
#define GIMSO_THREAD_UNWIND_FRAMES_OFFSET 1056
#define GIMSO_THREAD_ABI_SIZE 1064

/* ---- Exceptions (docs/architecture.md) -------------------------------------
 * The unwinder is the Itanium one (unwind.h: _Unwind_RaiseException,
 * _Unwind_Resume, _Unwind_ForcedUnwind, _Unwind_DeleteException,
 * _Unwind_GetGR/SetGR, _Unwind_GetLanguageSpecificData, _Unwind_GetIP,
 * _Unwind_GetRegionStart) on the call ABI: phase 1 walks the frame records
 * calling personalities with _UA_SEARCH_PHASE; phase 2 is ordinary returns
 * with EntryResult.has_exception set, each `invoke` asking the runtime
 * (gimso_landing_pad) whether its landing pad runs. */
#define GIMSO_URC_NO_REASON 0
#define GIMSO_URC_FOREIGN_EXCEPTION_CAUGHT 1
#define GIMSO_URC_FATAL_PHASE2_ERROR 2
#define GIMSO_URC_FATAL_PHASE1_ERROR 3
#define GIMSO_URC_NORMAL_STOP 4
#define GIMSO_URC_END_OF_STACK 5
#define GIMSO_URC_HANDLER_FOUND 6
#define GIMSO_URC_INSTALL_CONTEXT 7
#define GIMSO_URC_CONTINUE_UNWIND 8
#define GIMSO_UA_SEARCH_PHASE 1
#define GIMSO_UA_CLEANUP_PHASE 2
#define GIMSO_UA_HANDLER_FRAME 4
#define GIMSO_UA_FORCE_UNWIND 8
#define GIMSO_UA_END_OF_STACK 16

/* The LSDA: what _Unwind_GetLanguageSpecificData returns for a frame
 * stopped in an `invoke`. It is a read-only gimso object the compiler emits
 * per landing pad, describing its `landingpad` clauses in order:
 *
 *   cleanup      nonzero if the pad has the `cleanup` flag
 *   num_clauses  number of clauses that follow
 *   clauses[i]   { kind, selector, num_types, types }: kind
 *                GIMSO_EH_CLAUSE_CATCH has one type (a type_info pointer;
 *                NULL catches everything), GIMSO_EH_CLAUSE_FILTER lists the
 *                types of an exception specification (none: `throw()`).
 *                `selector` is the value a personality puts in register 1
 *                when the clause applies: what `llvm.eh.typeid.for` of the
 *                catch type yields in the landing pad (positive), or a
 *                negative number for a filter.
 *
 * A personality reads it with ordinary (checked) loads. */
/* The translated `invoke` whose callee returned with the exception flag:
 * 1 if its landing pad runs (the `landingpad` then reads the two unwind
 * registers with gimso_landing_register), 0 to go on unwinding. */
uint64_t gimso_landing_pad(gimso_thread_abi *thread);
gimso_ptr gimso_landing_register(uint64_t index);
/* An exception reached a function or call that cannot unwind. */
GIMSO_NORETURN void gimso_unwind_into_nounwind(const gimso_source_location *loc);
/* The first half of a translated setjmp(env) / sigsetjmp(env, savemask):
 * `native` is the caller's private native jmp_buf (glibc's _setjmp fills it
 * next), `record` the caller's frame record. */
void gimso_setjmp_prepare(gimso_thread_abi *thread, gimso_ptr env, void *native,
                          gimso_frame_record *record, int savemask,
                          const gimso_source_location *loc);

/* The calling thread's instance of a thread-local variable whose initial
 * image is the global object `image` (made on first use, a copy of the
 * image with its capabilities). */
gimso_ptr gimso_tls_address(gimso_thread_abi *thread, gimso_ptr image);

/* Gives a C function (compiled with -fexceptions) the personality `fn`,
 * which must be declared in the same file, instead of __gcc_personality_v0. */
#define GIMSO_PERSONALITY(fn) __attribute__((annotate("gimso.personality:" #fn)))

#define GIMSO_EH_CLAUSE_CATCH 0
#define GIMSO_EH_CLAUSE_FILTER 1
#define GIMSO_EH_LSDA_CLEANUP_OFFSET 0
#define GIMSO_EH_LSDA_NUM_CLAUSES_OFFSET 8
#define GIMSO_EH_LSDA_CLAUSES_OFFSET 16
#define GIMSO_EH_CLAUSE_SIZE 32

typedef struct gimso_eh_clause {
    uint64_t kind;
    int64_t selector;
    uint64_t num_types;
    const void *const *types;
} gimso_eh_clause;

typedef struct gimso_eh_landing_pad {
    uint64_t cleanup;
    uint64_t num_clauses;
    gimso_eh_clause clauses[];
} gimso_eh_landing_pad;

/* Exit status of a program stopped by a safety error (GIMSO_ERROR_EXIT_CODE
 * in the environment overrides it). Reports start "gimso: safety error:". */
#define GIMSO_SAFETY_EXIT_CODE 134

/* Non-zero while the collector marks, then the marking epoch (1..15): the
 * store barrier's fast path is one byte load of this flag and a branch, and
 * while marking, a comparison with the stored capability's barrier epoch. */
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
 * and reports it with `loc` (may be null). Never returns: an access that
 * would in fact have passed is reported as an internal error. */
GIMSO_NORETURN void gimso_access_failed(gimso_ptr p, size_t size, uint32_t access,
                         const gimso_source_location *loc);

/* The failure path of a check that covered several accesses at once: reports
 * this access's failure with `loc` if it fails, else returns (the compiled
 * code then rechecks the next access it covered). */
void gimso_access_recheck(gimso_ptr p, size_t size, uint32_t access,
                          const gimso_source_location *loc);

/* Non-atomic pointer store and load through shadow storage. */
void gimso_store_ptr(gimso_ptr dst, gimso_ptr value);
gimso_ptr gimso_load_ptr(gimso_ptr src);

/* The cold-path entries compiled code calls, under the preserve_most calling
 * convention: each is the entry of the same name without `_pm`, and keeps
 * every general-purpose register but r11 and its return registers, so the
 * inlined fast path around the call keeps its values in registers. */
#define GIMSO_PRESERVE_MOST __attribute__((preserve_most))
GIMSO_PRESERVE_MOST void gimso_store_ptr_pm(gimso_ptr dst, gimso_ptr value);
GIMSO_PRESERVE_MOST gimso_ptr gimso_load_ptr_pm(gimso_ptr src);
GIMSO_PRESERVE_MOST void gimso_access_recheck_pm(gimso_ptr p, size_t size, uint32_t access,
                                                 const gimso_source_location *loc);
GIMSO_PRESERVE_MOST void gimso_pollcheck_slow_pm(gimso_thread_abi *thread);
GIMSO_PRESERVE_MOST uintptr_t gimso_check_call_at_pm(gimso_ptr fn, const gimso_source_location *loc);

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

/* ---- Compiled code: symbols, generic entries, CC buffers ------------------ *
 *
 * gimso-cc renames every global of the program: function NAME's generic
 * entry is the symbol "gimso.fn.NAME"; the capability object of a global
 * NAME (variable or function) is "gimso.obj.NAME", which names its 16-byte
 * header (payload, i.e. lower, at +16). A function object's payload is
 * three words: the generic entry address, the direct body's address and
 * the hash of the LLVM function type that body takes (both 0 when there is
 * none: libc wrappers, gimso_function_new). libc wrappers are defined the
 * same way.
 *
 * Generic entry:
 *   gimso_entry_result NAME(gimso_thread_abi *t, uintptr_t callee_lower,
 *                           uint64_t arg_bytes);
 * Arguments sit in t->cc_payload / t->cc_caps when arg_bytes <=
 * GIMSO_CC_INLINE_BYTES, else in the outline buffers; each argument starts
 * at a multiple of max(8, its alignment) and takes its size rounded up to 8.
 * Caps word i holds the capability of the pointer at payload bytes
 * [8i, 8i+8), and 0 where no pointer is. The return value is laid out the
 * same way from offset 0 (inline if ret_bytes <= GIMSO_CC_INLINE_BYTES).
 *
 * Direct entries (unless gimso-cc -fno-gimso-direct-calls): a compiled
 * (non-variadic) function's body is the symbol
 * "gimso.fd.NAME.HASH", HASH 16 hex digits of a hash of its LLVM type; it
 * takes (t, then each argument followed by its capability if its type holds
 * pointers) and returns {has_exception, value, value's capabilities} in
 * registers. Compiled callers of the same type call it directly; others
 * (and function pointers) use the generic entry, which calls the body. It
 * is private to the compiler: C code calls the generic entry.
 *
 * Wrapper register entries: the allocator and a few string wrappers
 * (malloc, calloc, realloc, free, strlen, strcmp, memcmp, strchr) also
 * have "gimso.fn.NAME.direct", the C prototype with each pointer passed
 * and returned as a gimso_ptr; compiled calls of exactly that prototype
 * use it. Also private to the compiler. */
typedef struct gimso_entry_result {
    uint64_t has_exception;
    uint64_t ret_bytes;
} gimso_entry_result;

typedef gimso_entry_result (*gimso_entry_fn)(gimso_thread_abi *thread, uintptr_t callee_lower,
                                             uint64_t arg_bytes);

/* The zeroed object of an escaping alloca (flagged as a stack object). */
gimso_ptr gimso_alloc_stack(size_t size, size_t align);
/* The same for a local whose type holds pointers: its shadow words inline. */
gimso_ptr gimso_alloc_stack_ptrs(size_t size, size_t align);
/* Make the outline CC buffers of `t` hold at least `bytes`. */
void gimso_cc_outline(gimso_thread_abi *t, uint64_t bytes);
/* Copy n bytes (payload and capabilities) from checked memory `src` into CC
 * buffer slots, and out of them into a fresh object (byval arguments). */
void gimso_cc_copy_in(uint64_t *payload, uintptr_t *caps, gimso_ptr src, size_t n,
                      const gimso_source_location *loc);
gimso_ptr gimso_cc_copy_out(const uint64_t *payload, const uintptr_t *caps, size_t n,
                            size_t align);
/* The object of a stack local holding pointers whose address escapes on a
 * path that never returns: a copy of its frame slot (values, capabilities). */
gimso_ptr gimso_stack_copy_out(const uint64_t *payload, const uintptr_t *caps, size_t n,
                               size_t align);
/* The read-only argument object of a variadic function: a copy of bytes
 * skip_bytes..arg_bytes of the current CC buffers (its variadic arguments;
 * skip_bytes is a multiple of 8). */
gimso_ptr gimso_va_start(gimso_thread_abi *t, uint64_t arg_bytes, uint64_t skip_bytes);
/* Failure paths of checks the pass inlines; none returns. */
GIMSO_NORETURN void gimso_arg_size_failed(uint64_t needed, uint64_t given, const gimso_source_location *loc);
GIMSO_NORETURN void gimso_ret_size_failed(uint64_t expected, uint64_t given, const gimso_source_location *loc);
GIMSO_NORETURN void gimso_unreachable(const gimso_source_location *loc);
GIMSO_NORETURN void gimso_indirectbr_failed(uintptr_t target, const gimso_source_location *loc);
/* Call check with a location: returns the entry to call through fn. */
uintptr_t gimso_check_call_at(gimso_ptr fn, const gimso_source_location *loc);
/* Checked memory operations with the location of the calling operation. */
void gimso_memmove_at(gimso_ptr dst, gimso_ptr src, size_t n, const gimso_source_location *loc);
void gimso_memset_at(gimso_ptr dst, int c, size_t n, const gimso_source_location *loc);
/* -fgimso-exposed-provenance: ptrtoint exposes the object of lower;
 * inttoptr of an integer without a capability takes the exposed object
 * containing addr (returns lower itself when it is not 0). */
void gimso_expose(uintptr_t lower);
uintptr_t gimso_exposed_lower(uintptr_t lower, uintptr_t addr);
/* A masked vector access: lane i (elem bytes at p + i * elem) is accessed
 * when bit i of lanes is set; checks the span of the enabled lanes. */
void gimso_check_lanes_at(gimso_ptr p, uint64_t lanes, size_t elem, uint32_t access,
                          const gimso_source_location *loc);
/* Module start-up: store the pointer `value` into a global object's
 * initialiser (read-only objects too), at address `at` inside it. */
void gimso_global_init_ptr(gimso_ptr at, gimso_ptr value);
/* The program's real main: starts the runtime, builds argv/envp as objects,
 * calls the compiled main through its generic entry, runs atexit handlers
 * and exits with main's result. */
int gimso_start_main(int argc, char **argv, char **envp, gimso_entry_fn main_entry,
                     uintptr_t main_lower);

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
