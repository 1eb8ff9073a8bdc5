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

use crate::llvm::{AttrAt, Block, Func, Ll, Opcode, Value};
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
    let ll = Ll::new(module);
    let reporters: HashSet<Value<'_>> = failures
        .iter()
        .filter_map(|name| ll.get_function(name))
        .map(Func::as_value)
        .collect();
    if reporters.is_empty() {
        return 0;
    }
    let mut rewritten = 0;
    for f in ll.functions() {
        if !f.is_declaration() {
            rewritten += spin_function(&ll, f, &reporters);
        }
    }
    for &f in &reporters {
        for attr in ["noreturn", "cold"] {
            f.func().remove_enum_attr(AttrAt::Function, attr);
        }
    }
    rewritten
}

/// The report call ending `bb` in `unreachable`, if it has one.
fn report_call<'m>(bb: Block<'m>, reporters: &HashSet<Value<'m>>) -> Option<Value<'m>> {
    let term = bb.terminator()?;
    if term.opcode() != Opcode::LLVMUnreachable {
        return None;
    }
    let call = term.prev_instruction()?;
    if call.opcode() != Opcode::LLVMCall {
        return None;
    }
    reporters.contains(&call.called_value()).then_some(call)
}

/// Rewrites one function's failure paths; returns how many.
fn spin_function<'m>(ll: &Ll<'m>, f: Func<'m>, reporters: &HashSet<Value<'m>>) -> usize {
    let blocks = f.blocks();
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
    weigh_edges_into(ll, &blocks, &doomed);

    let spin = ll.append_block(f.as_value(), "gimso.spin");
    ll.position_at_end(spin);
    ll.br(spin);
    for &(bb, call) in &roots {
        for attr in ["noreturn", "cold"] {
            call.remove_call_enum_attr(AttrAt::Function, attr);
        }
        let term = bb.terminator().expect("a report block's `unreachable`");
        // SAFETY: the `unreachable` has no uses, and no handle to it is
        // kept (`report_call` only looked at it).
        unsafe { term.erase() };
        ll.position_at_end(bb);
        ll.br(spin);
    }
    roots.len()
}

/// Blocks from which every path reaches a report: the `roots`, and blocks
/// whose successors are all doomed (a least fixpoint).
fn doomed_blocks<'m>(
    blocks: &[Block<'m>],
    roots: impl Iterator<Item = Block<'m>>,
) -> HashSet<Block<'m>> {
    let mut doomed: HashSet<_> = roots.collect();
    loop {
        let mut changed = false;
        // Reverse order first meets successors before predecessors in
        // most code, so one or two rounds settle it.
        for &bb in blocks.iter().rev() {
            if doomed.contains(&bb) {
                continue;
            }
            let succs = bb.successors();
            if !succs.is_empty() && succs.iter().all(|s| doomed.contains(s)) {
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
fn weigh_edges_into<'m>(ll: &Ll<'m>, blocks: &[Block<'m>], doomed: &HashSet<Block<'m>>) {
    let prof = ll.md_kind("prof");
    let tag = ll.md_string("branch_weights");
    for &bb in blocks {
        if doomed.contains(&bb) {
            continue;
        }
        let term = bb.terminator().expect("a block without a terminator");
        let conditional = match term.opcode() {
            Opcode::LLVMBr => term.is_conditional(),
            Opcode::LLVMSwitch => true,
            _ => false,
        };
        if !conditional || term.metadata(prof).is_some() {
            continue;
        }
        let rare: Vec<bool> = term
            .successors()
            .iter()
            .map(|s| doomed.contains(s))
            .collect();
        if !rare.contains(&true) {
            continue;
        }
        let mut ops = vec![tag];
        ops.extend(rare.iter().map(|&r| {
            let w = if r { 1 } else { USUAL_WEIGHT };
            ll.value_md(ll.i32c(u64::from(w)))
        }));
        let node = ll.md_node(&ops);
        term.set_metadata(prof, Some(ll.md_value(node)));
    }
}
