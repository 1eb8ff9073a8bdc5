//! Failure paths as code generation sees them.
//!
//! Every check the translation emits fails into a block that calls one of
//! the runtime's reporting functions and ends in `unreachable`; a large
//! function has thousands (QuickJS's `JS_CallInternal`: 3 538 in its
//! dispatch loop). LLVM 16's branch-probability analysis gives each such
//! block a weight and, for each one that leaves a loop, recomputes the
//! loop's whole exit set (`computeEestimateBlockWeight`, fixed upstream
//! later by caching the exits): quadratic in the loop's size, run twice per
//! function by the code generator, and the largest single cost of compiling
//! an interpreter loop (see BENCHMARKS.md, compile time).
//!
//! So once the clean-up pipeline is done, and only then (it keeps relying
//! on the reports being `noreturn` and `cold`), each report is followed by
//! a branch to one empty self-loop per function instead of `unreachable`,
//! and the reporting functions lose `noreturn` and `cold`: blocks that get
//! no weight of their own push nothing. What the weights told the code
//! generator is said instead as branch weights on every branch into a
//! failure path that has none (the translation's bounds checks have none:
//! they relied on the `unreachable`), so hot paths stay laid out as before.
//! The self-loop never runs (the reporting functions end the program);
//! the jump to it takes the place of `ud2` (2 to 5 bytes for 2), and the
//! loop itself costs a `jmp` and its alignment once per function
//! (`quickjs.c`'s `JS_CallInternal`: 1.2% more text).

use std::collections::HashSet;

use inkwell::llvm_sys::LLVMOpcode;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::module::Module;

/// Weight of the usual edge against a failure edge's 1: what LLVM's
/// estimate gave an edge into a block ending in a `noreturn` call and
/// `unreachable` (`BlockExecWeight::DEFAULT` against `NORETURN`). Milder
/// weights (2 000 : 1) make the register allocator weigh the failure
/// paths' uses of values and spill in hot loops (bzip2's block sort: 5%
/// more instructions).
const USUAL_WEIGHT: u32 = 0xf_ffff;

/// Rewrites the failure paths of every function defined in `module`
/// (`failures`: the names of the reporting functions) as described in the
/// module documentation. Returns how many reports now end in a self-loop.
pub fn spin_failure_paths(module: &Module<'_>, failures: &[&str]) -> usize {
    let m = module.as_mut_ptr();
    let mut rewritten = 0;
    // SAFETY: `m` is the live module; every value, block and function read
    // or changed below belongs to it and is used only while it is alive
    // (erased terminators are not touched after erasure).
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let mut reporters = HashSet::new();
        for name in failures {
            let cname = std::ffi::CString::new(*name).expect("no NUL in a runtime name");
            let f = LLVMGetNamedFunction(m, cname.as_ptr());
            if !f.is_null() {
                reporters.insert(f);
            }
        }
        if reporters.is_empty() {
            return 0;
        }
        let builder = LLVMCreateBuilderInContext(ctx);
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if LLVMIsDeclaration(f) == 0 {
                rewritten += spin_function(ctx, builder, f, &reporters);
            }
            f = LLVMGetNextFunction(f);
        }
        LLVMDisposeBuilder(builder);
        for &f in &reporters {
            for attr in ["noreturn", "cold"] {
                let kind = attr_kind(attr);
                LLVMRemoveEnumAttributeAtIndex(
                    f,
                    inkwell::llvm_sys::LLVMAttributeFunctionIndex,
                    kind,
                );
            }
        }
    }
    rewritten
}

fn attr_kind(name: &str) -> u32 {
    // SAFETY: a pointer and length of a live string.
    unsafe { LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) }
}

/// The report call ending `bb` in `unreachable`, if it has one.
///
/// # Safety
///
/// `bb` must be a live block with a terminator.
unsafe fn report_call(
    bb: LLVMBasicBlockRef,
    reporters: &HashSet<LLVMValueRef>,
) -> Option<LLVMValueRef> {
    // SAFETY: per the contract, `bb` is live; instructions of a live block
    // are live.
    unsafe {
        let term = LLVMGetBasicBlockTerminator(bb);
        if term.is_null() || LLVMGetInstructionOpcode(term) != LLVMOpcode::LLVMUnreachable {
            return None;
        }
        let call = LLVMGetPreviousInstruction(term);
        if call.is_null() || LLVMGetInstructionOpcode(call) != LLVMOpcode::LLVMCall {
            return None;
        }
        reporters
            .contains(&LLVMGetCalledValue(call))
            .then_some(call)
    }
}

/// Rewrites one function's failure paths; returns how many.
///
/// # Safety
///
/// `f` must be a live function definition of a module in `ctx`, and
/// `builder` a builder of `ctx`.
unsafe fn spin_function(
    ctx: LLVMContextRef,
    builder: LLVMBuilderRef,
    f: LLVMValueRef,
    reporters: &HashSet<LLVMValueRef>,
) -> usize {
    // SAFETY: per the contract; blocks and instructions are those of `f`.
    unsafe {
        let mut blocks = Vec::new();
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            blocks.push(bb);
            bb = LLVMGetNextBasicBlock(bb);
        }
        let mut roots = Vec::new();
        for &bb in &blocks {
            if let Some(call) = report_call(bb, reporters) {
                roots.push((bb, call));
            }
        }
        if roots.is_empty() {
            return 0;
        }
        let doomed = doomed_blocks(&blocks, roots.iter().map(|r| r.0));
        weigh_edges_into(ctx, &blocks, &doomed);

        let spin = LLVMAppendBasicBlockInContext(ctx, f, c"gimso.spin".as_ptr());
        LLVMPositionBuilderAtEnd(builder, spin);
        LLVMBuildBr(builder, spin);
        let fn_index = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        for &(bb, call) in &roots {
            for attr in ["noreturn", "cold"] {
                LLVMRemoveCallSiteEnumAttribute(call, fn_index, attr_kind(attr));
            }
            LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(bb));
            LLVMPositionBuilderAtEnd(builder, bb);
            LLVMBuildBr(builder, spin);
        }
        roots.len()
    }
}

/// Blocks from which every path reaches a report: the `roots`, and blocks
/// whose successors are all doomed (a least fixpoint).
///
/// # Safety
///
/// `blocks` must be the live blocks of one function, each with a
/// terminator.
unsafe fn doomed_blocks(
    blocks: &[LLVMBasicBlockRef],
    roots: impl Iterator<Item = LLVMBasicBlockRef>,
) -> HashSet<LLVMBasicBlockRef> {
    let mut doomed: HashSet<_> = roots.collect();
    loop {
        let mut changed = false;
        // Reverse order first meets successors before predecessors in
        // most code, so one or two rounds settle it.
        for &bb in blocks.iter().rev() {
            if doomed.contains(&bb) {
                continue;
            }
            // SAFETY: per the contract.
            let all = unsafe {
                let term = LLVMGetBasicBlockTerminator(bb);
                let n = LLVMGetNumSuccessors(term);
                n > 0 && (0..n).all(|i| doomed.contains(&LLVMGetSuccessor(term, i)))
            };
            if all {
                doomed.insert(bb);
                changed = true;
            }
        }
        if !changed {
            return doomed;
        }
    }
}

/// Gives every `br` and `switch` without branch weights that leads both
/// into and around `doomed` blocks weights saying the doomed edges are
/// rare.
///
/// # Safety
///
/// `blocks` must be the live blocks of one function in `ctx`, each with a
/// terminator.
unsafe fn weigh_edges_into(
    ctx: LLVMContextRef,
    blocks: &[LLVMBasicBlockRef],
    doomed: &HashSet<LLVMBasicBlockRef>,
) {
    const PROF: &str = "prof";
    // SAFETY: per the contract; metadata is created in `ctx`.
    unsafe {
        let prof = LLVMGetMDKindIDInContext(ctx, PROF.as_ptr().cast(), PROF.len() as u32);
        let tag = LLVMMDStringInContext2(ctx, c"branch_weights".as_ptr(), "branch_weights".len());
        let i32t = LLVMInt32TypeInContext(ctx);
        for &bb in blocks {
            if doomed.contains(&bb) {
                continue;
            }
            let term = LLVMGetBasicBlockTerminator(bb);
            let op = LLVMGetInstructionOpcode(term);
            let conditional = match op {
                LLVMOpcode::LLVMBr => LLVMIsConditional(term) != 0,
                LLVMOpcode::LLVMSwitch => true,
                _ => false,
            };
            if !conditional || !LLVMGetMetadata(term, prof).is_null() {
                continue;
            }
            let n = LLVMGetNumSuccessors(term);
            let rare: Vec<bool> = (0..n)
                .map(|i| doomed.contains(&LLVMGetSuccessor(term, i)))
                .collect();
            if !rare.contains(&true) {
                continue;
            }
            let mut ops = vec![tag];
            ops.extend(rare.iter().map(|&r| {
                let w = if r { 1 } else { USUAL_WEIGHT };
                LLVMValueAsMetadata(LLVMConstInt(i32t, u64::from(w), 0))
            }));
            let node = LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), ops.len());
            LLVMSetMetadata(term, prof, LLVMMetadataAsValue(ctx, node));
        }
    }
}
