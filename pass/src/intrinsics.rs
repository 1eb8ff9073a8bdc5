//! Which LLVM intrinsics a gimso module may call (spec "Intrinsics"): those
//! that touch no program memory pass; those that do are either translated
//! into checked operations (memory transfers, `va_*`, ...) or rejected.
//!
//! "Touches no program memory" is read from the declaration's LLVM 16
//! `memory(...)` attribute: no effects at all, or effects on memory the
//! program cannot address (`inaccessiblemem`), qualify.

use crate::llvm::{AttrAt, Func};

/// What the pass does with a call to an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntrinsicClass {
    /// No effect on program memory: kept as it is.
    NoMemory,
    /// The translation gives it a checked meaning: how, and why in words.
    Handled(Lowering, &'static str),
    /// Accesses memory with no checked form: a compile error.
    Rejected(&'static str),
}

/// How the translation lowers an intrinsic it handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lowering {
    /// `memcpy` / `memmove`: a checked copy that carries capabilities.
    MemTransfer,
    /// `memset`: a checked fill that nulls the capabilities it overwrites.
    MemSet,
    /// `va_start`: the `va_list` points into the read-only argument object.
    VaStart,
    /// `va_copy`: a checked copy of the 24-byte `va_list`.
    VaCopy,
    /// An optimisation hint or debug record: no code.
    Dropped,
    /// `stacksave`: a null token (stack objects are capability objects).
    NullToken,
    /// Its first operand, capability included (annotations, invariant-group
    /// barriers).
    FirstOperand,
    /// `objectsize`: "unknown" (0 for the minimum, all ones for the
    /// maximum); the accesses themselves are checked.
    ObjectSize,
    /// `ptrmask`: the masked address with the operand's capability.
    PtrMask,
    /// `threadlocal.address`: this thread's copy of the variable.
    ThreadLocal,
    /// `eh.typeid.for`: the type's index in the module's type table.
    TypeId,
    /// Masked vector loads and stores: the enabled lanes' span checked.
    Masked,
    /// `is.constant`: false.
    NotConstant,
    /// `frameaddress` / `returnaddress` at level 0: an address without a
    /// capability.
    FrameAddress,
    /// Kept as it is: it touches no program memory.
    Kept,
}

/// Intrinsics the translation handles, by name prefix (the first match
/// wins), with how.
const HANDLED: &[(&str, Lowering, &str)] = &[
    (
        "llvm.memcpy",
        Lowering::MemTransfer,
        "a memmove with the capability rules",
    ),
    (
        "llvm.memmove",
        Lowering::MemTransfer,
        "a memmove with the capability rules",
    ),
    (
        "llvm.memset",
        Lowering::MemSet,
        "a memset that nulls the capabilities it overwrites",
    ),
    ("llvm.va_start", Lowering::VaStart, VARARGS),
    ("llvm.va_copy", Lowering::VaCopy, VARARGS),
    ("llvm.va_end", Lowering::Dropped, VARARGS),
    ("llvm.lifetime.", Lowering::Dropped, HINT),
    (
        "llvm.dbg.",
        Lowering::Dropped,
        "a debug record, kept as metadata",
    ),
    ("llvm.invariant.", Lowering::Dropped, HINT),
    ("llvm.launder.invariant.group", Lowering::FirstOperand, HINT),
    ("llvm.strip.invariant.group", Lowering::FirstOperand, HINT),
    (
        "llvm.experimental.noalias.scope.decl",
        Lowering::Dropped,
        HINT,
    ),
    ("llvm.assume", Lowering::Dropped, HINT),
    ("llvm.prefetch", Lowering::Dropped, HINT),
    ("llvm.sideeffect", Lowering::Dropped, HINT),
    ("llvm.donothing", Lowering::Dropped, HINT),
    (
        "llvm.var.annotation",
        Lowering::Dropped,
        "an annotation, dropped",
    ),
    (
        "llvm.ptr.annotation",
        Lowering::FirstOperand,
        "an annotation, dropped",
    ),
    ("llvm.stacksave", Lowering::NullToken, STACK),
    ("llvm.stackrestore", Lowering::Dropped, STACK),
    (
        "llvm.threadlocal.address",
        Lowering::ThreadLocal,
        "thread-local variables are per-thread capability objects",
    ),
    (
        "llvm.objectsize",
        Lowering::ObjectSize,
        "unknown; the accesses are checked",
    ),
    ("llvm.is.constant", Lowering::NotConstant, "false"),
    (
        "llvm.ptrmask",
        Lowering::PtrMask,
        "pointer arithmetic that keeps the capability",
    ),
    ("llvm.returnaddress", Lowering::FrameAddress, NO_CAP),
    ("llvm.frameaddress", Lowering::FrameAddress, NO_CAP),
    (
        "llvm.addressofreturnaddress",
        Lowering::FrameAddress,
        NO_CAP,
    ),
    (
        "llvm.eh.typeid.for",
        Lowering::TypeId,
        "part of the Itanium exception support",
    ),
    ("llvm.masked.", Lowering::Masked, MASKED),
    ("llvm.x86.sse2.maskmov.dqu", Lowering::Masked, MASKED),
    ("llvm.x86.avx.maskload.", Lowering::Masked, MASKED),
    ("llvm.x86.avx2.maskload.", Lowering::Masked, MASKED),
    ("llvm.x86.avx.maskstore.", Lowering::Masked, MASKED),
    ("llvm.x86.avx2.maskstore.", Lowering::Masked, MASKED),
    (
        "llvm.x86.sse2.pause",
        Lowering::Kept,
        "a spin-wait hint that touches no memory",
    ),
    ("llvm.trap", Lowering::Kept, "stops the program"),
    ("llvm.debugtrap", Lowering::Kept, "stops the program"),
    ("llvm.ubsantrap", Lowering::Kept, "stops the program"),
];

const VARARGS: &str = "variadic arguments read from a read-only argument object";
const HINT: &str = "an optimisation hint, dropped";
const STACK: &str = "stack allocations are capability objects: a no-op";
const NO_CAP: &str = "an address without a capability (level 0 only)";
const MASKED: &str = "the span of the enabled lanes is checked, then the access runs";

/// Intrinsics rejected whatever their attributes say, with why.
const REJECTED: &[(&str, &str)] = &[
    ("llvm.coro.", "coroutine frames are raw memory"),
    (
        "llvm.masked.gather",
        "a gather reads through a vector of pointers, and gimso has no checked form of it yet",
    ),
    (
        "llvm.masked.scatter",
        "a scatter writes through a vector of pointers, and gimso has no checked form of it yet",
    ),
    (
        "llvm.vp.",
        "vector-predicated memory accesses have no checked form yet",
    ),
    (
        "llvm.experimental.vp.",
        "vector-predicated memory accesses have no checked form yet",
    ),
    (
        "llvm.matrix.column.major.",
        "matrix loads and stores have no checked form yet",
    ),
    (
        "llvm.experimental.gc.",
        "statepoints belong to another collector",
    ),
    ("llvm.gcroot", "statepoints belong to another collector"),
    ("llvm.gcread", "statepoints belong to another collector"),
    ("llvm.gcwrite", "statepoints belong to another collector"),
    ("llvm.clear_cache", "it operates on raw code memory"),
    // Clang -O2 with a PIC target machine turns switch tables of string
    // pointers into relative tables read with this; the optimiser runs
    // with a static one so that they stay tables of pointers.
    (
        "llvm.load.relative",
        "a relative table of addresses carries no capabilities",
    ),
    (
        "llvm.stackprotector",
        "stack objects are capability objects; the stack protector is not used",
    ),
    (
        "llvm.stackguard",
        "stack objects are capability objects; the stack protector is not used",
    ),
];

/// Bits of an LLVM 16 `MemoryEffects` value for inaccessible memory
/// (2 bits per location: argmem, inaccessiblemem, other).
const INACCESSIBLE_MEM: u64 = 0b11 << 2;

/// The class of the function `callee` if it is an intrinsic, else `None`.
pub fn classify(callee: Func<'_>) -> Option<IntrinsicClass> {
    // The name up to its first NUL, and only if that is UTF-8: no
    // intrinsic has any other.
    let bytes = callee.name_bytes();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let name = std::str::from_utf8(&bytes[..end]).ok()?;
    if !name.starts_with("llvm.") {
        return None;
    }
    if let Some((_, why)) = REJECTED.iter().find(|(p, _)| name.starts_with(p)) {
        return Some(IntrinsicClass::Rejected(why));
    }
    if let Some(&(_, lowering, how)) = HANDLED.iter().find(|(p, ..)| name.starts_with(p)) {
        return Some(IntrinsicClass::Handled(lowering, how));
    }
    let effects = callee
        .attr(AttrAt::Function, "memory")
        .and_then(|a| a.enum_value());
    Some(match effects {
        Some(bits) if bits & !INACCESSIBLE_MEM == 0 => IntrinsicClass::NoMemory,
        // `llvm.dbg.*` and other metadata-only intrinsics carry no memory
        // attribute in some producers; their operands are metadata.
        _ if name.starts_with("llvm.dbg.") => IntrinsicClass::NoMemory,
        _ => IntrinsicClass::Rejected("it accesses memory and gimso has no checked form of it yet"),
    })
}
