//! Words moved as floating-point values or vector lanes become integer
//! accesses.
//!
//! clang types `union { int32_t i; double d; void *p; }` as `{ double }`
//! and passes it as an `i64`. Without instcombine (`-O0`, where the driver
//! runs only SROA and mem2reg), a pointer stored in such a union is read
//! back as `load double` + `bitcast double to i64`, and a union parameter
//! is put back with `bitcast i64 to double` + `store double`. A `double`
//! carries no capability, so the pointer would lose its own on the way.
//!
//! Here:
//! - a non-atomic `store` of `bitcast i64 %x to double` stores `%x` itself
//!   ([`integer_stores`]);
//! - every web of non-atomic `double` loads, phis and selects that reaches
//!   a `bitcast` to `i64` is rebuilt as `i64`s, with a cast back for a use
//!   that needs the `double` ([`integer_webs`]): at `-O0` a lone load cast
//!   to `i64`, at `-O2` SROA's `double` loads merged by phis and selects,
//!   cast only where the pointer is used;
//! - a non-atomic `double` load whose every use is the value of a
//!   non-atomic store is a word copy (a union assigned through its `double`
//!   member at `-O0`): it loads and stores an `i64` instead, so the word
//!   keeps its capability as the `memcpy` it stands for would
//!   ([`integer_copies`]);
//! - a store of a vector of 2 to 4 `i64`s built from words (the SLP
//!   vectoriser pairs a union word with its tag, or copies a pair through
//!   a vector load) is split into word stores, each of the scalar it was
//!   built from ([`scalar_word_stores`]).
//!
//! The bytes moved are the same; the word now travels as an integer, which
//! carries its capability (see the `inttoptr` module).

use inkwell::context::AsContextRef;
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::llvm_sys::core::{
    LLVMAddIncoming, LLVMBuildBitCast, LLVMBuildExtractElement, LLVMBuildGEP2, LLVMBuildLoad2,
    LLVMBuildPhi, LLVMBuildSelect, LLVMBuildStore, LLVMConstInt, LLVMConstIntGetZExtValue,
    LLVMCountIncoming, LLVMCreateBuilderInContext, LLVMDisposeBuilder, LLVMGetAlignment,
    LLVMGetBasicBlockTerminator, LLVMGetElementType, LLVMGetFirstInstruction, LLVMGetFirstUse,
    LLVMGetIncomingBlock, LLVMGetIncomingValue, LLVMGetInstructionOpcode, LLVMGetInstructionParent,
    LLVMGetIntTypeWidth, LLVMGetNextInstruction, LLVMGetNextUse, LLVMGetNumOperands,
    LLVMGetOperand, LLVMGetOrdering, LLVMGetPoison, LLVMGetTypeKind, LLVMGetUser,
    LLVMGetVectorSize, LLVMGetVolatile, LLVMInstructionEraseFromParent, LLVMInt8TypeInContext,
    LLVMInt32TypeInContext, LLVMInt64TypeInContext, LLVMIsAConstantInt, LLVMIsAInstruction,
    LLVMPositionBuilderBefore, LLVMReplaceAllUsesWith, LLVMSetAlignment, LLVMSetOperand,
    LLVMSetVolatile, LLVMTypeOf,
};
use inkwell::llvm_sys::debuginfo::{LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc};
use inkwell::llvm_sys::prelude::{
    LLVMBasicBlockRef, LLVMBuilderRef, LLVMContextRef, LLVMTypeRef, LLVMValueRef,
};
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMTypeKind};
use inkwell::values::{AsValueRef, FunctionValue};

use crate::ir::users;

/// Stores of `bitcast i64 %x to double` store `%x` itself (see the
/// module documentation); returns how many changed.
pub fn integer_stores(f: FunctionValue<'_>) -> usize {
    let mut changed = 0;
    for block in f.get_basic_blocks() {
        for inst in block.get_instructions() {
            let raw = inst.as_value_ref();
            // SAFETY: `raw` is a live instruction of `f`; the accessors
            // match its opcode (a store's operand 0 is the value, a
            // bitcast's operand 0 its source).
            unsafe {
                if LLVMGetInstructionOpcode(raw) != LLVMOpcode::LLVMStore || !plain(raw) {
                    continue;
                }
                let v = LLVMGetOperand(raw, 0);
                if LLVMIsAInstruction(v).is_null()
                    || LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMBitCast
                    || !float_word(LLVMTypeOf(v))
                {
                    continue;
                }
                let src = LLVMGetOperand(v, 0);
                let src_ty = LLVMTypeOf(src);
                if LLVMGetTypeKind(src_ty) == LLVMTypeKind::LLVMIntegerTypeKind
                    && LLVMGetIntTypeWidth(src_ty) == 64
                {
                    LLVMSetOperand(raw, 0, src);
                    changed += 1;
                }
            }
        }
    }
    changed
}

/// `double` loads only copied to memory load and store an `i64` (see the
/// module documentation); returns how many loads changed. A `double` that
/// is computed with is a number and keeps its type.
pub fn integer_copies(f: FunctionValue<'_>) -> usize {
    let Some(b) = Builder::for_function(f) else {
        return 0;
    };
    let (ctx, builder) = (b.ctx, b.raw);
    let mut changed = 0;
    // SAFETY: instructions touched are live in `f` and match the opcodes
    // tested (a load's operand 0 is its address, a store's 0 its value and
    // 1 its address); a load is erased only once its stores are rewired;
    // the builder is `f`'s (dropped at the end).
    unsafe {
        let i64_ty = LLVMInt64TypeInContext(ctx);
        for block in f.get_basic_blocks() {
            let insts: Vec<_> = block.get_instructions().map(|i| i.as_value_ref()).collect();
            for load in insts {
                if LLVMGetInstructionOpcode(load) != LLVMOpcode::LLVMLoad
                    || !plain(load)
                    || LLVMGetVolatile(load) != 0
                    || !float_word(LLVMTypeOf(load))
                {
                    continue;
                }
                let stores = users(load);
                let copies = !stores.is_empty()
                    && stores.iter().all(|&s| {
                        LLVMGetInstructionOpcode(s) == LLVMOpcode::LLVMStore
                            && plain(s)
                            && LLVMGetVolatile(s) == 0
                            && LLVMGetOperand(s, 0) == load
                            && LLVMGetOperand(s, 1) != load
                    });
                if !copies {
                    continue;
                }
                LLVMPositionBuilderBefore(builder, load);
                let word = LLVMBuildLoad2(builder, i64_ty, LLVMGetOperand(load, 0), c"".as_ptr());
                LLVMSetAlignment(word, LLVMGetAlignment(load));
                LLVMInstructionSetDebugLoc(word, LLVMInstructionGetDebugLoc(load));
                for s in stores {
                    LLVMSetOperand(s, 0, word);
                }
                LLVMInstructionEraseFromParent(load);
                changed += 1;
            }
        }
    }
    changed
}

/// An IR builder in a function's context, disposed when dropped.
struct Builder {
    ctx: LLVMContextRef,
    raw: LLVMBuilderRef,
}

impl Builder {
    /// A builder for `f`'s body; `None` for a declaration.
    fn for_function(f: FunctionValue<'_>) -> Option<Builder> {
        let ctx = f.get_first_basic_block()?.get_context().as_ctx_ref();
        // SAFETY: `ctx` is the live context of `f`; the builder is
        // disposed exactly once, in `drop`.
        let raw = unsafe { LLVMCreateBuilderInContext(ctx) };
        Some(Builder { ctx, raw })
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        // SAFETY: made in `for_function`, disposed only here.
        unsafe { LLVMDisposeBuilder(self.raw) };
    }
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

/// Webs of `double` phis, selects and loads that some `bitcast` turns into
/// an `i64`: after SROA a union `{ double }` holding a pointer (QuickJS's
/// `JSValue` on the interpreter's paths) is loaded, merged by phis and
/// only then cast to the integer that becomes a pointer. Each such web is
/// rebuilt as `i64` phis, selects and loads (so the inference follows the
/// word and its capability); a use that needs the `double` gets a
/// `bitcast` back. Returns how many values were rebuilt.
pub fn integer_webs(f: FunctionValue<'_>) -> usize {
    let Some(b) = Builder::for_function(f) else {
        return 0;
    };
    let (ctx, builder) = (b.ctx, b.raw);
    // SAFETY: every value touched is a live instruction of `f` until it is
    // erased at the end, after all its uses were replaced; the builder is
    // `f`'s (dropped at the end).
    unsafe {
        let i64_ty = LLVMInt64TypeInContext(ctx);
        let mut seeds = Vec::new();
        for block in f.get_basic_blocks() {
            for inst in block.get_instructions() {
                let raw = inst.as_value_ref();
                if LLVMGetInstructionOpcode(raw) == LLVMOpcode::LLVMBitCast
                    && LLVMTypeOf(raw) == i64_ty
                {
                    let src = LLVMGetOperand(raw, 0);
                    if web_member(src) {
                        seeds.push(src);
                    }
                }
            }
        }
        if seeds.is_empty() {
            return 0;
        }
        let web = grow_web(seeds);
        rebuild_web(builder, i64_ty, &web)
    }
}

/// Whether `v` can be rebuilt as an `i64`: a `double` phi, select or
/// non-atomic load.
///
/// # Safety
/// `v` is a live value.
unsafe fn web_member(v: LLVMValueRef) -> bool {
    // SAFETY: as the caller promises; accessors match the opcode.
    unsafe {
        if LLVMIsAInstruction(v).is_null() || !float_word(LLVMTypeOf(v)) {
            return false;
        }
        match LLVMGetInstructionOpcode(v) {
            LLVMOpcode::LLVMPHI | LLVMOpcode::LLVMSelect => true,
            LLVMOpcode::LLVMLoad => plain(v),
            _ => false,
        }
    }
}

/// The members connected to `seeds` through phi and select operands and
/// users, in a deterministic order.
///
/// # Safety
/// The seeds are live members.
unsafe fn grow_web(seeds: Vec<LLVMValueRef>) -> Vec<LLVMValueRef> {
    let mut seen = std::collections::HashSet::new();
    let mut order = Vec::new();
    let mut work = seeds;
    // SAFETY: as the caller promises; every value reached is live.
    unsafe {
        while let Some(v) = work.pop() {
            if !seen.insert(v) {
                continue;
            }
            order.push(v);
            for o in data_operands(v) {
                if web_member(o) {
                    work.push(o);
                }
            }
            let mut u = LLVMGetFirstUse(v);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                let merges = matches!(
                    LLVMGetInstructionOpcode(user),
                    LLVMOpcode::LLVMPHI | LLVMOpcode::LLVMSelect
                );
                if merges && web_member(user) {
                    work.push(user);
                }
                u = LLVMGetNextUse(u);
            }
        }
    }
    order
}

/// A phi's incoming values, a select's two data operands, nothing for a load.
///
/// # Safety
/// `v` is a live member.
unsafe fn data_operands(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    // SAFETY: as the caller promises.
    unsafe {
        match LLVMGetInstructionOpcode(v) {
            LLVMOpcode::LLVMPHI => (0..LLVMCountIncoming(v))
                .map(|i| LLVMGetIncomingValue(v, i))
                .collect(),
            LLVMOpcode::LLVMSelect => vec![LLVMGetOperand(v, 1), LLVMGetOperand(v, 2)],
            _ => Vec::new(),
        }
    }
}

/// Rebuilds `web` as `i64`s (see [`integer_webs`]); returns its size.
///
/// # Safety
/// `web` holds live members of one function; `builder` is in its context.
unsafe fn rebuild_web(builder: LLVMBuilderRef, i64_ty: LLVMTypeRef, web: &[LLVMValueRef]) -> usize {
    use std::collections::HashMap;
    let members: std::collections::HashSet<_> = web.iter().copied().collect();
    let mut new: HashMap<LLVMValueRef, LLVMValueRef> = HashMap::new();
    // SAFETY: as the caller promises; new instructions are made next to
    // the ones they replace, and old members are erased only after every
    // use of them is gone.
    unsafe {
        // Phis and loads first: selects and phi inputs refer to them.
        for &v in web {
            LLVMPositionBuilderBefore(builder, v);
            let n = match LLVMGetInstructionOpcode(v) {
                LLVMOpcode::LLVMPHI => LLVMBuildPhi(builder, i64_ty, c"".as_ptr()),
                LLVMOpcode::LLVMLoad => {
                    let l = LLVMBuildLoad2(builder, i64_ty, LLVMGetOperand(v, 0), c"".as_ptr());
                    LLVMSetAlignment(l, LLVMGetAlignment(v));
                    LLVMSetVolatile(l, LLVMGetVolatile(v));
                    l
                }
                _ => continue,
            };
            LLVMInstructionSetDebugLoc(n, LLVMInstructionGetDebugLoc(v));
            new.insert(v, n);
        }
        // Selects, each once its member operands exist (no cycles without
        // a phi, which exists already).
        let mut pending: Vec<_> = web
            .iter()
            .copied()
            .filter(|v| LLVMGetInstructionOpcode(*v) == LLVMOpcode::LLVMSelect)
            .collect();
        while !pending.is_empty() {
            let before = pending.len();
            pending.retain(|&v| {
                let (a, b) = (LLVMGetOperand(v, 1), LLVMGetOperand(v, 2));
                let ready = |x| !members.contains(&x) || new.contains_key(&x);
                if !(ready(a) && ready(b)) {
                    return true;
                }
                LLVMPositionBuilderBefore(builder, v);
                let ia = as_int(builder, i64_ty, a, &new);
                let ib = as_int(builder, i64_ty, b, &new);
                let s = LLVMBuildSelect(builder, LLVMGetOperand(v, 0), ia, ib, c"".as_ptr());
                LLVMInstructionSetDebugLoc(s, LLVMInstructionGetDebugLoc(v));
                new.insert(v, s);
                false
            });
            if pending.len() == before {
                // Cannot happen in valid SSA; leave the web alone.
                break;
            }
        }
        // Phi inputs: a leaf is cast at the end of its incoming block, once
        // per block (a switch may list the same block twice).
        let mut cast_in: HashMap<(LLVMValueRef, LLVMBasicBlockRef), LLVMValueRef> = HashMap::new();
        for &v in web {
            if LLVMGetInstructionOpcode(v) != LLVMOpcode::LLVMPHI {
                continue;
            }
            let n = new[&v];
            for i in 0..LLVMCountIncoming(v) {
                let (x, mut b) = (LLVMGetIncomingValue(v, i), LLVMGetIncomingBlock(v, i));
                let val = if let Some(&m) = new.get(&x) {
                    m
                } else if let Some(&c) = cast_in.get(&(x, b)) {
                    c
                } else {
                    LLVMPositionBuilderBefore(builder, LLVMGetBasicBlockTerminator(b));
                    let c = as_int(builder, i64_ty, x, &new);
                    cast_in.insert((x, b), c);
                    c
                };
                let mut val = val;
                LLVMAddIncoming(n, &mut val, &mut b, 1);
            }
        }
        // Uses of the old members: integer casts take the new word, stores
        // store it, anything else gets the double back.
        for &v in web {
            let n = new[&v];
            let mut back = None;
            for user in users(v) {
                if members.contains(&user) {
                    continue;
                }
                match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMBitCast if LLVMTypeOf(user) == i64_ty => {
                        LLVMReplaceAllUsesWith(user, n);
                        LLVMInstructionEraseFromParent(user);
                    }
                    LLVMOpcode::LLVMStore if LLVMGetOperand(user, 0) == v && plain(user) => {
                        LLVMSetOperand(user, 0, n);
                    }
                    _ => {
                        let d = *back.get_or_insert_with(|| {
                            if LLVMGetInstructionOpcode(n) == LLVMOpcode::LLVMPHI {
                                let block = LLVMGetInstructionParent(n);
                                LLVMPositionBuilderBefore(builder, first_non_phi(block));
                            } else {
                                LLVMPositionBuilderBefore(builder, v);
                            }
                            LLVMBuildBitCast(builder, n, LLVMTypeOf(v), c"".as_ptr())
                        });
                        for k in 0..LLVMGetNumOperands(user).max(0) as u32 {
                            if LLVMGetOperand(user, k) == v {
                                LLVMSetOperand(user, k, d);
                            }
                        }
                    }
                }
            }
        }
        // The old members now only use each other.
        for &v in web {
            LLVMReplaceAllUsesWith(v, LLVMGetPoison(LLVMTypeOf(v)));
        }
        for &v in web {
            LLVMInstructionEraseFromParent(v);
        }
    }
    web.len()
}

/// `x` as an `i64` at the builder's position: a member's rebuilt word,
/// the source of a `bitcast` from `i64`, or a new `bitcast`.
///
/// # Safety
/// `x` is a live `double` value; `builder` is positioned in its function.
unsafe fn as_int(
    builder: LLVMBuilderRef,
    i64_ty: LLVMTypeRef,
    x: LLVMValueRef,
    new: &std::collections::HashMap<LLVMValueRef, LLVMValueRef>,
) -> LLVMValueRef {
    if let Some(&n) = new.get(&x) {
        return n;
    }
    // SAFETY: as the caller promises.
    unsafe {
        if !LLVMIsAInstruction(x).is_null()
            && LLVMGetInstructionOpcode(x) == LLVMOpcode::LLVMBitCast
            && LLVMTypeOf(LLVMGetOperand(x, 0)) == i64_ty
        {
            return LLVMGetOperand(x, 0);
        }
        LLVMBuildBitCast(builder, x, i64_ty, c"".as_ptr())
    }
}

/// The first instruction of `block` that is not a phi.
///
/// # Safety
/// `block` is a live block with a terminator.
unsafe fn first_non_phi(block: LLVMBasicBlockRef) -> LLVMValueRef {
    // SAFETY: as the caller promises.
    unsafe {
        let mut i = LLVMGetFirstInstruction(block);
        while LLVMGetInstructionOpcode(i) == LLVMOpcode::LLVMPHI {
            i = LLVMGetNextInstruction(i);
        }
        i
    }
}

/// Stores of `<N x i64>` vectors made of words (the SLP vectoriser pairs a
/// union word and its tag, QuickJS's `JSValue` copies): stored lane by lane
/// as `i64`s, each taken from the `insertelement` or the (also split)
/// vector load that made it, so each word brings its capability. Returns
/// how many stores were split.
pub fn scalar_word_stores(f: FunctionValue<'_>) -> usize {
    let Some(b) = Builder::for_function(f) else {
        return 0;
    };
    let (ctx, builder) = (b.ctx, b.raw);
    let mut changed = 0;
    // SAFETY: instructions touched are live in `f`; a store is erased only
    // after its replacement is in place, a vector load only once unused;
    // the builder is `f`'s (dropped at the end).
    unsafe {
        let i64_ty = LLVMInt64TypeInContext(ctx);
        let i8_ty = LLVMInt8TypeInContext(ctx);
        for block in f.get_basic_blocks() {
            let insts: Vec<_> = block.get_instructions().map(|i| i.as_value_ref()).collect();
            for raw in insts {
                if LLVMGetInstructionOpcode(raw) != LLVMOpcode::LLVMStore
                    || !plain(raw)
                    || LLVMGetVolatile(raw) != 0
                {
                    continue;
                }
                let v = LLVMGetOperand(raw, 0);
                let Some(n) = word_lanes(LLVMTypeOf(v), i64_ty) else {
                    continue;
                };
                let mut lanes = vec![None; n as usize];
                resolve_lanes(builder, i64_ty, i8_ty, v, &mut lanes);
                if !lanes
                    .iter()
                    .flatten()
                    .any(|l| !LLVMIsAInstruction(*l).is_null())
                {
                    continue;
                }
                LLVMPositionBuilderBefore(builder, raw);
                let ptr = LLVMGetOperand(raw, 1);
                let align = LLVMGetAlignment(raw);
                for (k, lane) in lanes.iter().enumerate() {
                    let val = match lane {
                        Some(l) => *l,
                        None => LLVMBuildExtractElement(
                            builder,
                            v,
                            LLVMConstInt(LLVMInt32TypeInContext(ctx), k as u64, 0),
                            c"".as_ptr(),
                        ),
                    };
                    let mut off = LLVMConstInt(i64_ty, 8 * k as u64, 0);
                    let at = LLVMBuildGEP2(builder, i8_ty, ptr, &mut off, 1, c"".as_ptr());
                    let s = LLVMBuildStore(builder, val, at);
                    LLVMSetAlignment(s, if k == 0 { align } else { align.min(8) });
                    LLVMInstructionSetDebugLoc(s, LLVMInstructionGetDebugLoc(raw));
                }
                LLVMInstructionEraseFromParent(raw);
                if !LLVMIsAInstruction(v).is_null()
                    && LLVMGetInstructionOpcode(v) == LLVMOpcode::LLVMLoad
                    && LLVMGetFirstUse(v).is_null()
                {
                    LLVMInstructionEraseFromParent(v);
                }
                changed += 1;
            }
        }
    }
    changed
}

/// The lane count of `ty` if it is a vector of 2 to 4 `i64`s.
///
/// # Safety
/// `ty` is a live type.
unsafe fn word_lanes(ty: LLVMTypeRef, i64_ty: LLVMTypeRef) -> Option<u32> {
    // SAFETY: as the caller promises.
    unsafe {
        if LLVMGetTypeKind(ty) != LLVMTypeKind::LLVMVectorTypeKind
            || LLVMGetElementType(ty) != i64_ty
        {
            return None;
        }
        let n = LLVMGetVectorSize(ty);
        (2..=4).contains(&n).then_some(n)
    }
}

/// Fills `lanes` with the scalar each lane of vector `v` was made from:
/// the operands of an `insertelement` chain with constant indices, or word
/// loads made next to a plain vector load.
///
/// # Safety
/// `v` is a live vector of `i64`s; `builder` is in its function's context.
unsafe fn resolve_lanes(
    builder: LLVMBuilderRef,
    i64_ty: LLVMTypeRef,
    i8_ty: LLVMTypeRef,
    v: LLVMValueRef,
    lanes: &mut [Option<LLVMValueRef>],
) {
    // SAFETY: as the caller promises; accessors match the opcodes.
    unsafe {
        let mut vec = v;
        while !LLVMIsAInstruction(vec).is_null()
            && LLVMGetInstructionOpcode(vec) == LLVMOpcode::LLVMInsertElement
        {
            let idx = LLVMGetOperand(vec, 2);
            if LLVMIsAConstantInt(idx).is_null() {
                return;
            }
            let i = LLVMConstIntGetZExtValue(idx) as usize;
            if i < lanes.len() && lanes[i].is_none() {
                lanes[i] = Some(LLVMGetOperand(vec, 1));
            }
            vec = LLVMGetOperand(vec, 0);
        }
        if vec == v
            && !LLVMIsAInstruction(v).is_null()
            && LLVMGetInstructionOpcode(v) == LLVMOpcode::LLVMLoad
            && plain(v)
            && LLVMGetVolatile(v) == 0
        {
            LLVMPositionBuilderBefore(builder, v);
            let ptr = LLVMGetOperand(v, 0);
            let align = LLVMGetAlignment(v);
            for (k, lane) in lanes.iter_mut().enumerate() {
                let mut off = LLVMConstInt(i64_ty, 8 * k as u64, 0);
                let at = LLVMBuildGEP2(builder, i8_ty, ptr, &mut off, 1, c"".as_ptr());
                let l = LLVMBuildLoad2(builder, i64_ty, at, c"".as_ptr());
                LLVMSetAlignment(l, if k == 0 { align } else { align.min(8) });
                LLVMInstructionSetDebugLoc(l, LLVMInstructionGetDebugLoc(v));
                *lane = Some(l);
            }
        }
    }
}
