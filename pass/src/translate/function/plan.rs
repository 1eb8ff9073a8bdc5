//! The plan of one function's translation: every analysis of the original
//! function, made once before anything is emitted and only read after
//! (the emitter holds it behind an `Rc`, so it cannot change it).

use super::*;
use crate::llvm::{Func, Ll};

pub(super) struct Plan<'m> {
    /// Where each alloca lives ([`crate::escape`]).
    pub homes: HashMap<V<'m>, AllocaHome>,
    /// Which blocks never return ([`crate::escape::Paths`]).
    pub escape: crate::escape::Paths<'m>,
    /// The capability each 64-bit integer carries ([`crate::inttoptr`]).
    pub inference: CapInference<'m>,
    /// `load i64`s whose word's capability is read (inttoptr inference).
    pub needed_loads: HashSet<V<'m>>,
    /// Accesses whose check covers later ones too ([`widen`]).
    pub widened: HashMap<V<'m>, widen::Covered<'m>>,
    /// The reachable blocks in reverse post-order, their predecessors and
    /// dominators.
    pub cfg: Cfg<'m>,
    /// Retreating edges (old source, old target).
    pub back_edges: HashSet<(B<'m>, B<'m>)>,
    /// Sources of retreating edges.
    pub latches: HashSet<B<'m>>,
    /// Old block → the blocks of the innermost natural loop holding it.
    pub innermost_loop: HashMap<B<'m>, LoopBody<'m>>,
    /// Headers of natural loops without calls: what was checked on entry
    /// holds on every iteration ([`checked`]).
    pub call_free_headers: HashSet<B<'m>>,
    /// Whether the function calls `setjmp` (or a relative).
    pub calls_setjmp: bool,
    /// Escaping allocas made where first needed ([`lazy_alloca`]).
    pub lazy: LazyAllocas<'m>,
}

impl<'m> Plan<'m> {
    /// The plan of `old` (which has a body), with the capability inference
    /// and the loads it needs already made.
    pub(super) fn new(
        ll: &Ll<'m>,
        old: Func<'m>,
        inference: CapInference<'m>,
        needed_loads: HashSet<V<'m>>,
    ) -> Plan<'m> {
        let first = old.entry_block().expect("a function with a body");
        let cfg = Cfg::new(first);
        // Retreating edges: a loop polls the safepoint on its back edges,
        // after the iteration's work, not at the top of its header: the
        // loop-invariant parts of the checks at the top of the body are
        // then the first thing an iteration does, and the latch's exit
        // test stays one branch.
        let mut back_edges = HashSet::new();
        let mut latches = HashSet::new();
        for &b in &cfg.order {
            for s in b.successors() {
                if let (Some(&is), Some(&ib)) = (cfg.index.get(&s), cfg.index.get(&b)) {
                    if is <= ib {
                        latches.insert(b);
                        back_edges.insert((b, s));
                    }
                }
            }
        }
        let (loops, innermost_loop) = find_loops(&cfg, &back_edges);
        let call_free_headers = call_free_loop_headers(loops, &cfg);
        let calls_setjmp = calls_setjmp(old);
        let mut homes = classify_allocas(ll.layout(), old);
        if calls_setjmp {
            // A heap copy made for a call would miss the frame's value
            // when `longjmp` comes back past the copy-back.
            for h in homes.values_mut() {
                if *h == (AllocaHome::StackCaps { escapes: true }) {
                    *h = AllocaHome::Heap("its address escapes in a function calling setjmp");
                }
            }
        }
        let lazy = lazy_alloca::plan(&cfg, &homes);
        Plan {
            homes,
            escape: crate::escape::Paths::new(old),
            inference,
            needed_loads,
            widened: widen::plan(ll, old.as_value()),
            cfg,
            back_edges,
            latches,
            innermost_loop,
            call_free_headers,
            calls_setjmp,
            lazy,
        }
    }
}

/// Whether `f` calls `setjmp` or one of its relatives.
fn calls_setjmp(f: Func<'_>) -> bool {
    f.instructions().into_iter().any(|i| {
        matches!(i.opcode(), Opcode::LLVMCall | Opcode::LLVMInvoke)
            && unwinding::SETJMP_NAMES.contains(&i.called_value().name().as_str())
    })
}

/// A back edge (latch, header) with its natural loop.
type Loop<'m> = ((B<'m>, B<'m>), LoopBody<'m>);

/// The natural loop of every back edge (its header and the blocks that
/// reach its latch without passing the header), and for each block the
/// smallest one holding it.
fn find_loops<'m>(
    cfg: &Cfg<'m>,
    back_edges: &HashSet<(B<'m>, B<'m>)>,
) -> (Vec<Loop<'m>>, HashMap<B<'m>, LoopBody<'m>>) {
    // In block order, not hash order: of two loops of one size holding
    // a block, the first found is kept.
    let mut edges: Vec<(B<'m>, B<'m>)> = back_edges.iter().copied().collect();
    edges.sort_by_key(|&(latch, header)| (cfg.index.get(&latch), cfg.index.get(&header)));
    let mut innermost: HashMap<B<'m>, LoopBody<'m>> = HashMap::new();
    let mut loops = Vec::new();
    for (latch, header) in edges {
        let mut body = HashSet::from([header]);
        let mut work = vec![latch];
        while let Some(b) = work.pop() {
            if body.insert(b) {
                work.extend(cfg.preds_of(b).iter().copied());
            }
        }
        let body = Rc::new(body);
        for &b in body.iter() {
            let smaller = innermost.get(&b).is_none_or(|l| l.len() > body.len());
            if smaller {
                innermost.insert(b, Rc::clone(&body));
            }
        }
        loops.push(((latch, header), body));
    }
    (loops, innermost)
}

/// Headers of loops whose back edges all come from blocks the header
/// dominates (natural loops) and whose blocks make no call that forgets
/// checks: the checks passed on entry to such a loop hold on every
/// iteration ([`checked`]).
fn call_free_loop_headers<'m>(loops: Vec<Loop<'m>>, cfg: &Cfg<'m>) -> HashSet<B<'m>> {
    let calls = |b: B<'m>| {
        b.instructions().into_iter().any(|i| {
            matches!(
                i.opcode(),
                Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr
            ) && call_forgets_checks(i)
        })
    };
    let mut good = HashSet::new();
    let mut bad = HashSet::new();
    for ((latch, header), body) in loops {
        if cfg.dominates(header, latch) && !body.iter().any(|&b| calls(b)) {
            good.insert(header);
        } else {
            bad.insert(header);
        }
    }
    good.retain(|h| !bad.contains(h));
    good
}

/// Whether call `inst` may free, shrink or protect an object, so that
/// what was checked before it no longer holds after it: anything but an
/// `llvm.*` intrinsic.
pub(super) fn call_forgets_checks(inst: V<'_>) -> bool {
    let callee = inst.called_value();
    !(callee.is_function() && callee.name().starts_with("llvm."))
}
