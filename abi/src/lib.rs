//! The stable ABI between code compiled by `gimso-cc` and the gimso runtime.
//!
//! Everything compiled code relies on lives here: the object header and its
//! flag bits, the special kinds, the flight-pointer pair, the thread-struct
//! offsets that inlined fast paths read, and the calling-convention buffer
//! sizes. `include/gimso.h` declares the same values; the `abi_header` test
//! compiles that header and compares every `GIMSO_*` constant and layout
//! against [`ABI_CONSTANTS`], so the two cannot drift apart.
//!
//! This crate has no dependencies and no behaviour, only data.

#![no_std]

use core::mem::{offset_of, size_of};
use core::sync::atomic::{AtomicU64, AtomicUsize};

/// Bumped on every incompatible change to anything in this crate.
pub const ABI_VERSION: u32 = 7;

/// Size of the machine word, of a pointer at rest and of one shadow word.
pub const WORD_SIZE: usize = 8;

/// Size of the capability header that precedes every payload.
pub const HEADER_SIZE: usize = 16;

/// Minimum alignment of every heap payload.
pub const MIN_ALIGN: usize = 16;

/// Largest alignment an allocation may request.
pub const MAX_ALIGN: usize = 1 << 16;

/// Largest payload size the runtime accepts (larger requests are a clean
/// out-of-memory error, never an overflow).
pub const MAX_OBJECT_SIZE: usize = 1 << 46;

// ---------------------------------------------------------------------------
// Object header: `[ header (16 B) | payload ]`, `lower` points at the payload.
// ---------------------------------------------------------------------------

/// The capability object of a payload, stored in the 16 bytes just below it.
///
/// `upper` is one past the last accessible byte; `aux` packs the flags in
/// its low 16 bits and, in the high 48 bits, the signed distance from the
/// payload (`lower`) to the object's shadow (aux) storage. Compiled code
/// finds the shadow word of the pointer slot at `p` as `p + (aux >> 16)`
/// (arithmetic shift): no mask constant held in a register, no `p - lower`.
///
/// Every data object's distance leads to readable words: its shadow
/// storage when [`FLAG_SHADOW`] is set, otherwise the runtime's read-only
/// zero region, so a pointer load reads a null capability there without
/// first testing whether the object has shadow words (specials, whose
/// distance is 0, never pass an access check). Pointer stores test
/// `FLAG_SHADOW` and let the runtime create the shadow words when it is
/// clear. Both words are atomics: the collector and other mutators read
/// them while the owner frees the object or creates its aux allocation.
#[repr(C)]
#[derive(Debug)]
pub struct ObjectHeader {
    /// One past the last byte of the payload that may be accessed.
    pub upper: AtomicUsize,
    /// Flags (low 16 bits) and shadow distance (high 48 bits, signed).
    pub aux: AtomicU64,
}

/// Offset of `upper` in [`ObjectHeader`].
pub const HEADER_UPPER_OFFSET: usize = offset_of!(ObjectHeader, upper);
/// Offset of `aux` in [`ObjectHeader`].
pub const HEADER_AUX_OFFSET: usize = offset_of!(ObjectHeader, aux);

/// Shift of the signed shadow distance inside the aux word.
pub const AUX_DELTA_SHIFT: u32 = 16;
/// Bits of the aux word that hold flags (everything below the distance).
pub const AUX_FLAGS_MASK: u64 = (1 << AUX_DELTA_SHIFT) - 1;
/// The object has been freed: `upper == lower`, every access traps.
pub const FLAG_FREE: u64 = 1 << 0;
/// Writes through this capability are refused (constants, `va_list` objects).
pub const FLAG_READONLY: u64 = 1 << 1;
/// The object is a global variable or function: it can never be freed.
pub const FLAG_GLOBAL: u64 = 1 << 2;
/// The object backs an `alloca`: freeing it is an invalid free.
pub const FLAG_STACK: u64 = 1 << 3;
/// Not an object header but the alignment pad of an over-aligned
/// allocation: `upper` holds the payload address of the real object, whose
/// header sits just below it.
pub const FLAG_PAD: u64 = 1 << 4;
/// The object's address has been converted to an integer (`ptrtoint`)
/// in a module built with `-fgimso-exposed-provenance`: an integer
/// converted back to a pointer with no capability of its own may take this
/// object's (ISO/IEC TS 6010's "exposed" storage).
pub const FLAG_EXPOSED: u64 = 1 << 5;
/// The aux word's distance leads to the object's shadow storage (clear:
/// to zero memory that is no object's, or 0 for specials): pointer stores
/// may write the shadow words in place.
pub const FLAG_SHADOW: u64 = 1 << 6;
/// Shift of the 4-bit special kind inside the aux word.
pub const SPECIAL_SHIFT: u32 = 8;
/// Mask of the special kind inside the aux word.
pub const SPECIAL_MASK: u64 = 0xf << SPECIAL_SHIFT;
/// Shift of the 4-bit barrier epoch inside the aux word: the marking epoch
/// (the non-zero value of `gimso_gc_marking`, 1..=15) in which the object
/// was last seen marked. While the collector marks with epoch `m`, a
/// pointer store of a capability whose header carries `m` needs no store
/// barrier: its object is already marked. The collector stamps every object
/// it traces and the barrier every object it marks or finds marked, so a
/// live object never carries an epoch older than the previous cycle's and
/// an epoch number is never mistaken for a later cycle's (see
/// `gimso-shadow`'s `barrier` module).
pub const BARRIER_EPOCH_SHIFT: u32 = 12;
/// Mask of the barrier epoch inside the aux word.
pub const BARRIER_EPOCH_MASK: u64 = 0xf << BARRIER_EPOCH_SHIFT;

/// The signed distance from `lower` to the words a pointer load reads the
/// capabilities from: the shadow storage, or zero memory (see
/// [`ObjectHeader`]).
pub const fn aux_delta(aux: u64) -> isize {
    (aux as i64 >> AUX_DELTA_SHIFT) as isize
}

/// `aux` with its shadow storage at distance `delta` (flags kept,
/// [`FLAG_SHADOW`] set; a `delta` of 0 clears both: no shadow).
///
/// # Panics
///
/// Panics (in debug builds) if `delta` does not fit in 48 signed bits;
/// user-space addresses are below 2^47, so the distance between two of
/// them always does.
pub const fn aux_with_delta(aux: u64, delta: isize) -> u64 {
    if delta == 0 {
        return aux & AUX_FLAGS_MASK & !FLAG_SHADOW;
    }
    aux_with_zero_delta(aux, delta) | FLAG_SHADOW
}

/// `aux` whose distance `delta` leads to zero memory that is not shadow
/// storage ([`FLAG_SHADOW`] clear, other flags kept).
///
/// # Panics
///
/// As [`aux_with_delta`].
pub const fn aux_with_zero_delta(aux: u64, delta: isize) -> u64 {
    debug_assert!((delta as i64) << AUX_DELTA_SHIFT >> AUX_DELTA_SHIFT == delta as i64);
    ((delta as u64) << AUX_DELTA_SHIFT) | (aux & AUX_FLAGS_MASK & !FLAG_SHADOW)
}

/// The address of the shadow storage of the object at `lower` whose aux
/// word is `aux`, if it has any.
pub const fn aux_shadow(aux: u64, lower: usize) -> Option<usize> {
    if aux & FLAG_SHADOW == 0 {
        return None;
    }
    Some(lower.wrapping_add_signed(aux_delta(aux)))
}

/// Largest marking epoch; epochs run 1, 2, ..., 15, 1, ...
pub const MAX_BARRIER_EPOCH: u8 = 15;

/// What kind of object a capability describes. Specials have
/// `upper == lower`, so no data access passes the access check.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialKind {
    /// A plain data object.
    None = 0,
    /// A function: the payload's first word holds the callable entry address.
    Function = 1,
    /// The aux (shadow) allocation of another object.
    Aux = 2,
    /// An immutable atomic box `{intval, lower}`.
    AtomicBox = 3,
    /// Reserved for thread handles; no object has this kind.
    Thread = 4,
    /// A `jmp_buf`: where `longjmp` may return to.
    JmpBuf = 5,
    /// A stdio `FILE`.
    File = 6,
    /// The `_Unwind_Context` handed to a personality function.
    UnwindContext = 7,
    /// A directory stream (`DIR *`).
    Dir = 8,
}

impl SpecialKind {
    /// Decodes the kind stored in an aux word; unknown values yield `None`
    /// from this function so callers can report them.
    pub const fn from_aux(aux: u64) -> Option<SpecialKind> {
        match (aux & SPECIAL_MASK) >> SPECIAL_SHIFT {
            0 => Some(SpecialKind::None),
            1 => Some(SpecialKind::Function),
            2 => Some(SpecialKind::Aux),
            3 => Some(SpecialKind::AtomicBox),
            4 => Some(SpecialKind::Thread),
            5 => Some(SpecialKind::JmpBuf),
            6 => Some(SpecialKind::File),
            7 => Some(SpecialKind::UnwindContext),
            8 => Some(SpecialKind::Dir),
            _ => None,
        }
    }

    /// The aux-word bits that encode this kind.
    pub const fn to_aux(self) -> u64 {
        (self as u64) << SPECIAL_SHIFT
    }

    /// Human-readable name used in safety reports.
    pub const fn name(self) -> &'static str {
        match self {
            SpecialKind::None => "data",
            SpecialKind::Function => "function",
            SpecialKind::Aux => "aux",
            SpecialKind::AtomicBox => "atomic box",
            SpecialKind::Thread => "thread",
            SpecialKind::JmpBuf => "jmp_buf",
            SpecialKind::File => "FILE",
            SpecialKind::UnwindContext => "unwind context",
            SpecialKind::Dir => "DIR",
        }
    }
}

/// A function object's runtime-private payload (at `lower`): the generic
/// entry address (what a function pointer's intval must equal), the direct
/// body's address (0 if none) and the hash of the function's LLVM type
/// that body expects (0 if none). A call through a function pointer whose
/// type hashes to the object's hash may call the body directly.
pub const FUNCTION_PAYLOAD_SIZE: usize = 24;
/// Offset of the direct body's address in a function object's payload.
pub const FUNCTION_BODY_OFFSET: usize = 8;
/// Offset of the direct body's type hash in a function object's payload.
pub const FUNCTION_TYPE_HASH_OFFSET: usize = 16;

/// Low bit of a shadow word: set when the word holds `box | 1` (atomic mode)
/// instead of a plain `lower` (non-atomic mode).
pub const SHADOW_BOX_TAG: usize = 1;

/// Payload layout of an atomic box object.
#[repr(C)]
#[derive(Debug)]
pub struct AtomicBoxPayload {
    /// The pointer's integer value.
    pub intval: AtomicU64,
    /// The pointer's capability (`lower`), or 0.
    pub lower: AtomicUsize,
}

/// Size of an atomic box payload.
pub const ATOMIC_BOX_SIZE: usize = size_of::<AtomicBoxPayload>();

// ---------------------------------------------------------------------------
// Flight pointers.
// ---------------------------------------------------------------------------

/// A pointer in flight: the untrusted address and its capability.
///
/// Passed and returned by value in two registers under the SysV ABI.
///
/// The type carries one invariant, on which every safe function of the
/// runtime that reads an object's header through [`FlightPtr::lower`]
/// relies: `lower` is 0 (the null capability) or the payload address of a
/// capability object the runtime made (live, freed or special), which the
/// collector keeps while the value is reachable. `intval` is never trusted.
/// So the fields are private and the constructors that take a `lower` are
/// `unsafe`: the obligation is discharged where a capability comes into
/// being (an allocation, a global's object) or enters the runtime from
/// compiled code, whose values the pass only ever builds from capabilities.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FlightPtr {
    /// The address the program computed; never trusted.
    intval: usize,
    /// The payload address of the capability object, or 0 (null capability).
    lower: usize,
}

impl FlightPtr {
    /// The null pointer with the null capability.
    pub const NULL: FlightPtr = FlightPtr {
        intval: 0,
        lower: 0,
    };

    /// A pointer at `intval` with the capability whose payload is at `lower`.
    ///
    /// # Safety
    /// `lower` is 0 or the payload address of a capability object made by
    /// the runtime (the type's invariant).
    pub const unsafe fn new(intval: usize, lower: usize) -> FlightPtr {
        FlightPtr { intval, lower }
    }

    /// A pointer to the start of the object whose payload is at `lower`.
    ///
    /// # Safety
    /// As [`FlightPtr::new`].
    pub const unsafe fn from_lower(lower: usize) -> FlightPtr {
        FlightPtr {
            intval: lower,
            lower,
        }
    }

    /// An address with the null capability: it compares and prints, and
    /// every access through it is reported.
    pub const fn from_int(intval: usize) -> FlightPtr {
        FlightPtr { intval, lower: 0 }
    }

    /// The address the program computed.
    pub const fn intval(self) -> usize {
        self.intval
    }

    /// The payload address of the capability object, or 0.
    pub const fn lower(self) -> usize {
        self.lower
    }

    /// Whether the capability is null.
    pub const fn is_null_cap(self) -> bool {
        self.lower == 0
    }

    /// The same capability at a different address (what `getelementptr` does).
    pub const fn with_intval(self, intval: usize) -> FlightPtr {
        FlightPtr {
            intval,
            lower: self.lower,
        }
    }

    /// Pointer arithmetic that keeps the capability; wraps like LLVM's gep
    /// without `inbounds`.
    pub const fn offset(self, delta: isize) -> FlightPtr {
        self.with_intval(self.intval.wrapping_add_signed(delta))
    }
}

/// Result of an atomic pointer compare-exchange: the old value and whether
/// the exchange happened.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CmpxchgResult {
    /// The value found at the location.
    pub old: FlightPtr,
    /// 1 if the new value was stored, 0 otherwise.
    pub success: u64,
}

/// Where a checked operation sits in the program's source, passed by
/// compiled code to the out-of-line failure paths (null fields: unknown).
///
/// Two encodings of the names: absolute addresses (the runtime's own
/// records), or, when `column` carries [`SITE_RELATIVE`], byte offsets from
/// the record's own address (0: unknown). Compiled code emits the second:
/// an absolute address in a record of a position-independent executable is
/// a dynamic relocation, and SQLite's 49 000 records made 98 000 of them
/// (2.3 MB of `.rela.dyn` read and 1.5 MB of `.data.rel.ro` written by the
/// loader at every start, 4 MiB of resident memory); an offset is fixed by
/// the static linker. Read the names with [`SourceLocation::file_name`] and
/// [`SourceLocation::function_name`].
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct SourceLocation {
    /// NUL-terminated file name, or null; an offset under `SITE_RELATIVE`.
    pub file: *const u8,
    /// NUL-terminated function name, or null; an offset under
    /// `SITE_RELATIVE`.
    pub function: *const u8,
    /// 1-based line, 0 if unknown.
    pub line: u32,
    /// 1-based column, 0 if unknown; bit 31 is [`SITE_RELATIVE`].
    pub column: u32,
}

/// Bit of [`SourceLocation::column`] saying that `file` and `function`
/// hold offsets from the record's address rather than addresses.
pub const SITE_RELATIVE: u32 = 1 << 31;

// SAFETY: a SourceLocation only ever points at immutable string constants.
unsafe impl Sync for SourceLocation {}

impl SourceLocation {
    /// A location that says nothing (runtime-internal callers).
    pub const UNKNOWN: SourceLocation = SourceLocation {
        file: core::ptr::null(),
        function: core::ptr::null(),
        line: 0,
        column: 0,
    };

    /// The file name's address (null if unknown), whichever the encoding.
    pub fn file_name(&self) -> *const u8 {
        self.name(self.file)
    }

    /// The function name's address (null if unknown), whichever the
    /// encoding.
    pub fn function_name(&self) -> *const u8 {
        self.name(self.function)
    }

    /// The column without the encoding bit (0 if unknown).
    pub fn column_number(&self) -> u32 {
        self.column & !SITE_RELATIVE
    }

    fn name(&self, field: *const u8) -> *const u8 {
        if self.column & SITE_RELATIVE == 0 || field.is_null() {
            return field;
        }
        (self as *const Self as usize).wrapping_add(field as usize) as *const u8
    }
}

// ---------------------------------------------------------------------------
// Compiled code: symbols and the generic entry (docs/architecture.md, "The calling convention").
// ---------------------------------------------------------------------------

/// Symbol of the generic entry of compiled (or wrapper) function `NAME`:
/// `gimso.fn.NAME`. Prefixing keeps the program's names apart from the C
/// library the runtime itself links against.
pub const SYMBOL_FN_PREFIX: &str = "gimso.fn.";

/// Symbol of the direct (register) entry of compiled function `NAME` of a
/// type whose hash is `HASH` (16 hex digits): `gimso.fd.NAME.HASH`. It is
/// the function's body when it has one; its generic entry then reads the
/// CC buffers and calls it.
pub const SYMBOL_DIRECT_PREFIX: &str = "gimso.fd.";

/// A C library wrapper with a register entry besides its generic one:
/// [`DirectWrapper::symbol`], the C prototype as a C-ABI function with each
/// pointer argument and result a `gimso_ptr` (two words: intval, lower).
/// The pass calls it, instead of the CC buffers and the generic entry, for
/// a call whose LLVM function type is exactly [`DirectWrapper::ir_type`]
/// (any other, a K&R declaration say, goes the generic way, which checks
/// sizes). Wrappers never unwind, so there is no exception word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirectWrapper {
    /// The C name.
    pub name: &'static str,
    /// The LLVM type text of the C prototype on x86-64 (`ptr (i64)`).
    pub ir_type: &'static str,
    /// The register entry's symbol: `gimso.fn.NAME.direct`.
    pub symbol: &'static str,
}

/// Suffix of a wrapper's register entry: `gimso.fn.NAME.direct`.
pub const WRAPPER_DIRECT_SUFFIX: &str = ".direct";

/// The wrappers with register entries: the allocator and the string
/// functions real programs call most (Lua's allocator calls `realloc` and
/// `free` 1.9 million times each in `gc_heavy.lua`; SQLite's record
/// comparisons call `memcmp`), where the CC buffers cost more than the work.
pub const DIRECT_WRAPPERS: &[DirectWrapper] = &[
    DirectWrapper {
        name: "malloc",
        ir_type: "ptr (i64)",
        symbol: "gimso.fn.malloc.direct",
    },
    DirectWrapper {
        name: "calloc",
        ir_type: "ptr (i64, i64)",
        symbol: "gimso.fn.calloc.direct",
    },
    DirectWrapper {
        name: "realloc",
        ir_type: "ptr (ptr, i64)",
        symbol: "gimso.fn.realloc.direct",
    },
    DirectWrapper {
        name: "free",
        ir_type: "void (ptr)",
        symbol: "gimso.fn.free.direct",
    },
    DirectWrapper {
        name: "strlen",
        ir_type: "i64 (ptr)",
        symbol: "gimso.fn.strlen.direct",
    },
    DirectWrapper {
        name: "strcmp",
        ir_type: "i32 (ptr, ptr)",
        symbol: "gimso.fn.strcmp.direct",
    },
    DirectWrapper {
        name: "memcmp",
        ir_type: "i32 (ptr, ptr, i64)",
        symbol: "gimso.fn.memcmp.direct",
    },
    DirectWrapper {
        name: "strchr",
        ir_type: "ptr (ptr, i32)",
        symbol: "gimso.fn.strchr.direct",
    },
];

/// The C name of a compiled function's symbol (`gimso.fn.NAME` or
/// `gimso.fd.NAME.HASH`), or `None` for any other symbol.
pub fn compiled_function_name(symbol: &str) -> Option<&str> {
    if let Some(name) = symbol.strip_prefix(SYMBOL_FN_PREFIX) {
        return Some(name.strip_suffix(WRAPPER_DIRECT_SUFFIX).unwrap_or(name));
    }
    let rest = symbol.strip_prefix(SYMBOL_DIRECT_PREFIX)?;
    match rest.rsplit_once('.') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Some(name)
        }
        _ => Some(rest),
    }
}

/// Symbol of the capability object of global `NAME` (a variable or a
/// function): `gimso.obj.NAME` names the 16-byte header; the payload, and so
/// the capability's `lower`, starts 16 bytes later. For a variable the
/// payload is its storage; for a function it is one word, the entry address.
pub const SYMBOL_OBJ_PREFIX: &str = "gimso.obj.";

/// What a generic entry returns (in two registers): whether an exception is
/// unwinding (then `ret_bytes` is meaningless) and how many bytes of return
/// value the callee left in the CC buffers.
///
/// The entry's signature is
/// `EntryResult NAME(ThreadAbi *thread, usize callee_lower, u64 arg_bytes)`.
/// Arguments are in the CC buffers: the inline ones in the thread struct when
/// `arg_bytes <= CC_INLINE_BYTES`, else the outline ones. The return value is
/// at offset 0 of the inline buffers when `ret_bytes <= CC_INLINE_BYTES`,
/// else of the outline ones. In both buffers every capability word of
/// `[0, bytes)` that does not hold a pointer's capability is 0.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryResult {
    /// 1 while an exception unwinds through this return, else 0.
    pub has_exception: u64,
    /// Bytes of return value (a multiple of 8).
    pub ret_bytes: u64,
}

/// A compiled function's generic entry.
pub type EntryFn = unsafe extern "C" fn(
    thread: *mut ThreadAbi,
    callee_lower: usize,
    arg_bytes: u64,
) -> EntryResult;

/// Places a value of `size` bytes and ABI alignment `align` after `end`
/// bytes of CC buffer: returns `(offset, new_end)`. Each value starts on a
/// multiple of `max(8, align)` and takes its size rounded up to 8.
pub const fn cc_place(end: u64, size: u64, align: u64) -> (u64, u64) {
    let a = if align > 8 { align } else { 8 };
    let offset = end.div_ceil(a) * a;
    (offset, offset + size.div_ceil(8) * 8)
}

// ---------------------------------------------------------------------------
// Access kinds used by the out-of-line check-failure entry points.
// ---------------------------------------------------------------------------

/// The access reads.
pub const ACCESS_READ: u32 = 1;
/// The access writes.
pub const ACCESS_WRITE: u32 = 2;
/// The access requires natural alignment of its size (pointers, vectors).
pub const ACCESS_ALIGNED: u32 = 4;

// ---------------------------------------------------------------------------
// Thread struct: the prefix that compiled code reads at fixed offsets.
// ---------------------------------------------------------------------------

/// Bytes of argument (and return) payload passed inline in the thread's CC
/// buffers; larger calls spill to an outline buffer.
pub const CC_INLINE_BYTES: usize = 512;
/// Number of words in each inline CC buffer.
pub const CC_INLINE_WORDS: usize = CC_INLINE_BYTES / WORD_SIZE;

/// Thread state: running compiled code, must poll.
pub const THREAD_STATE_ENTERED: u64 = 1;
/// Thread state: in native code (blocking call); the collector acts for it.
pub const THREAD_STATE_EXITED: u64 = 2;
/// Mask of the entered/exited bits of the state word.
pub const THREAD_STATE_MODE_MASK: u64 = 3;
/// A soft handshake is pending: the next pollcheck must take the slow path.
pub const THREAD_REQUEST_HANDSHAKE: u64 = 1 << 8;
/// A stop (stop-the-world debugging mode, `fork`) is pending.
pub const THREAD_REQUEST_STOP: u64 = 1 << 9;
/// A signal is pending delivery at the next safepoint.
pub const THREAD_REQUEST_SIGNAL: u64 = 1 << 10;
/// The thread must wait for a collection at its next safepoint (heap
/// pacing, torture mode).
pub const THREAD_REQUEST_COLLECT: u64 = 1 << 11;
/// Any bit in this mask sends the pollcheck to its slow path.
pub const THREAD_REQUEST_MASK: u64 =
    THREAD_REQUEST_HANDSHAKE | THREAD_REQUEST_STOP | THREAD_REQUEST_SIGNAL | THREAD_REQUEST_COLLECT;

/// The part of a mutator thread's state that compiled code reads and writes
/// directly. The runtime's private thread state follows it in memory.
#[repr(C)]
#[derive(Debug)]
pub struct ThreadAbi {
    /// Mode and request bits (`THREAD_STATE_*`, `THREAD_REQUEST_*`).
    pub state: AtomicU64,
    /// Outline payload buffer for calls larger than `CC_INLINE_BYTES`, or null.
    pub cc_outline_payload: *mut u64,
    /// Outline capability buffer for calls larger than `CC_INLINE_BYTES`, or null.
    pub cc_outline_caps: *mut usize,
    /// Size in bytes of the outline buffers.
    pub cc_outline_bytes: u64,
    /// Inline argument/return payload words.
    pub cc_payload: [u64; CC_INLINE_WORDS],
    /// Inline argument/return capability words (`lower` or 0).
    pub cc_caps: [usize; CC_INLINE_WORDS],
    /// Innermost [`FrameRecord`] of the thread's unwindable frames, or null.
    pub unwind_frames: *mut FrameRecord,
}

/// What the unwinder knows of one frame (docs/architecture.md, "Exceptions and the unwinder"). A compiled function
/// with a personality keeps one on its native stack, linked from
/// [`ThreadAbi::unwind_frames`] while it runs; the runtime pushes a barrier
/// record (null personality) wherever it calls compiled code, so an
/// exception never unwinds into C library frames.
#[repr(C)]
#[derive(Debug)]
pub struct FrameRecord {
    /// The next outer record, or null.
    pub prev: *mut FrameRecord,
    /// The personality function (entry and capability); `lower == 0`
    /// marks a barrier.
    pub personality: FlightPtr,
    /// The LSDA of the call the frame is in (a [`GIMSO_EH_*`-format]
    /// landing-pad object), or null while the frame is in a plain call.
    ///
    /// [`GIMSO_EH_*`-format]: EH_CLAUSE_CATCH
    pub lsda: FlightPtr,
    /// 0 when linked; the runtime gives the record a thread-unique number
    /// when a `setjmp` in its frame needs one, so a `longjmp` can tell the
    /// frame from a later one at the same address.
    pub epoch: u64,
}

/// `FrameRecord::personality.intval` of a frame that has no personality
/// (it keeps a record for `setjmp`); its capability is null, as a
/// barrier's, but a barrier's intval is 0.
pub const FRAME_NO_PERSONALITY: usize = 1;

/// Offset of [`FrameRecord::prev`].
pub const FRAME_PREV_OFFSET: usize = offset_of!(FrameRecord, prev);
/// Offset of [`FrameRecord::personality`].
pub const FRAME_PERSONALITY_OFFSET: usize = offset_of!(FrameRecord, personality);
/// Offset of [`FrameRecord::lsda`].
pub const FRAME_LSDA_OFFSET: usize = offset_of!(FrameRecord, lsda);
/// Offset of [`FrameRecord::epoch`].
pub const FRAME_EPOCH_OFFSET: usize = offset_of!(FrameRecord, epoch);
/// Size of [`FrameRecord`].
pub const FRAME_RECORD_SIZE: usize = size_of::<FrameRecord>();

// ---------------------------------------------------------------------------
// Exceptions: the Itanium unwinder's codes and gimso's LSDA format.
// ---------------------------------------------------------------------------

/// `_Unwind_Reason_Code` values (Itanium C++ ABI, level I).
pub const URC_NO_REASON: u64 = 0;
/// `_URC_FOREIGN_EXCEPTION_CAUGHT`.
pub const URC_FOREIGN_EXCEPTION_CAUGHT: u64 = 1;
/// `_URC_FATAL_PHASE2_ERROR`.
pub const URC_FATAL_PHASE2_ERROR: u64 = 2;
/// `_URC_FATAL_PHASE1_ERROR`.
pub const URC_FATAL_PHASE1_ERROR: u64 = 3;
/// `_URC_NORMAL_STOP`.
pub const URC_NORMAL_STOP: u64 = 4;
/// `_URC_END_OF_STACK`.
pub const URC_END_OF_STACK: u64 = 5;
/// `_URC_HANDLER_FOUND`.
pub const URC_HANDLER_FOUND: u64 = 6;
/// `_URC_INSTALL_CONTEXT`.
pub const URC_INSTALL_CONTEXT: u64 = 7;
/// `_URC_CONTINUE_UNWIND`.
pub const URC_CONTINUE_UNWIND: u64 = 8;

/// `_UA_SEARCH_PHASE`.
pub const UA_SEARCH_PHASE: u64 = 1;
/// `_UA_CLEANUP_PHASE`.
pub const UA_CLEANUP_PHASE: u64 = 2;
/// `_UA_HANDLER_FRAME`.
pub const UA_HANDLER_FRAME: u64 = 4;
/// `_UA_FORCE_UNWIND`.
pub const UA_FORCE_UNWIND: u64 = 8;
/// `_UA_END_OF_STACK`.
pub const UA_END_OF_STACK: u64 = 16;

/// LSDA clause kind: `catch <type>` (a null type catches everything).
pub const EH_CLAUSE_CATCH: u64 = 0;
/// LSDA clause kind: `filter [types]` (an exception specification).
pub const EH_CLAUSE_FILTER: u64 = 1;
/// Offset of the cleanup flag in a landing-pad LSDA object.
pub const EH_LSDA_CLEANUP_OFFSET: usize = 0;
/// Offset of the clause count in a landing-pad LSDA object.
pub const EH_LSDA_NUM_CLAUSES_OFFSET: usize = 8;
/// Offset of the first clause in a landing-pad LSDA object.
pub const EH_LSDA_CLAUSES_OFFSET: usize = 16;
/// Bytes per clause: kind, selector, type count, pointer to the type array.
pub const EH_CLAUSE_SIZE: usize = 32;

/// Offset of the state word in [`ThreadAbi`].
pub const THREAD_STATE_OFFSET: usize = offset_of!(ThreadAbi, state);
/// Offset of the outline payload pointer in [`ThreadAbi`].
pub const THREAD_CC_OUTLINE_PAYLOAD_OFFSET: usize = offset_of!(ThreadAbi, cc_outline_payload);
/// Offset of the outline capability pointer in [`ThreadAbi`].
pub const THREAD_CC_OUTLINE_CAPS_OFFSET: usize = offset_of!(ThreadAbi, cc_outline_caps);
/// Offset of the outline buffer size in [`ThreadAbi`].
pub const THREAD_CC_OUTLINE_BYTES_OFFSET: usize = offset_of!(ThreadAbi, cc_outline_bytes);
/// Offset of the inline payload CC buffer in [`ThreadAbi`].
pub const THREAD_CC_PAYLOAD_OFFSET: usize = offset_of!(ThreadAbi, cc_payload);
/// Offset of the inline capability CC buffer in [`ThreadAbi`].
pub const THREAD_CC_CAPS_OFFSET: usize = offset_of!(ThreadAbi, cc_caps);
/// Offset of the innermost frame record in [`ThreadAbi`].
pub const THREAD_UNWIND_FRAMES_OFFSET: usize = offset_of!(ThreadAbi, unwind_frames);
/// Size of [`ThreadAbi`].
pub const THREAD_ABI_SIZE: usize = size_of::<ThreadAbi>();

/// Section that holds the fault maps of LLVM's implicit null checks in a
/// gimso program: where a header load that doubles as a null test may
/// fault, and where the code goes on when it does (the failure block). The
/// back end renames LLVM's `.llvm_faultmaps` to it (same length, renamed in
/// place) so that the linker gives the runtime `__start_`/`__stop_`
/// symbols for it, and makes it writable so that position-independent
/// links can relocate its absolute addresses.
pub const FAULT_MAP_SECTION: &str = "gimso_faultmaps";
/// The section LLVM writes the fault maps into.
pub const LLVM_FAULT_MAP_SECTION: &str = ".llvm_faultmaps";
const _: () = assert!(FAULT_MAP_SECTION.len() == LLVM_FAULT_MAP_SECTION.len());
/// Version byte that starts every fault map (LLVM's format version 1).
pub const FAULT_MAP_VERSION: u8 = 1;

/// Name of the exported byte that is non-zero while the collector marks;
/// the store barrier's fast path is one load of it and a branch.
pub const MARKING_FLAG_SYMBOL: &str = "gimso_gc_marking";

// ---------------------------------------------------------------------------
// Safety reports.
// ---------------------------------------------------------------------------

/// Exit status of a program stopped by a safety error (unless overridden
/// with `GIMSO_ERROR_EXIT_CODE`).
pub const SAFETY_EXIT_CODE: i32 = 134;
/// First words of every safety report line on stderr.
pub const SAFETY_REPORT_PREFIX: &str = "gimso: safety error:";
/// First words of a fatal runtime error (out of memory, bad configuration).
pub const FATAL_REPORT_PREFIX: &str = "gimso: fatal error:";

// ---------------------------------------------------------------------------
// Compile-time layout assertions.
// ---------------------------------------------------------------------------

const _: () = assert!(size_of::<ObjectHeader>() == HEADER_SIZE);
const _: () = assert!(HEADER_UPPER_OFFSET == 0 && HEADER_AUX_OFFSET == 8);
const _: () = assert!(size_of::<FlightPtr>() == 16);
const _: () = assert!(FRAME_RECORD_SIZE == 48 && FRAME_LSDA_OFFSET == 24);
const _: () = assert!(size_of::<CmpxchgResult>() == 24);
const _: () = assert!(size_of::<EntryResult>() == 16);
const _: () = assert!(ATOMIC_BOX_SIZE == 16);
const _: () = assert!(size_of::<SourceLocation>() == 24);
const _: () = assert!(THREAD_STATE_OFFSET == 0);
const _: () = assert!(THREAD_CC_PAYLOAD_OFFSET % 16 == 0);
const _: () = assert!(THREAD_REQUEST_MASK & THREAD_STATE_MODE_MASK == 0);
const _: () = assert!(
    (FLAG_FREE | FLAG_READONLY | FLAG_GLOBAL | FLAG_STACK | FLAG_PAD | FLAG_EXPOSED | FLAG_SHADOW)
        & (SPECIAL_MASK | BARRIER_EPOCH_MASK)
        == 0
);
const _: () = assert!(
    (FLAG_FREE
        | FLAG_READONLY
        | FLAG_GLOBAL
        | FLAG_STACK
        | FLAG_PAD
        | FLAG_EXPOSED
        | FLAG_SHADOW
        | SPECIAL_MASK
        | BARRIER_EPOCH_MASK)
        & !AUX_FLAGS_MASK
        == 0
);
const _: () = assert!(aux_delta(aux_with_delta(FLAG_GLOBAL, -4096)) == -4096);
const _: () = assert!(aux_shadow(aux_with_zero_delta(FLAG_GLOBAL, 4096), 1 << 20).is_none());
const _: () = assert!(SPECIAL_MASK & BARRIER_EPOCH_MASK == 0);
const _: () = assert!(BARRIER_EPOCH_MASK >> BARRIER_EPOCH_SHIFT == MAX_BARRIER_EPOCH as u64);
const _: () = assert!(MIN_ALIGN.is_power_of_two() && MAX_ALIGN.is_power_of_two());

/// Every constant and layout value that `include/gimso.h` must declare,
/// under its C name. The header test compares the two sets both ways.
pub const ABI_CONSTANTS: &[(&str, u64)] = &[
    ("GIMSO_ABI_VERSION", ABI_VERSION as u64),
    ("GIMSO_SITE_RELATIVE", SITE_RELATIVE as u64),
    ("GIMSO_WORD_SIZE", WORD_SIZE as u64),
    ("GIMSO_HEADER_SIZE", HEADER_SIZE as u64),
    ("GIMSO_MIN_ALIGN", MIN_ALIGN as u64),
    ("GIMSO_MAX_ALIGN", MAX_ALIGN as u64),
    ("GIMSO_MAX_OBJECT_SIZE", MAX_OBJECT_SIZE as u64),
    ("GIMSO_HEADER_UPPER_OFFSET", HEADER_UPPER_OFFSET as u64),
    ("GIMSO_HEADER_AUX_OFFSET", HEADER_AUX_OFFSET as u64),
    ("GIMSO_AUX_DELTA_SHIFT", AUX_DELTA_SHIFT as u64),
    ("GIMSO_AUX_FLAGS_MASK", AUX_FLAGS_MASK),
    ("GIMSO_FLAG_FREE", FLAG_FREE),
    ("GIMSO_FLAG_READONLY", FLAG_READONLY),
    ("GIMSO_FLAG_GLOBAL", FLAG_GLOBAL),
    ("GIMSO_FLAG_STACK", FLAG_STACK),
    ("GIMSO_FLAG_PAD", FLAG_PAD),
    ("GIMSO_FLAG_EXPOSED", FLAG_EXPOSED),
    ("GIMSO_FLAG_SHADOW", FLAG_SHADOW),
    ("GIMSO_SPECIAL_SHIFT", SPECIAL_SHIFT as u64),
    ("GIMSO_SPECIAL_MASK", SPECIAL_MASK),
    ("GIMSO_BARRIER_EPOCH_SHIFT", BARRIER_EPOCH_SHIFT as u64),
    ("GIMSO_BARRIER_EPOCH_MASK", BARRIER_EPOCH_MASK),
    ("GIMSO_SPECIAL_NONE", SpecialKind::None as u64),
    ("GIMSO_SPECIAL_FUNCTION", SpecialKind::Function as u64),
    ("GIMSO_SPECIAL_AUX", SpecialKind::Aux as u64),
    ("GIMSO_SPECIAL_ATOMIC_BOX", SpecialKind::AtomicBox as u64),
    ("GIMSO_SPECIAL_THREAD", SpecialKind::Thread as u64),
    ("GIMSO_SPECIAL_JMP_BUF", SpecialKind::JmpBuf as u64),
    ("GIMSO_SPECIAL_FILE", SpecialKind::File as u64),
    (
        "GIMSO_SPECIAL_UNWIND_CONTEXT",
        SpecialKind::UnwindContext as u64,
    ),
    ("GIMSO_SPECIAL_DIR", SpecialKind::Dir as u64),
    ("GIMSO_SHADOW_BOX_TAG", SHADOW_BOX_TAG as u64),
    ("GIMSO_FUNCTION_PAYLOAD_SIZE", FUNCTION_PAYLOAD_SIZE as u64),
    ("GIMSO_FUNCTION_BODY_OFFSET", FUNCTION_BODY_OFFSET as u64),
    (
        "GIMSO_FUNCTION_TYPE_HASH_OFFSET",
        FUNCTION_TYPE_HASH_OFFSET as u64,
    ),
    ("GIMSO_ATOMIC_BOX_SIZE", ATOMIC_BOX_SIZE as u64),
    ("GIMSO_ACCESS_READ", ACCESS_READ as u64),
    ("GIMSO_ACCESS_WRITE", ACCESS_WRITE as u64),
    ("GIMSO_ACCESS_ALIGNED", ACCESS_ALIGNED as u64),
    ("GIMSO_CC_INLINE_BYTES", CC_INLINE_BYTES as u64),
    ("GIMSO_CC_INLINE_WORDS", CC_INLINE_WORDS as u64),
    ("GIMSO_THREAD_STATE_ENTERED", THREAD_STATE_ENTERED),
    ("GIMSO_THREAD_STATE_EXITED", THREAD_STATE_EXITED),
    ("GIMSO_THREAD_STATE_MODE_MASK", THREAD_STATE_MODE_MASK),
    ("GIMSO_THREAD_REQUEST_HANDSHAKE", THREAD_REQUEST_HANDSHAKE),
    ("GIMSO_THREAD_REQUEST_STOP", THREAD_REQUEST_STOP),
    ("GIMSO_THREAD_REQUEST_SIGNAL", THREAD_REQUEST_SIGNAL),
    ("GIMSO_THREAD_REQUEST_COLLECT", THREAD_REQUEST_COLLECT),
    ("GIMSO_THREAD_REQUEST_MASK", THREAD_REQUEST_MASK),
    ("GIMSO_THREAD_STATE_OFFSET", THREAD_STATE_OFFSET as u64),
    (
        "GIMSO_THREAD_CC_OUTLINE_PAYLOAD_OFFSET",
        THREAD_CC_OUTLINE_PAYLOAD_OFFSET as u64,
    ),
    (
        "GIMSO_THREAD_CC_OUTLINE_CAPS_OFFSET",
        THREAD_CC_OUTLINE_CAPS_OFFSET as u64,
    ),
    (
        "GIMSO_THREAD_CC_OUTLINE_BYTES_OFFSET",
        THREAD_CC_OUTLINE_BYTES_OFFSET as u64,
    ),
    (
        "GIMSO_THREAD_CC_PAYLOAD_OFFSET",
        THREAD_CC_PAYLOAD_OFFSET as u64,
    ),
    ("GIMSO_THREAD_CC_CAPS_OFFSET", THREAD_CC_CAPS_OFFSET as u64),
    (
        "GIMSO_THREAD_UNWIND_FRAMES_OFFSET",
        THREAD_UNWIND_FRAMES_OFFSET as u64,
    ),
    ("GIMSO_THREAD_ABI_SIZE", THREAD_ABI_SIZE as u64),
    ("GIMSO_FRAME_PREV_OFFSET", FRAME_PREV_OFFSET as u64),
    (
        "GIMSO_FRAME_PERSONALITY_OFFSET",
        FRAME_PERSONALITY_OFFSET as u64,
    ),
    ("GIMSO_FRAME_LSDA_OFFSET", FRAME_LSDA_OFFSET as u64),
    ("GIMSO_FRAME_EPOCH_OFFSET", FRAME_EPOCH_OFFSET as u64),
    ("GIMSO_FRAME_RECORD_SIZE", FRAME_RECORD_SIZE as u64),
    ("GIMSO_FRAME_NO_PERSONALITY", FRAME_NO_PERSONALITY as u64),
    ("GIMSO_URC_NO_REASON", URC_NO_REASON),
    (
        "GIMSO_URC_FOREIGN_EXCEPTION_CAUGHT",
        URC_FOREIGN_EXCEPTION_CAUGHT,
    ),
    ("GIMSO_URC_FATAL_PHASE2_ERROR", URC_FATAL_PHASE2_ERROR),
    ("GIMSO_URC_FATAL_PHASE1_ERROR", URC_FATAL_PHASE1_ERROR),
    ("GIMSO_URC_NORMAL_STOP", URC_NORMAL_STOP),
    ("GIMSO_URC_END_OF_STACK", URC_END_OF_STACK),
    ("GIMSO_URC_HANDLER_FOUND", URC_HANDLER_FOUND),
    ("GIMSO_URC_INSTALL_CONTEXT", URC_INSTALL_CONTEXT),
    ("GIMSO_URC_CONTINUE_UNWIND", URC_CONTINUE_UNWIND),
    ("GIMSO_UA_SEARCH_PHASE", UA_SEARCH_PHASE),
    ("GIMSO_UA_CLEANUP_PHASE", UA_CLEANUP_PHASE),
    ("GIMSO_UA_HANDLER_FRAME", UA_HANDLER_FRAME),
    ("GIMSO_UA_FORCE_UNWIND", UA_FORCE_UNWIND),
    ("GIMSO_UA_END_OF_STACK", UA_END_OF_STACK),
    ("GIMSO_EH_CLAUSE_CATCH", EH_CLAUSE_CATCH),
    ("GIMSO_EH_CLAUSE_FILTER", EH_CLAUSE_FILTER),
    (
        "GIMSO_EH_LSDA_CLEANUP_OFFSET",
        EH_LSDA_CLEANUP_OFFSET as u64,
    ),
    (
        "GIMSO_EH_LSDA_NUM_CLAUSES_OFFSET",
        EH_LSDA_NUM_CLAUSES_OFFSET as u64,
    ),
    (
        "GIMSO_EH_LSDA_CLAUSES_OFFSET",
        EH_LSDA_CLAUSES_OFFSET as u64,
    ),
    ("GIMSO_EH_CLAUSE_SIZE", EH_CLAUSE_SIZE as u64),
    ("GIMSO_SAFETY_EXIT_CODE", SAFETY_EXIT_CODE as u64),
];

/// C struct layouts the header must match: `(struct, field, offset)`, with
/// `field == ""` meaning `sizeof(struct)`.
pub const ABI_LAYOUTS: &[(&str, &str, u64)] = &[
    ("gimso_object_header", "", HEADER_SIZE as u64),
    ("gimso_object_header", "upper", HEADER_UPPER_OFFSET as u64),
    ("gimso_object_header", "aux", HEADER_AUX_OFFSET as u64),
    ("gimso_ptr", "", size_of::<FlightPtr>() as u64),
    ("gimso_ptr", "intval", offset_of!(FlightPtr, intval) as u64),
    ("gimso_ptr", "lower", offset_of!(FlightPtr, lower) as u64),
    (
        "gimso_cmpxchg_result",
        "",
        size_of::<CmpxchgResult>() as u64,
    ),
    (
        "gimso_cmpxchg_result",
        "old",
        offset_of!(CmpxchgResult, old) as u64,
    ),
    (
        "gimso_cmpxchg_result",
        "success",
        offset_of!(CmpxchgResult, success) as u64,
    ),
    ("gimso_entry_result", "", size_of::<EntryResult>() as u64),
    (
        "gimso_entry_result",
        "has_exception",
        offset_of!(EntryResult, has_exception) as u64,
    ),
    (
        "gimso_entry_result",
        "ret_bytes",
        offset_of!(EntryResult, ret_bytes) as u64,
    ),
    ("gimso_atomic_box", "", ATOMIC_BOX_SIZE as u64),
    (
        "gimso_atomic_box",
        "intval",
        offset_of!(AtomicBoxPayload, intval) as u64,
    ),
    (
        "gimso_atomic_box",
        "lower",
        offset_of!(AtomicBoxPayload, lower) as u64,
    ),
    (
        "gimso_source_location",
        "",
        size_of::<SourceLocation>() as u64,
    ),
    (
        "gimso_source_location",
        "file",
        offset_of!(SourceLocation, file) as u64,
    ),
    (
        "gimso_source_location",
        "function",
        offset_of!(SourceLocation, function) as u64,
    ),
    (
        "gimso_source_location",
        "line",
        offset_of!(SourceLocation, line) as u64,
    ),
    (
        "gimso_source_location",
        "column",
        offset_of!(SourceLocation, column) as u64,
    ),
    ("gimso_thread_abi", "", THREAD_ABI_SIZE as u64),
    ("gimso_thread_abi", "state", THREAD_STATE_OFFSET as u64),
    (
        "gimso_thread_abi",
        "cc_outline_payload",
        THREAD_CC_OUTLINE_PAYLOAD_OFFSET as u64,
    ),
    (
        "gimso_thread_abi",
        "cc_outline_caps",
        THREAD_CC_OUTLINE_CAPS_OFFSET as u64,
    ),
    (
        "gimso_thread_abi",
        "cc_outline_bytes",
        THREAD_CC_OUTLINE_BYTES_OFFSET as u64,
    ),
    (
        "gimso_thread_abi",
        "cc_payload",
        THREAD_CC_PAYLOAD_OFFSET as u64,
    ),
    ("gimso_thread_abi", "cc_caps", THREAD_CC_CAPS_OFFSET as u64),
];
