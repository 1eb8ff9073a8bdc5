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

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::LLVMIntPredicate;
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::llvm_sys::core::{LLVMIsAFunction, LLVMIsAPHINode};

use super::super::cfg::Cfg;
use super::super::consts::Tx;
use super::super::layout::has_ptr;
use super::super::ll::{Ll, V};
use super::super::runtime::call;
use super::FnTx;
use super::unwinding::SETJMP_NAMES;
use crate::escape::AllocaHome;

/// Where the lazily created allocas of one function are made.
#[derive(Default)]
pub(super) struct LazyAllocas {
    /// Old instruction → the allocas to create just before it.
    pub before: HashMap<V, Vec<V>>,
    /// Lazy alloca → its frame slot (set by the prologue).
    pub slots: HashMap<V, V>,
    /// Lazy alloca → its constant-offset GEPs, made right after it (each
    /// after its base).
    pub made_with: HashMap<V, Vec<V>>,
    /// Every GEP of `made_with`: skipped where it stands.
    pub derived: HashSet<V>,
    /// Zeroing memsets translated with their alloca's creation.
    pub done: HashSet<V>,
}

/// Whether `inst` calls `setjmp` or another function that returns twice.
fn returns_twice(ll: &Ll, inst: V) -> bool {
    if !matches!(
        ll.opcode(inst),
        LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke
    ) {
        return false;
    }
    if ll.call_has_attr(inst, "returns_twice") {
        return true;
    }
    let callee = ll.called_value(inst);
    ll.is_a(callee, LLVMIsAFunction)
        && (ll.fn_has_attr(callee, "returns_twice")
            || SETJMP_NAMES.contains(&ll.name(callee).as_str())
            || ll.name(callee) == "vfork")
}

/// Whether `inst` is a `getelementptr` with constant indices whose base is
/// `base` (and not a vector of addresses).
fn is_field_address(ll: &Ll, inst: V, base: V) -> bool {
    ll.opcode(inst) == LLVMOpcode::LLVMGetElementPtr
        && ll.operand(inst, 0) == base
        && !ll.is_vector(ll.type_of(inst))
        && (1..ll.num_operands(inst)).all(|i| ll.const_int_value(ll.operand(inst, i)).is_some())
}

/// `a` and every constant-offset GEP computed from it (transitively), each
/// after its base.
fn with_field_addresses(ll: &Ll, a: V) -> Vec<V> {
    let mut values = vec![a];
    let mut k = 0;
    while k < values.len() {
        let v = values[k];
        k += 1;
        for u in ll.users(v) {
            if is_field_address(ll, u, v) && !values.contains(&u) {
                values.push(u);
            }
        }
    }
    values
}

/// Whether `inst` is a call of an `llvm.lifetime.*` marker.
fn is_lifetime_marker(ll: &Ll, inst: V) -> bool {
    if ll.opcode(inst) != LLVMOpcode::LLVMCall {
        return false;
    }
    let callee = ll.called_value(inst);
    ll.is_a(callee, LLVMIsAFunction) && ll.name(callee).starts_with("llvm.lifetime.")
}

impl FnTx<'_, '_, '_> {
    /// Decides, for every escaping static alloca of the entry block, where
    /// it is created (module docs).
    pub(super) fn plan_lazy_allocas(&mut self, cfg: &Cfg) {
        let order = &cfg.order;
        let ll = &self.m.ll;
        let Some(&entry) = order.first() else { return };
        let blocks_insts: Vec<Vec<V>> = order.iter().map(|&b| ll.instructions(b)).collect();
        if blocks_insts.iter().flatten().any(|&i| returns_twice(ll, i)) {
            return;
        }
        let index = &cfg.index;
        for &a in &blocks_insts[0] {
            if ll.opcode(a) != LLVMOpcode::LLVMAlloca
                || ll.const_int_value(ll.operand(a, 0)).is_none()
            {
                continue;
            }
            // Frame objects of every size: even a 16-byte one costs five
            // instructions in the prologue, against a slot cleared there
            // and a null test where it is made. QuickJS's interpreter
            // function has 35 such locals (per-opcode `JSValue`
            // temporaries whose address goes to helpers), of which a call
            // uses a few: fib(20) ran 3.3% fewer instructions with them
            // made lazily (SQLite 0.1% fewer).
            if !matches!(
                self.homes.get(&a),
                Some(AllocaHome::Heap(_) | AllocaHome::Frame)
            ) {
                continue;
            }
            // Every use as (block index, instruction before which it needs
            // the object): a phi needs it at the end of its incoming block.
            // Constant-offset GEPs of it (which LLVM hoists to the entry
            // block) are made with it, and their uses count instead.
            let values = with_field_addresses(ll, a);
            let mut points: Vec<(usize, V)> = Vec::new();
            for &v in &values {
                for user in ll.users(v) {
                    if is_lifetime_marker(ll, user) || is_field_address(ll, user, v) {
                        continue;
                    }
                    if ll.is_a(user, LLVMIsAPHINode) {
                        for (x, b) in ll.incoming(user) {
                            if x == v {
                                if let (Some(&bi), Some(t)) = (index.get(&b), ll.terminator(b)) {
                                    points.push((bi, t));
                                }
                            }
                        }
                    } else if let Some(&bi) = index.get(&ll.inst_block(user)) {
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
                None => match ll.terminator(order[dom]) {
                    Some(t) => t,
                    None => continue,
                },
            };
            self.lazy.before.entry(at).or_default().push(a);
            self.lazy.slots.insert(a, std::ptr::null_mut());
            let derived = values[1..].to_vec();
            self.lazy.derived.extend(derived.iter().copied());
            self.lazy.made_with.insert(a, derived);
        }
    }

    /// Whether `inst` is translated with a lazily created alloca rather
    /// than where it stands: the alloca itself (it gets no prologue
    /// object), a GEP made with it, or its zeroing memset.
    pub(super) fn made_elsewhere(&self, inst: V) -> bool {
        self.lazy.slots.contains_key(&inst)
            || self.lazy.derived.contains(&inst)
            || self.lazy.done.contains(&inst)
    }

    /// Whether `inst` zeroes (part of) an escaping alloca, in the
    /// alloca's own block, before anything else touched it: the alloca's
    /// instruction makes a fresh zeroed object each time it runs, so the
    /// memset (clang's `-ftrivial-auto-var-init=zero` at the declaration)
    /// can go. Lazily made allocas are handled at their creation.
    pub(super) fn zeroes_fresh_alloca(&self, inst: V) -> bool {
        let ll = &self.m.ll;
        let Some((a, _)) = zero_fill(ll, inst) else {
            return false;
        };
        if ll.value_kind(a) != inkwell::llvm_sys::LLVMValueKind::LLVMInstructionValueKind
            || ll.opcode(a) != LLVMOpcode::LLVMAlloca
            || self.made_elsewhere(a)
            || !matches!(
                self.homes.get(&a),
                Some(AllocaHome::Heap(_) | AllocaHome::Frame)
            )
            || ll.const_int_value(ll.operand(a, 0)).is_none()
            || !zeroes_within(ll, inst, a)
        {
            return false;
        }
        let block = ll.inst_block(inst);
        if ll.inst_block(a) != block {
            return false;
        }
        // Nothing between them may use the alloca (GEPs only compute
        // addresses; their users count).
        let touching = with_field_addresses(ll, a);
        for i in ll.instructions(block) {
            if i == inst {
                return true;
            }
            if is_lifetime_marker(ll, i) || ll.opcode(i) == LLVMOpcode::LLVMGetElementPtr {
                continue;
            }
            let n = ll.num_operands(i);
            if (0..n).any(|o| touching.contains(&ll.operand(i, o))) {
                return false;
            }
        }
        false
    }

    /// In the prologue: a null frame slot for every lazy alloca.
    pub(super) fn lazy_alloca_slots(&mut self) {
        let allocas = self.in_old_order(self.lazy.slots.keys().copied().collect());
        for a in allocas {
            let ll = &self.m.ll;
            let slot = ll.entry_alloca(self.new, ll.ptr());
            ll.store(ll.null_ptr(), slot, 8);
            self.lazy.slots.insert(a, slot);
        }
    }

    /// Before translating old instruction `inst`: creates the lazy allocas
    /// planned there, unless this call already made them.
    /// A fresh zeroed object for alloca `a`: a GC allocation, or for a
    /// frame object its storage in the frame made an object (header
    /// written, payload and shadow zeroed).
    fn new_alloca_object(&mut self, a: V, size: V, align: V) -> V {
        if let Some(&storage) = self.frame_storage.get(&a) {
            let bytes = alloca_bytes(&self.m.ll, a);
            return self.init_frame_object(storage, bytes);
        }
        let ll = &self.m.ll;
        let r = call(ll, alloc_stack_fn(ll, a), &[size, align]);
        ll.extract_value(r, 1)
    }

    pub(super) fn create_lazy_allocas(&mut self, inst: V) {
        let Some(allocas) = self.lazy.before.get(&inst).cloned() else {
            return;
        };
        for a in allocas {
            let slot = self.lazy.slots[&a];
            let ll = &self.m.ll;
            let size = ll.i64c(alloca_bytes(ll, a));
            let align = ll.i64c(stack_align(ll, a));
            let made = ll.load(ll.ptr(), slot, 8);
            let ok = ll.icmp(LLVMIntPredicate::LLVMIntNE, made, ll.null_ptr());
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
                self.lazy.done.insert(inst);
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
    fn make_derived_addresses(&mut self, a: V) {
        for gep in self.lazy.made_with.get(&a).cloned().unwrap_or_default() {
            self.tx_gep(gep);
        }
    }
}

/// The bytes of static alloca `a`.
pub(super) fn alloca_bytes(ll: &Ll, a: V) -> u64 {
    let count = ll.const_int_value(ll.operand(a, 0)).unwrap_or(1);
    ll.size_of(ll.allocated_type(a)) * count
}

/// Whether `inst` is a non-volatile `memset` to zero of a constant range
/// inside alloca `a` (the whole of it, or the part after a field the
/// program sets itself, as `-ftrivial-auto-var-init=zero` leaves Lua's
/// `BuffFS { L; …}`): on a fresh, zeroed object it changes nothing.
fn zeroes_within(ll: &Ll, inst: V, a: V) -> bool {
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
fn zero_fill(ll: &Ll, inst: V) -> Option<(V, (u64, u64))> {
    if ll.opcode(inst) != LLVMOpcode::LLVMCall || ll.num_operands(inst) < 4 {
        return None;
    }
    let callee = ll.called_value(inst);
    if !(ll.is_a(callee, LLVMIsAFunction) && ll.name(callee).starts_with("llvm.memset.")) {
        return None;
    }
    let (Some(0), Some(n), Some(0)) = (
        ll.const_int_value(ll.operand(inst, 1)),
        ll.const_int_value(ll.operand(inst, 2)),
        ll.const_int_value(ll.operand(inst, 3)),
    ) else {
        return None;
    };
    let (base, off) = constant_offset(ll, ll.operand(inst, 0))?;
    Some((base, (u64::try_from(off).ok()?, n)))
}

/// `p` as a base value plus a constant byte offset: the base of its chain
/// of constant-index GEPs (itself, offset 0, when it is no GEP).
fn constant_offset(ll: &Ll, p: V) -> Option<(V, i64)> {
    if ll.value_kind(p) != inkwell::llvm_sys::LLVMValueKind::LLVMInstructionValueKind
        || ll.opcode(p) != LLVMOpcode::LLVMGetElementPtr
    {
        return Some((p, 0));
    }
    if ll.is_vector(ll.type_of(p)) {
        return None;
    }
    let idx: Vec<V> = (1..ll.num_operands(p)).map(|i| ll.operand(p, i)).collect();
    let here = ll.const_gep_offset(ll.gep_source_type(p), &idx)?;
    let (base, off) = constant_offset(ll, ll.operand(p, 0))?;
    Some((base, off.checked_add(here)?))
}

/// The payload alignment of alloca `a`'s object.
pub(super) fn stack_align(ll: &Ll, a: V) -> u64 {
    let ty = ll.allocated_type(a);
    u64::from(ll.alignment(a)).max(ll.align_of(ty)).max(16)
}

/// The runtime allocator for the object of escaping alloca `a`: with its
/// shadow words inline when its type holds pointers (its first pointer
/// store then allocates no separate aux object).
pub(super) fn alloc_stack_fn(ll: &Ll, a: V) -> &'static str {
    if has_ptr(ll, ll.allocated_type(a)) {
        "gimso_alloc_stack_ptrs"
    } else {
        "gimso_alloc_stack"
    }
}
