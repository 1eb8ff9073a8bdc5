//! The first rewrite of the pass (spec "Constants And Linking"): take away
//! what lets the optimiser after the pass assume things gimso does not
//! promise.
//!
//! - ODR linkages lose their "one definition" promise (`linkonce_odr` →
//!   `linkonce`, `weak_odr` → `weak`): another module may define the symbol
//!   differently, and gimso checks every use rather than trusting it.
//! - `available_externally` definitions become plain external declarations:
//!   the linked definition is the one that runs.
//! - `undef` and `poison` operands of instructions, and wholly `undef` or
//!   `poison` global initialisers, become zero of their type: there is no
//!   uninitialised data under gimso.
//! - UB flags go (spec "Math", "Gep"): `nsw`/`nuw`/`exact` arithmetic is
//!   rebuilt without them, `getelementptr` loses `inbounds`, and loads lose
//!   the `!nonnull`, `!range`, `!align`, `!dereferenceable(_or_null)` and
//!   `!noundef` promises; `freeze x` becomes `x` (nothing is undef anymore).
//! - A word moved through memory as a `double` (a union clang types as
//!   `{ double }`) is moved as an `i64`, which carries its capability
//!   (the `int_words` module).
//! - Small structs passed `byval` are passed as their words (the `byval`
//!   module), so their functions get direct entries.
//! - A thread-local variable named directly by an instruction is reached
//!   through `llvm.threadlocal.address` (the `thread_locals` module).
//! - A field extracted from an aggregate built of `select`s and
//!   `insertvalue`s of known parts (a C++ member-function pointer chosen
//!   at run time) is that part, or a `select` of the parts (the
//!   `aggregate_fields` module), which the `inttoptr` inference follows.
//!
//! Not yet: `undef`/`poison` and UB flags nested inside constant aggregates
//! and constant expressions (a later step rewrites constants wholesale when
//! globals become capability objects), and fast-math flags (LLVM 16's C API
//! cannot clear them).

use inkwell::module::Module;

use crate::llvm::{Func, Linkage, Ll, Opcode, Value};

/// What [`prepare`] changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrepareStats {
    /// Functions and globals whose ODR linkage was dropped.
    pub odr_dropped: usize,
    /// `available_externally` definitions turned into declarations.
    pub externalized: usize,
    /// `undef`/`poison` operands and initialisers replaced by zero.
    pub undef_zeroed: usize,
    /// Arithmetic rebuilt without UB flags (all of it: LLVM 16 cannot read
    /// the flags), GEPs and loads stripped of promises, `freeze`s removed.
    pub ub_dropped: usize,
    /// Words moved as `double`s turned into `i64` loads and stores (see
    /// the `int_words` module).
    pub words_as_integers: usize,
    /// Small `byval` parameters and call sites passed as words instead
    /// (see the `byval` module).
    pub byval_as_words: usize,
}

fn weaker(linkage: Linkage) -> Option<Linkage> {
    match linkage {
        Linkage::LLVMLinkOnceODRLinkage => Some(Linkage::LLVMLinkOnceAnyLinkage),
        Linkage::LLVMWeakODRLinkage => Some(Linkage::LLVMWeakAnyLinkage),
        _ => None,
    }
}

fn is_undef_or_poison(v: Value<'_>) -> bool {
    v.is_undef() || v.is_poison()
}

fn prepare_global<'m>(ll: &Ll<'m>, g: Value<'m>, stats: &mut PrepareStats) {
    if let Some(l) = weaker(g.linkage()) {
        g.set_linkage(l);
        stats.odr_dropped += 1;
    }
    if g.linkage() == Linkage::LLVMAvailableExternallyLinkage {
        // A null initialiser turns a global definition into a declaration.
        g.set_initializer(None);
        g.set_linkage(Linkage::LLVMExternalLinkage);
        stats.externalized += 1;
        return;
    }
    if let Some(init) = g.initializer() {
        if is_undef_or_poison(init) {
            g.set_initializer(Some(ll.zero(init.type_of())));
            stats.undef_zeroed += 1;
        }
    }
}

/// Turns a function definition into a declaration (LLVM's `deleteBody`,
/// which the C API lacks): first every instruction loses its uses and is
/// erased, so no block is still referenced when the blocks go.
fn delete_body<'m>(ll: &Ll<'m>, f: Func<'m>) {
    let blocks = f.blocks();
    for block in &blocks {
        for inst in block.instructions().into_iter().rev() {
            inst.replace_all_uses_with(ll.poison(inst.type_of()));
            // SAFETY: its uses were just replaced by a poison constant of
            // the same type, and `inst` is not used again.
            unsafe { inst.erase() };
        }
    }
    for block in blocks {
        // SAFETY: the block is empty and, with every terminator erased
        // above, unreferenced; it is not used again.
        unsafe { block.delete() };
    }
}

/// Metadata kinds on loads that promise facts gimso does not check.
const PROMISES: &[&str] = &[
    "nonnull",
    "range",
    "align",
    "dereferenceable",
    "dereferenceable_or_null",
    "noundef",
];

/// Drops UB flags, load promises and `freeze` from `f`; returns how many
/// instructions changed.
fn drop_ub<'m>(ll: &Ll<'m>, f: Func<'m>) -> usize {
    use Opcode::*;
    let mut changed = 0;
    if f.entry_block().is_none() {
        return 0;
    }
    let kinds: Vec<u32> = PROMISES.iter().map(|k| ll.md_kind(k)).collect();
    for block in f.blocks() {
        for inst in block.instructions() {
            match inst.opcode() {
                op @ (LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMUDiv | LLVMSDiv | LLVMLShr
                | LLVMAShr) => {
                    ll.position_before(inst);
                    let plain = ll.binop(op, inst.operand(0), inst.operand(1));
                    // Constant operands fold to a constant, which has no
                    // location to carry.
                    if plain.is_instruction() {
                        plain.set_debug_loc(inst.debug_loc());
                    }
                    inst.replace_all_uses_with(plain);
                    // SAFETY: its uses now take `plain`, and the walk moves
                    // past it.
                    unsafe { inst.erase() };
                    changed += 1;
                }
                LLVMGetElementPtr if inst.is_inbounds() => {
                    inst.set_inbounds(false);
                    changed += 1;
                }
                LLVMFreeze => {
                    inst.replace_all_uses_with(inst.operand(0));
                    // SAFETY: its uses now take its operand, and the walk
                    // moves past it.
                    unsafe { inst.erase() };
                    changed += 1;
                }
                LLVMLoad => {
                    let mut any = false;
                    for &k in &kinds {
                        if inst.metadata(k).is_some() {
                            inst.set_metadata(k, None);
                            any = true;
                        }
                    }
                    changed += usize::from(any);
                }
                _ => {}
            }
        }
    }
    changed
}

/// Prepares `module` in place (see the module documentation).
pub fn prepare(module: &Module<'_>) -> PrepareStats {
    crate::kept_locals::remove(module);
    let mut stats = PrepareStats {
        byval_as_words: crate::byval::scalarize(module),
        ..PrepareStats::default()
    };
    let ll = Ll::new(module);
    for g in ll.globals() {
        prepare_global(&ll, g, &mut stats);
    }
    for f in ll.functions() {
        prepare_function(&ll, f, &mut stats);
    }
    stats
}

fn prepare_function<'m>(ll: &Ll<'m>, func: Func<'m>, stats: &mut PrepareStats) {
    if let Some(l) = weaker(func.linkage()) {
        func.set_linkage(l);
        stats.odr_dropped += 1;
    }
    if func.linkage() == Linkage::LLVMAvailableExternallyLinkage {
        delete_body(ll, func);
        func.set_linkage(Linkage::LLVMExternalLinkage);
        stats.externalized += 1;
        return;
    }
    stats.ub_dropped += drop_ub(ll, func);
    crate::thread_locals::explicit_addresses(ll, func);
    crate::aggregate_fields::resolve(ll, func);
    stats.words_as_integers += crate::int_words::integer_stores(func);
    stats.words_as_integers += crate::int_words::integer_webs(ll, func);
    stats.words_as_integers += crate::int_words::integer_copies(ll, func);
    stats.words_as_integers += crate::int_words::scalar_word_stores(ll, func);
    for inst in func.instructions() {
        for i in 0..inst.num_operands() {
            if !inst.operand_is_value(i) {
                continue;
            }
            let Some(op) = inst.get_operand(i) else {
                continue;
            };
            if is_undef_or_poison(op) {
                inst.set_operand(i, ll.zero(op.type_of()));
                stats.undef_zeroed += 1;
            }
        }
    }
}
