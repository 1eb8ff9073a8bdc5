//! Which LLVM intrinsics a gimso module may call (spec "Intrinsics"): those
//! that touch no program memory pass; those that do are either translated
//! into checked operations (memory transfers, `va_*`, ...) or rejected.
//!
//! "Touches no program memory" is read from the declaration's LLVM 16
//! `memory(...)` attribute: no effects at all, or effects on memory the
//! program cannot address (`inaccessiblemem`), qualify.

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::values::FunctionValue;

/// What the pass does with a call to an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntrinsicClass {
    /// No effect on program memory: kept as it is.
    NoMemory,
    /// Accesses memory, and the translation gives it a checked meaning.
    Handled(&'static str),
    /// Accesses memory with no checked form: a compile error.
    Rejected(&'static str),
}

/// Intrinsics the translation handles, by name prefix, with how.
const HANDLED: &[(&str, &str)] = &[
    ("llvm.memcpy", "a memmove with the capability rules"),
    ("llvm.memmove", "a memmove with the capability rules"),
    (
        "llvm.memset",
        "a memset that nulls the capabilities it overwrites",
    ),
    (
        "llvm.va_start",
        "variadic arguments read from a read-only argument object",
    ),
    (
        "llvm.va_copy",
        "variadic arguments read from a read-only argument object",
    ),
    (
        "llvm.va_end",
        "variadic arguments read from a read-only argument object",
    ),
    ("llvm.lifetime.", "an optimisation hint, dropped"),
    ("llvm.invariant.", "an optimisation hint, dropped"),
    (
        "llvm.launder.invariant.group",
        "an optimisation hint, dropped",
    ),
    (
        "llvm.strip.invariant.group",
        "an optimisation hint, dropped",
    ),
    (
        "llvm.experimental.noalias.scope.decl",
        "an optimisation hint, dropped",
    ),
    ("llvm.assume", "an optimisation hint, dropped"),
    ("llvm.prefetch", "an optimisation hint, dropped"),
    (
        "llvm.stacksave",
        "stack allocations are capability objects: a no-op",
    ),
    (
        "llvm.stackrestore",
        "stack allocations are capability objects: a no-op",
    ),
    (
        "llvm.threadlocal.address",
        "thread-local variables are per-thread capability objects",
    ),
    ("llvm.objectsize", "answered from the capability's bounds"),
    (
        "llvm.ptrmask",
        "pointer arithmetic that keeps the capability",
    ),
    ("llvm.returnaddress", "a pointer without a capability"),
    ("llvm.frameaddress", "a pointer without a capability"),
    (
        "llvm.addressofreturnaddress",
        "a pointer without a capability",
    ),
    (
        "llvm.stackprotector",
        "stack objects are capability objects: dropped",
    ),
    (
        "llvm.stackguard",
        "stack objects are capability objects: dropped",
    ),
    ("llvm.eh.", "part of the Itanium exception support"),
    // Clang -O2 turns switch tables of string pointers into relative tables
    // read with this: the result points at another global than the table,
    // so the translation must resolve it to that global's capability (or
    // the driver must keep such tables as tables of pointers).
    (
        "llvm.load.relative",
        "resolved to the capability of the global it points at",
    ),
    (
        "llvm.masked.",
        "the span of the enabled lanes is checked, then the access runs",
    ),
    (
        "llvm.x86.sse2.maskmov.dqu",
        "the span of the enabled lanes is checked, then the access runs",
    ),
    (
        "llvm.x86.avx.maskload.",
        "the span of the enabled lanes is checked, then the access runs",
    ),
    (
        "llvm.x86.avx2.maskload.",
        "the span of the enabled lanes is checked, then the access runs",
    ),
    (
        "llvm.x86.avx.maskstore.",
        "the span of the enabled lanes is checked, then the access runs",
    ),
    (
        "llvm.x86.avx2.maskstore.",
        "the span of the enabled lanes is checked, then the access runs",
    ),
    ("llvm.trap", "stops the program"),
    ("llvm.debugtrap", "stops the program"),
    ("llvm.ubsantrap", "stops the program"),
];

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
];

/// Bits of an LLVM 16 `MemoryEffects` value for inaccessible memory
/// (2 bits per location: argmem, inaccessiblemem, other).
const INACCESSIBLE_MEM: u64 = 0b11 << 2;

/// The class of the function `callee` if it is an intrinsic, else `None`.
pub fn classify(callee: FunctionValue<'_>) -> Option<IntrinsicClass> {
    let name = callee.get_name().to_str().ok()?;
    if !name.starts_with("llvm.") {
        return None;
    }
    if let Some((_, why)) = REJECTED.iter().find(|(p, _)| name.starts_with(p)) {
        return Some(IntrinsicClass::Rejected(why));
    }
    if let Some((_, how)) = HANDLED.iter().find(|(p, _)| name.starts_with(p)) {
        return Some(IntrinsicClass::Handled(how));
    }
    let kind = Attribute::get_named_enum_kind_id("memory");
    let effects = callee
        .get_enum_attribute(AttributeLoc::Function, kind)
        .map(|a| a.get_enum_value());
    Some(match effects {
        Some(bits) if bits & !INACCESSIBLE_MEM == 0 => IntrinsicClass::NoMemory,
        // `llvm.dbg.*` and other metadata-only intrinsics carry no memory
        // attribute in some producers; their operands are metadata.
        _ if name.starts_with("llvm.dbg.") => IntrinsicClass::NoMemory,
        _ => IntrinsicClass::Rejected("it accesses memory and gimso has no checked form of it yet"),
    })
}
