//! Escaping allocas created where they are first needed, not at entry
//! (frame objects too: their storage is in the frame, but writing the
//! header and zeroing payload and shadow waits for the same point).
//!
//! An alloca whose address escapes is a zeroed GC object
//! (`gimso_alloc_stack`). Created in the prologue, it costs an allocation
//! (and later collector work) on every call, even when the path that needs
//! it is not taken: a Lua opcode's temporary `TValue` in `luaV_execute`,
//! the slow-path key of `luaH_get`, SQLite's per-opcode locals in
//! `sqlite3VdbeExec`. Instead each one is created at the nearest common
//! dominator of its uses, just before the first use there. A frame slot
//! (null at entry) remembers it, so a creation point inside a loop
//! allocates once per call and later iterations reuse the object, exactly
//! as they reused the one made at entry. The back half's `mem2reg` turns the
//! slot into a register, and where the point is in no loop the null test
//! folds away.
//!
//! Two kinds stay at entry: allocas used in the entry block (nothing to
//! gain), and every alloca of a function that calls `setjmp` or any other
//! `returns_twice` function: `longjmp` restores the registers of the
//! `setjmp` moment, which could bring back a null slot after the object
//! was made and silently replace a local with a fresh zeroed one.
//! Lifetime markers are not uses: the object outlives them anyway.

use crate::llvm::{AttrAt, IntPredicate, Opcode, ValueKind};
use std::collections::{HashMap, HashSet};

use super::super::cfg::Cfg;
use super::super::consts::Tx;
use super::super::layout::has_ptr;
use super::super::ll::{Ll, V};
use super::super::runtime::call;
use super::FnTx;
use super::unwinding::SETJMP_NAMES;
use crate::escape::AllocaHome;

/// Where the lazily created allocas of one function are made (part of
/// the function's plan).
#[derive(Default)]
pub(super) struct LazyAllocas<'m> {
    /// The allocas made lazily.
    pub allocas: HashSet<V<'m>>,
    /// Old instruction → the allocas to create just before it.
    pub before: HashMap<V<'m>, Vec<V<'m>>>,
    /// Lazy alloca → its constant-offset GEPs, made right after it (each
    /// after its base).
    pub made_with: HashMap<V<'m>, Vec<V<'m>>>,
    /// Every GEP of `made_with`: skipped where it stands.
    pub derived: HashSet<V<'m>>,
}

/// Whether `inst` calls `setjmp` or another function that returns twice.
fn returns_twice<'m>(inst: V<'m>) -> bool {
    if !matches!(inst.opcode(), Opcode::LLVMCall | Opcode::LLVMInvoke) {
        return false;
    }
    if inst.call_has_attr(AttrAt::Function, "returns_twice") {
        return true;
    }
    let callee = inst.called_value();
    callee.is_function()
        && (callee.func().has_attr(AttrAt::Function, "returns_twice")
            || SETJMP_NAMES.contains(&callee.name().as_str())
            || callee.name() == "vfork")
}

/// Whether `inst` is a `getelementptr` with constant indices whose base is
/// `base` (and not a vector of addresses).
fn is_field_address<'m>(inst: V<'m>, base: V<'m>) -> bool {
    inst.opcode() == Opcode::LLVMGetElementPtr
        && inst.operand(0) == base
        && !inst.type_of().is_vector()
        && (1..inst.num_operands()).all(|i| inst.operand(i).const_int_value().is_some())
}

/// `a` and every constant-offset GEP computed from it (transitively), each
/// after its base.
fn with_field_addresses<'m>(a: V<'m>) -> Vec<V<'m>> {
    let mut values = vec![a];
    let mut k = 0;
    while k < values.len() {
        let v = values[k];
        k += 1;
        for u in v.users() {
            if is_field_address(u, v) && !values.contains(&u) {
                values.push(u);
            }
        }
    }
    values
}

/// Whether `inst` is a call of an `llvm.lifetime.*` marker.
fn is_lifetime_marker<'m>(inst: V<'m>) -> bool {
    if inst.opcode() != Opcode::LLVMCall {
        return false;
    }
    let callee = inst.called_value();
    callee.is_function() && callee.name().starts_with("llvm.lifetime.")
}

/// Decides, for every escaping static alloca of the entry block, where
/// it is created (module docs).
pub(super) fn plan<'m>(cfg: &Cfg<'m>, homes: &HashMap<V<'m>, AllocaHome>) -> LazyAllocas<'m> {
    let mut out = LazyAllocas::default();
    let order = &cfg.order;
    let Some(&entry) = order.first() else {
        return out;
    };
    let blocks_insts: Vec<Vec<V<'m>>> = order.iter().map(|&b| b.instructions()).collect();
    if blocks_insts.iter().flatten().any(|&i| returns_twice(i)) {
        return out;
    }
    let index = &cfg.index;
    for &a in &blocks_insts[0] {
        if a.opcode() != Opcode::LLVMAlloca || a.operand(0).const_int_value().is_none() {
            continue;
        }
        // Frame objects of every size: even a 16-byte one costs five
        // instructions in the prologue, against a slot cleared there
        // and a null test where it is made. QuickJS's interpreter
        // function has 35 such locals (per-opcode `JSValue`
        // temporaries whose address goes to helpers), of which a call
        // uses a few: fib(20) ran 3.3% fewer instructions with them
        // made lazily (SQLite 0.1% fewer).
        if !matches!(homes.get(&a), Some(AllocaHome::Heap(_) | AllocaHome::Frame)) {
            continue;
        }
        // Every use as (block index, instruction before which it needs
        // the object): a phi needs it at the end of its incoming block.
        // Constant-offset GEPs of it (which LLVM hoists to the entry
        // block) are made with it, and their uses count instead.
        let values = with_field_addresses(a);
        let mut points: Vec<(usize, V<'m>)> = Vec::new();
        for &v in &values {
            for user in v.users() {
                if is_lifetime_marker(user) || is_field_address(user, v) {
                    continue;
                }
                if user.is_phi() {
                    for (x, b) in user.incoming() {
                        if x == v {
                            if let (Some(&bi), Some(t)) = (index.get(&b), b.terminator()) {
                                points.push((bi, t));
                            }
                        }
                    }
                } else if let Some(&bi) = index.get(&user.block()) {
                    points.push((bi, user));
                }
            }
        }
        let Some(dom) = points
            .iter()
            .map(|&(b, _)| b)
            .reduce(|x, y| cfg.common_dominator(x, y))
        else {
            continue; // unused, or used only in unreachable code
        };
        if order[dom] == entry {
            continue;
        }
        let here = &blocks_insts[dom];
        let first = points
            .iter()
            .filter(|&&(b, _)| b == dom)
            .filter_map(|&(_, i)| here.iter().position(|&x| x == i))
            .min();
        let at = match first {
            Some(pos) => here[pos],
            None => match order[dom].terminator() {
                Some(t) => t,
                None => continue,
            },
        };
        out.before.entry(at).or_default().push(a);
        out.allocas.insert(a);
        let derived = values[1..].to_vec();
        out.derived.extend(derived.iter().copied());
        out.made_with.insert(a, derived);
    }
    out
}

impl<'m> FnTx<'_, 'm> {
    /// Whether `inst` is translated with a lazily created alloca rather
    /// than where it stands: the alloca itself (it gets no prologue
    /// object), a GEP made with it, or its zeroing memset.
    pub(super) fn made_elsewhere(&self, inst: V<'m>) -> bool {
        self.plan.lazy.allocas.contains(&inst)
            || self.plan.lazy.derived.contains(&inst)
            || self.lazy_done.contains(&inst)
    }

    /// Whether `inst` zeroes (part of) an escaping alloca, in the
    /// alloca's own block, before anything else touched it: the alloca's
    /// instruction makes a fresh zeroed object each time it runs, so the
    /// memset (clang's `-ftrivial-auto-var-init=zero` at the declaration)
    /// can go. Lazily made allocas are handled at their creation.
    pub(super) fn zeroes_fresh_alloca(&self, inst: V<'m>) -> bool {
        let ll = &self.m.ll;
        let Some((a, _)) = zero_fill(ll, inst) else {
            return false;
        };
        if a.value_kind() != ValueKind::LLVMInstructionValueKind
            || a.opcode() != Opcode::LLVMAlloca
            || self.made_elsewhere(a)
            || !matches!(
                self.plan.homes.get(&a),
                Some(AllocaHome::Heap(_) | AllocaHome::Frame)
            )
            || a.operand(0).const_int_value().is_none()
            || !zeroes_within(ll, inst, a)
        {
            return false;
        }
        let block = inst.block();
        if a.block() != block {
            return false;
        }
        // Nothing between them may use the alloca (GEPs only compute
        // addresses; their users count).
        let touching = with_field_addresses(a);
        for i in block.instructions() {
            if i == inst {
                return true;
            }
            if is_lifetime_marker(i) || i.opcode() == Opcode::LLVMGetElementPtr {
                continue;
            }
            let n = i.num_operands();
            if (0..n).any(|o| touching.contains(&i.operand(o))) {
                return false;
            }
        }
        false
    }

    /// In the prologue: a null frame slot for every lazy alloca.
    pub(super) fn lazy_alloca_slots(&mut self) {
        let allocas = self.in_old_order(self.plan.lazy.allocas.iter().copied().collect());
        for a in allocas {
            let ll = &self.m.ll;
            let slot = ll.entry_alloca(self.new, ll.ptr());
            ll.store(ll.null_ptr(), slot, 8);
            self.lazy_slots.insert(a, slot);
        }
    }

    /// Before translating old instruction `inst`: creates the lazy allocas
    /// planned there, unless this call already made them.
    /// A fresh zeroed object for alloca `a`: a GC allocation, or for a
    /// frame object its storage in the frame made an object (header
    /// written, payload and shadow zeroed).
    fn new_alloca_object(&mut self, a: V<'m>, size: V<'m>, align: V<'m>) -> V<'m> {
        if let Some(&storage) = self.frame_storage.get(&a) {
            let bytes = alloca_bytes(&self.m.ll, a);
            return self.init_frame_object(storage, bytes);
        }
        let ll = &self.m.ll;
        let r = call(ll, alloc_stack_fn(a), &[size, align]);
        ll.extract_value(r, 1)
    }

    pub(super) fn create_lazy_allocas(&mut self, inst: V<'m>) {
        let Some(allocas) = self.plan.lazy.before.get(&inst).cloned() else {
            return;
        };
        for a in allocas {
            let slot = self.lazy_slots[&a];
            let ll = &self.m.ll;
            let size = ll.i64c(alloca_bytes(ll, a));
            let align = ll.i64c(stack_align(ll, a));
            let made = ll.load(ll.ptr(), slot, 8);
            let ok = ll.icmp(IntPredicate::LLVMIntNE, made, ll.null_ptr());
            if zeroes_within(ll, inst, a) {
                // `-ftrivial-auto-var-init=zero` at the declaration: a
                // fresh object is zero already, so only a reused one (a
                // later iteration) is cleared.
                let fresh = ll.append_block(self.new, "");
                let reuse = ll.append_block(self.new, "");
                let join = ll.append_block(self.new, "");
                ll.cond_br(ok, reuse, fresh);
                ll.position_at_end(fresh);
                let obj = self.new_alloca_object(a, size, align);
                let ll = &self.m.ll;
                ll.store(obj, slot, 8);
                ll.br(join);
                ll.position_at_end(reuse);
                self.note_stack_object(Some(made), alloca_bytes(ll, a));
                if self.frame_storage.contains_key(&a) {
                    self.note_frame_shadow(made, alloca_bytes(&self.m.ll, a));
                }
                self.set(
                    a,
                    Tx {
                        int: made,
                        cap: Some(made),
                    },
                );
                // The fill may start at a field's address (`BuffFS`'s after
                // its first member): the addresses derived from the local
                // are made here from the reused object too (and again
                // after the join from the merged one).
                self.make_derived_addresses(a);
                self.translate(inst);
                self.m.ll.br(join);
                self.m.ll.position_at_end(join);
                self.lazy_done.insert(inst);
                self.m.stats.fresh_zeroings += 1;
            } else {
                self.guard(ok, |s| {
                    let obj = s.new_alloca_object(a, size, align);
                    s.m.ll.store(obj, slot, 8);
                    false
                });
            }
            let ll = &self.m.ll;
            let obj = ll.load(ll.ptr(), slot, 8);
            let bytes = alloca_bytes(ll, a);
            self.note_stack_object(Some(obj), bytes);
            if self.frame_storage.contains_key(&a) {
                self.note_frame_shadow(obj, bytes);
                self.m.stats.frame_objects += 1;
            } else {
                self.m.stats.heap_allocas += 1;
            }
            self.m.stats.lazy_allocas += 1;
            self.set(
                a,
                Tx {
                    int: obj,
                    cap: Some(obj),
                },
            );
            self.make_derived_addresses(a);
        }
    }

    /// Translates the addresses derived from lazy alloca `a` (its
    /// constant-offset GEPs) from `a`'s current value.
    fn make_derived_addresses(&mut self, a: V<'m>) {
        for gep in self
            .plan
            .lazy
            .made_with
            .get(&a)
            .cloned()
            .unwrap_or_default()
        {
            self.tx_gep(gep);
        }
    }
}

/// The bytes of static alloca `a`.
pub(super) fn alloca_bytes<'m>(ll: &Ll<'m>, a: V<'m>) -> u64 {
    let count = a.operand(0).const_int_value().unwrap_or(1);
    ll.size_of(a.allocated_type()) * count
}

/// Whether `inst` is a non-volatile `memset` to zero of a constant range
/// inside alloca `a` (the whole of it, or the part after a field the
/// program sets itself, as `-ftrivial-auto-var-init=zero` leaves Lua's
/// `BuffFS { L; …}`): on a fresh, zeroed object it changes nothing.
fn zeroes_within<'m>(ll: &Ll<'m>, inst: V<'m>, a: V<'m>) -> bool {
    zero_fill(ll, inst).is_some_and(|(base, (off, n))| {
        base == a
            && off
                .checked_add(n)
                .is_some_and(|end| end <= alloca_bytes(ll, a))
    })
}

/// For a non-volatile `memset` to zero of constant length whose address is
/// a value or a chain of constant-index GEPs from it: that value, and the
/// filled bytes' offset from it and count.
fn zero_fill<'m>(ll: &Ll<'m>, inst: V<'m>) -> Option<(V<'m>, (u64, u64))> {
    if inst.opcode() != Opcode::LLVMCall || inst.num_operands() < 4 {
        return None;
    }
    let callee = inst.called_value();
    if !(callee.is_function() && callee.name().starts_with("llvm.memset.")) {
        return None;
    }
    let (Some(0), Some(n), Some(0)) = (
        inst.operand(1).const_int_value(),
        inst.operand(2).const_int_value(),
        inst.operand(3).const_int_value(),
    ) else {
        return None;
    };
    let (base, off) = constant_offset(ll, inst.operand(0))?;
    Some((base, (u64::try_from(off).ok()?, n)))
}

/// `p` as a base value plus a constant byte offset: the base of its chain
/// of constant-index GEPs (itself, offset 0, when it is no GEP).
fn constant_offset<'m>(ll: &Ll<'m>, p: V<'m>) -> Option<(V<'m>, i64)> {
    if p.value_kind() != ValueKind::LLVMInstructionValueKind
        || p.opcode() != Opcode::LLVMGetElementPtr
    {
        return Some((p, 0));
    }
    if p.type_of().is_vector() {
        return None;
    }
    let idx: Vec<V<'m>> = (1..p.num_operands()).map(|i| p.operand(i)).collect();
    let here = ll.const_gep_offset(p.gep_source_type(), &idx)?;
    let (base, off) = constant_offset(ll, p.operand(0))?;
    Some((base, off.checked_add(here)?))
}

/// The payload alignment of alloca `a`'s object.
pub(super) fn stack_align<'m>(ll: &Ll<'m>, a: V<'m>) -> u64 {
    let ty = a.allocated_type();
    u64::from(a.alignment()).max(ll.align_of(ty)).max(16)
}

/// The runtime allocator for the object of escaping alloca `a`: with its
/// shadow words inline when its type holds pointers (its first pointer
/// store then allocates no separate aux object).
pub(super) fn alloc_stack_fn<'m>(a: V<'m>) -> &'static str {
    if has_ptr(a.allocated_type()) {
        "gimso_alloc_stack_ptrs"
    } else {
        "gimso_alloc_stack"
    }
}
