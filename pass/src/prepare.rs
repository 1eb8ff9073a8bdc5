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
//!
//! Not yet: `undef`/`poison` and UB flags nested inside constant aggregates
//! and constant expressions (a later step rewrites constants wholesale when
//! globals become capability objects), and fast-math flags (LLVM 16's C API
//! cannot clear them).

use inkwell::context::AsContextRef;
use inkwell::llvm_sys::core::{
    LLVMBuildBinOp, LLVMCreateBuilderInContext, LLVMDeleteBasicBlock, LLVMDisposeBuilder,
    LLVMGetInstructionOpcode, LLVMGetMDKindIDInContext, LLVMGetMetadata, LLVMGetOperand,
    LLVMGetPoison, LLVMInstructionEraseFromParent, LLVMIsAInstruction, LLVMIsInBounds,
    LLVMIsPoison, LLVMIsUndef, LLVMPositionBuilderBefore, LLVMReplaceAllUsesWith,
    LLVMSetInitializer, LLVMSetIsInBounds, LLVMSetMetadata, LLVMTypeOf,
};
use inkwell::llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
use inkwell::module::{Linkage, Module};
use inkwell::types::BasicTypeEnum;
use inkwell::values::{AsValueRef, BasicValueEnum, FunctionValue, GlobalValue};

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
        Linkage::LinkOnceODR => Some(Linkage::LinkOnceAny),
        Linkage::WeakODR => Some(Linkage::WeakAny),
        _ => None,
    }
}

fn is_undef_or_poison(v: BasicValueEnum<'_>) -> bool {
    let raw = v.as_value_ref();
    // SAFETY: `raw` is a live value of the module being prepared.
    unsafe { LLVMIsUndef(raw) != 0 || LLVMIsPoison(raw) != 0 }
}

fn zero_of(ty: BasicTypeEnum<'_>) -> BasicValueEnum<'_> {
    match ty {
        BasicTypeEnum::ArrayType(t) => t.const_zero().into(),
        BasicTypeEnum::FloatType(t) => t.const_zero().into(),
        BasicTypeEnum::IntType(t) => t.const_zero().into(),
        BasicTypeEnum::PointerType(t) => t.const_zero().into(),
        BasicTypeEnum::StructType(t) => t.const_zero().into(),
        BasicTypeEnum::VectorType(t) => t.const_zero().into(),
        BasicTypeEnum::ScalableVectorType(t) => t.const_zero().into(),
    }
}

fn prepare_global(g: GlobalValue<'_>, stats: &mut PrepareStats) {
    if let Some(l) = weaker(g.get_linkage()) {
        g.set_linkage(l);
        stats.odr_dropped += 1;
    }
    if g.get_linkage() == Linkage::AvailableExternally {
        // SAFETY: a null initialiser turns a global definition into a
        // declaration; `g` is a live global of the module.
        unsafe { LLVMSetInitializer(g.as_value_ref(), core::ptr::null_mut()) };
        g.set_linkage(Linkage::External);
        stats.externalized += 1;
        return;
    }
    if let Some(init) = g.get_initializer() {
        if is_undef_or_poison(init) {
            g.set_initializer(&zero_of(init.get_type()));
            stats.undef_zeroed += 1;
        }
    }
}

/// Turns a function definition into a declaration (LLVM's `deleteBody`,
/// which the C API lacks): first every instruction loses its uses and is
/// erased, so no block is still referenced when the blocks go.
fn delete_body(f: FunctionValue<'_>) {
    let blocks = f.get_basic_blocks();
    for block in &blocks {
        let insts: Vec<_> = block.get_instructions().collect();
        for inst in insts.into_iter().rev() {
            let raw = inst.as_value_ref();
            // SAFETY: `raw` is a live instruction of `f`; its uses are
            // replaced by a poison constant of the same type before it is
            // erased, so nothing refers to it afterwards.
            unsafe {
                LLVMReplaceAllUsesWith(raw, LLVMGetPoison(LLVMTypeOf(raw)));
                LLVMInstructionEraseFromParent(raw);
            }
        }
    }
    for block in blocks {
        // SAFETY: the block is empty and, with every terminator erased above,
        // unreferenced.
        unsafe { LLVMDeleteBasicBlock(block.as_mut_ptr()) };
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
fn drop_ub(f: FunctionValue<'_>) -> usize {
    use inkwell::llvm_sys::LLVMOpcode::*;
    let mut changed = 0;
    let Some(first) = f.get_first_basic_block() else {
        return 0;
    };
    let ctx = first.get_context();
    let ctx_raw = ctx.as_ctx_ref();
    let kinds: Vec<u32> = PROMISES
        .iter()
        .map(|k| {
            // SAFETY: `k` is a valid UTF-8 name with the given length.
            unsafe { LLVMGetMDKindIDInContext(ctx_raw, k.as_ptr().cast(), k.len() as u32) }
        })
        .collect();
    // SAFETY: the builder is created in the function's context and disposed
    // below; every instruction touched is live until it is erased, and an
    // erased instruction is never used again (uses were replaced first).
    unsafe {
        let builder = LLVMCreateBuilderInContext(ctx_raw);
        for block in f.get_basic_blocks() {
            let insts: Vec<_> = block.get_instructions().map(|i| i.as_value_ref()).collect();
            for raw in insts {
                match LLVMGetInstructionOpcode(raw) {
                    op @ (LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMUDiv | LLVMSDiv
                    | LLVMLShr | LLVMAShr) => {
                        LLVMPositionBuilderBefore(builder, raw);
                        let plain = LLVMBuildBinOp(
                            builder,
                            op,
                            LLVMGetOperand(raw, 0),
                            LLVMGetOperand(raw, 1),
                            c"".as_ptr(),
                        );
                        // Constant operands fold to a constant, which has no
                        // location to carry.
                        if !LLVMIsAInstruction(plain).is_null() {
                            LLVMInstructionSetDebugLoc(plain, LLVMInstructionGetDebugLoc(raw));
                        }
                        LLVMReplaceAllUsesWith(raw, plain);
                        LLVMInstructionEraseFromParent(raw);
                        changed += 1;
                    }
                    LLVMGetElementPtr if LLVMIsInBounds(raw) != 0 => {
                        LLVMSetIsInBounds(raw, 0);
                        changed += 1;
                    }
                    LLVMFreeze => {
                        LLVMReplaceAllUsesWith(raw, LLVMGetOperand(raw, 0));
                        LLVMInstructionEraseFromParent(raw);
                        changed += 1;
                    }
                    LLVMLoad => {
                        let mut any = false;
                        for &k in &kinds {
                            if !LLVMGetMetadata(raw, k).is_null() {
                                LLVMSetMetadata(raw, k, core::ptr::null_mut());
                                any = true;
                            }
                        }
                        changed += usize::from(any);
                    }
                    _ => {}
                }
            }
        }
        LLVMDisposeBuilder(builder);
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
    for g in module.get_globals() {
        prepare_global(g, &mut stats);
    }
    for f in module.get_functions() {
        if let Some(l) = weaker(f.get_linkage()) {
            f.set_linkage(l);
            stats.odr_dropped += 1;
        }
        if f.get_linkage() == Linkage::AvailableExternally {
            delete_body(f);
            f.set_linkage(Linkage::External);
            stats.externalized += 1;
            continue;
        }
        stats.ub_dropped += drop_ub(f);
        stats.words_as_integers += crate::int_words::integer_stores(f);
        stats.words_as_integers += crate::int_words::integer_webs(f);
        stats.words_as_integers += crate::int_words::integer_copies(f);
        stats.words_as_integers += crate::int_words::scalar_word_stores(f);
        for block in f.get_basic_block_iter() {
            for inst in block.get_instructions() {
                for i in 0..inst.get_num_operands() {
                    if !crate::ir::operand_is_value(inst, i) {
                        continue;
                    }
                    let Some(op) = inst.get_operand(i).and_then(|o| o.value()) else {
                        continue;
                    };
                    if is_undef_or_poison(op) && inst.set_operand(i, zero_of(op.get_type())) {
                        stats.undef_zeroed += 1;
                    }
                }
            }
        }
    }
    stats
}
