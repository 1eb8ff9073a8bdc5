//! Words moved as floating-point values become integer accesses.
//!
//! clang types `union { int32_t i; double d; void *p; }` as `{ double }`
//! and passes it as an `i64`. Without instcombine (`-O0`, where the driver
//! runs only SROA and mem2reg), a pointer stored in such a union is read
//! back as `load double` + `bitcast double to i64`, and a union parameter
//! is put back with `bitcast i64 to double` + `store double`. A `double`
//! carries no capability, so the pointer would lose its own on the way.
//!
//! Here, as instcombine does at `-O1` and up:
//! - a non-atomic `load` of a 64-bit non-integer scalar whose every use is
//!   a `bitcast` to `i64` becomes a `load i64`;
//! - a non-atomic `store` of `bitcast i64 %x to T` stores `%x` itself.
//!
//! The bytes moved are the same; the word now travels as an integer, which
//! carries its capability (see the `inttoptr` module).

use inkwell::context::AsContextRef;
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::llvm_sys::core::{
    LLVMBuildLoad2, LLVMCreateBuilderInContext, LLVMDisposeBuilder, LLVMGetAlignment,
    LLVMGetFirstUse, LLVMGetInstructionOpcode, LLVMGetNextUse, LLVMGetOperand, LLVMGetOrdering,
    LLVMGetTypeKind, LLVMGetUser, LLVMGetVolatile, LLVMInstructionEraseFromParent,
    LLVMInt64TypeInContext, LLVMIsAInstruction, LLVMPositionBuilderBefore, LLVMReplaceAllUsesWith,
    LLVMSetAlignment, LLVMSetOperand, LLVMSetVolatile, LLVMTypeOf,
};
use inkwell::llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
use inkwell::llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMTypeKind};
use inkwell::values::{AsValueRef, FunctionValue};

/// Rewrites the word accesses of `f` (see the module documentation);
/// returns how many loads and stores changed.
pub fn integer_words(f: FunctionValue<'_>) -> usize {
    let Some(first) = f.get_first_basic_block() else {
        return 0;
    };
    let ctx = first.get_context().as_ctx_ref();
    let mut changed = 0;
    // SAFETY: every instruction touched is live in `f` until erased, and
    // an erased one is never used again (its uses were replaced first);
    // the builder is made in `f`'s context and disposed below.
    unsafe {
        let i64_ty = LLVMInt64TypeInContext(ctx);
        let builder = LLVMCreateBuilderInContext(ctx);
        for block in f.get_basic_blocks() {
            let insts: Vec<_> = block.get_instructions().map(|i| i.as_value_ref()).collect();
            for raw in insts {
                match LLVMGetInstructionOpcode(raw) {
                    LLVMOpcode::LLVMLoad if plain(raw) && float_word(LLVMTypeOf(raw)) => {
                        let Some(casts) = casts_to(raw, i64_ty) else {
                            continue;
                        };
                        LLVMPositionBuilderBefore(builder, raw);
                        let load =
                            LLVMBuildLoad2(builder, i64_ty, LLVMGetOperand(raw, 0), c"".as_ptr());
                        LLVMSetAlignment(load, LLVMGetAlignment(raw));
                        LLVMSetVolatile(load, LLVMGetVolatile(raw));
                        LLVMInstructionSetDebugLoc(load, LLVMInstructionGetDebugLoc(raw));
                        for c in casts {
                            LLVMReplaceAllUsesWith(c, load);
                            LLVMInstructionEraseFromParent(c);
                        }
                        LLVMInstructionEraseFromParent(raw);
                        changed += 1;
                    }
                    LLVMOpcode::LLVMStore if plain(raw) => {
                        let v = LLVMGetOperand(raw, 0);
                        if LLVMIsAInstruction(v).is_null()
                            || LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMBitCast
                            || !float_word(LLVMTypeOf(v))
                        {
                            continue;
                        }
                        let src = LLVMGetOperand(v, 0);
                        if LLVMTypeOf(src) != i64_ty {
                            continue;
                        }
                        LLVMSetOperand(raw, 0, src);
                        changed += 1;
                    }
                    _ => {}
                }
            }
        }
        LLVMDisposeBuilder(builder);
    }
    changed
}

/// Whether load or store `inst` is not atomic.
///
/// # Safety
/// `inst` is a live load or store.
unsafe fn plain(inst: LLVMValueRef) -> bool {
    // SAFETY: as the caller promises.
    unsafe { LLVMGetOrdering(inst) == LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic }
}

/// Whether `ty` is a 64-bit floating-point scalar (what clang gives a union
/// whose widest member is a `double`).
///
/// # Safety
/// `ty` is a live type.
unsafe fn float_word(ty: LLVMTypeRef) -> bool {
    // SAFETY: as the caller promises.
    unsafe { LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMDoubleTypeKind }
}

/// The users of `v` if every one is a `bitcast` of it to `to` (and there
/// is at least one).
///
/// # Safety
/// `v` is a live instruction.
unsafe fn casts_to(v: LLVMValueRef, to: LLVMTypeRef) -> Option<Vec<LLVMValueRef>> {
    let mut out = Vec::new();
    // SAFETY: `v` is live; its use list and users are live.
    unsafe {
        let mut u = LLVMGetFirstUse(v);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            if LLVMIsAInstruction(user).is_null()
                || LLVMGetInstructionOpcode(user) != LLVMOpcode::LLVMBitCast
                || LLVMTypeOf(user) != to
            {
                return None;
            }
            out.push(user);
            u = LLVMGetNextUse(u);
        }
    }
    (!out.is_empty()).then_some(out)
}
