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
//!
//! Not yet: `undef`/`poison` nested inside constant aggregates and constant
//! expressions (a later step rewrites constants wholesale when globals
//! become capability objects).

use inkwell::llvm_sys::core::{
    LLVMDeleteBasicBlock, LLVMGetPoison, LLVMInstructionEraseFromParent, LLVMIsPoison, LLVMIsUndef,
    LLVMReplaceAllUsesWith, LLVMSetInitializer, LLVMTypeOf,
};
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

/// Prepares `module` in place (see the module documentation).
pub fn prepare(module: &Module<'_>) -> PrepareStats {
    let mut stats = PrepareStats::default();
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
        for block in f.get_basic_block_iter() {
            for inst in block.get_instructions() {
                for i in 0..inst.get_num_operands() {
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
