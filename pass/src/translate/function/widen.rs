//! Widening a check to the accesses that follow it (check hoisting within
//! a block).
//!
//! Within one basic block, between two calls, every load and store that
//! runs after an access also runs when it does: nothing in between can
//! leave the block early (a failed check ends the program either way). So
//! the first access through an address `root + a` can check, at once, the
//! span up to the last access through `root + b` the stretch makes;
//! [`super::checked`] then finds the later ones implied and leaves their
//! bounds unchecked. When the widened check fails, its failure path
//! rechecks the covered accesses one by one in program order and reports
//! the first that fails, with its own size and source location: the
//! report is the one the program would have got, only before the stores in
//! between ran (the program stops there anyway).
//!
//! Addresses are matched in the original IR: the pointer operand with its
//! constant-index GEP instructions stripped, as the translation's own
//! `const_gep` map strips them, so equal roots here are equal roots (and
//! capabilities) there. Calls end a stretch (they may free or shrink the
//! object, or not return), except `llvm.*` intrinsics that return.

use crate::llvm::{AttrAt, Opcode};
use std::collections::HashMap;

use super::super::layout::required_align;
use super::super::ll::{B, Ll, T, V};

/// Most later accesses one check covers (keeps the failure path short).
const MAX_COVERED: usize = 16;
/// Largest widened span, offsets included (as `checked`'s `MAX_SPAN`).
const MAX_SPAN: i64 = 4096;

/// One access a widened check covers.
#[derive(Debug, Clone, Copy)]
pub(super) struct Access<'m> {
    /// The original load or store.
    pub inst: V<'m>,
    /// Offset from the root.
    pub off: i64,
    pub size: u64,
    pub align: u64,
    pub write: bool,
}

/// An address accesses are grouped by, in the original IR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Root<'m> {
    /// A value (the pointer with its constant-index GEPs stripped).
    Value(V<'m>),
    /// `&base[index]` of element type `ty`, as GEPs in `block` compute it
    /// (the translation makes it once per block: `FnTx::indexed_gep`).
    Indexed {
        block: B<'m>,
        base: V<'m>,
        index: V<'m>,
        ty: T<'m>,
    },
}

/// What the check of one access covers.
#[derive(Debug, Clone)]
pub(super) struct Covered<'m> {
    /// The root in the original IR, and the access's own offset from it.
    pub root: Root<'m>,
    pub own_off: i64,
    /// The widened span `root + [lo, hi)`.
    pub lo: i64,
    pub hi: i64,
    /// The later accesses, in program order.
    pub later: Vec<Access<'m>>,
}

/// The root of original pointer `p` and its constant offset.
pub(super) fn root_of<'m>(ll: &Ll<'m>, p: V<'m>) -> (Root<'m>, i64) {
    let mut v = p;
    let mut off = 0i64;
    while v.is_gep_inst() && !v.type_of().is_vector() {
        let n = v.num_operands();
        let idx: Vec<V<'m>> = (1..n).map(|i| v.operand(i)).collect();
        let src = v.gep_source_type();
        let o = match ll.const_gep_offset(src, &idx) {
            Some(o) => o,
            None => {
                let Some(total) = element_offset(ll, src, &idx).and_then(|o| off.checked_add(o))
                else {
                    break;
                };
                let root = Root::Indexed {
                    block: v.block(),
                    base: v.operand(0),
                    index: idx[0],
                    ty: src,
                };
                return (root, total);
            }
        };
        let Some(total) = off.checked_add(o) else {
            break;
        };
        off = total;
        v = v.operand(0);
    }
    (Root::Value(v), off)
}

/// For GEP indices `idx` over `src` of the form `&base[i].f...` (a variable
/// scalar first index, constant field indices): the fields' offset from
/// `&base[i]`. The translation makes `&base[i]` once per block for these
/// (`FnTx::indexed_gep`), so both sides must agree on the form.
pub(super) fn element_offset<'m>(ll: &Ll<'m>, src: T<'m>, idx: &[V<'m>]) -> Option<i64> {
    let (&first, rest) = idx.split_first()?;
    if first.type_of().is_vector()
        || first.const_int_value().is_some()
        || !rest.iter().all(|&i| i.const_int_value().is_some())
    {
        return None;
    }
    let mut tail = vec![ll.i64c(0)];
    tail.extend_from_slice(rest);
    ll.const_gep_offset(src, &tail)
}

/// Whether a call lets the stretch go on: an `llvm.*` intrinsic that
/// returns (no intrinsic frees memory).
fn call_keeps_stretch<'m>(inst: V<'m>) -> bool {
    let callee = inst.called_value();
    callee.is_function()
        && callee.name().starts_with("llvm.")
        && !callee.func().has_attr(AttrAt::Function, "noreturn")
        && !inst.call_has_attr(AttrAt::Function, "noreturn")
}

/// The widened checks of function `f`: for each load or store followed, in
/// its stretch, by accesses through the same root.
pub(super) fn plan<'m>(ll: &Ll<'m>, f: V<'m>) -> HashMap<V<'m>, Covered<'m>> {
    let mut out = HashMap::new();
    for b in f.func().blocks() {
        let mut stretch: Vec<(Root<'m>, Access<'m>)> = Vec::new();
        for inst in b.instructions() {
            let access = match inst.opcode() {
                Opcode::LLVMLoad => {
                    let ty = inst.type_of();
                    Some((inst.operand(0), ty, false))
                }
                Opcode::LLVMStore => {
                    let ty = inst.operand(0).type_of();
                    Some((inst.operand(1), ty, true))
                }
                Opcode::LLVMCall if call_keeps_stretch(inst) => None,
                Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr => {
                    widen_stretch(&stretch, &mut out);
                    stretch.clear();
                    None
                }
                _ => None,
            };
            if let Some((p, ty, write)) = access {
                let (root, off) = root_of(ll, p);
                let size = ll.store_size_of(ty);
                let align = required_align(ty, inst.alignment());
                stretch.push((
                    root,
                    Access {
                        inst,
                        off,
                        size,
                        align,
                        write,
                    },
                ));
            }
        }
        widen_stretch(&stretch, &mut out);
    }
    out
}

/// Records, for each access of `stretch` (in order) that later accesses
/// through its root follow, the span they make together.
fn widen_stretch<'m>(stretch: &[(Root<'m>, Access<'m>)], out: &mut HashMap<V<'m>, Covered<'m>>) {
    for (i, &(root, a)) in stretch.iter().enumerate() {
        if !fits(a.off, a.size as i64) {
            continue;
        }
        let (mut lo, mut hi) = (a.off, a.off + a.size as i64);
        let mut later = Vec::new();
        for &(r, b) in &stretch[i + 1..] {
            if r != root || later.len() == MAX_COVERED {
                continue;
            }
            let (nlo, nhi) = (lo.min(b.off), hi.max(b.off + b.size as i64));
            if !fits(b.off, b.size as i64) || nhi - nlo >= MAX_SPAN {
                continue;
            }
            (lo, hi) = (nlo, nhi);
            later.push(b);
        }
        if later.is_empty() || (lo, hi) == (a.off, a.off + a.size as i64) {
            continue;
        }
        out.insert(
            a.inst,
            Covered {
                root,
                own_off: a.off,
                lo,
                hi,
                later,
            },
        );
    }
}

fn fits(off: i64, size: i64) -> bool {
    off.abs() < MAX_SPAN && (0..MAX_SPAN).contains(&size)
}
