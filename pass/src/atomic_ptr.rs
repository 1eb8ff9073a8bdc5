//! C11 pointer atomics as pointer atomics.
//!
//! clang lowers `atomic_compare_exchange(&p, &expected, q)` on an
//! `_Atomic(T *)` (and atomic load, store and exchange) to `i64` atomics
//! whose operands go through stack temporaries: `store ptr q, ptr %tmp;
//! %n = load i64, ptr %tmp; cmpxchg ptr @p, i64 %e, i64 %n`. Under gimso an
//! integer atomic moves only the intval, so the capability would be lost
//! (the spec's pointer atomics need `ptr`-typed operations). This rewrite,
//! run on clang's unoptimised IR, turns such 64-bit integer atomics back
//! into pointer atomics when their values come from (or go to) a slot that
//! also holds pointers: the value is loaded as `ptr` from the temporary and
//! results are stored back as `ptr`, so capabilities travel with them.

use std::collections::HashSet;

use inkwell::module::Module;

use crate::llvm::{Opcode, Ordering, RmwOp, TypeKind, ValueKind};

use crate::translate::ll::{Ll, V};

/// Rewrites the function bodies of `module`; returns how many atomics
/// became pointer atomics.
pub fn rewrite(module: &Module<'_>) -> usize {
    let ll = Ll::new(module);
    let mut n = 0;
    for f in ll.functions() {
        n += rewrite_function(&ll, *f);
    }
    n
}

fn is_i64<'m>(v: V<'m>) -> bool {
    let t = v.type_of();
    t.kind() == TypeKind::LLVMIntegerTypeKind && t.int_width() == 64
}

/// `%v = load i64, ptr %slot` with `%slot` among `slots`: the slot.
fn slot_load<'m>(v: V<'m>, slots: &HashSet<V<'m>>) -> Option<V<'m>> {
    if v.value_kind() != ValueKind::LLVMInstructionValueKind || v.opcode() != Opcode::LLVMLoad {
        return None;
    }
    let p = v.operand(0);
    slots.contains(&p).then_some(p)
}

fn rewrite_function<'m>(ll: &Ll<'m>, f: V<'m>) -> usize {
    // Slots written as pointers, and slots read as pointers.
    let mut ptr_stored = HashSet::new();
    let mut ptr_loaded = HashSet::new();
    let mut atomics = Vec::new();
    for b in f.func().blocks() {
        for i in b.instructions() {
            match i.opcode() {
                Opcode::LLVMStore if i.operand(0).type_of().is_ptr() => {
                    ptr_stored.insert(i.operand(1));
                }
                Opcode::LLVMLoad if i.type_of().is_ptr() => {
                    ptr_loaded.insert(i.operand(0));
                }
                Opcode::LLVMAtomicCmpXchg | Opcode::LLVMAtomicRMW => atomics.push(i),
                Opcode::LLVMLoad | Opcode::LLVMStore
                    if i.ordering() != Ordering::LLVMAtomicOrderingNotAtomic =>
                {
                    atomics.push(i)
                }
                _ => {}
            }
        }
    }
    let mut n = 0;
    for i in atomics {
        let done = match i.opcode() {
            Opcode::LLVMAtomicCmpXchg => cmpxchg(ll, i, &ptr_stored),
            Opcode::LLVMAtomicRMW => xchg(ll, i, &ptr_stored),
            Opcode::LLVMLoad => load(ll, i, &ptr_loaded),
            _ => store(ll, i, &ptr_stored),
        };
        n += usize::from(done);
    }
    n
}

/// The pointer form of i64 value `v`: reloaded as `ptr` from its slot, or
/// `inttoptr` (capability by inference) otherwise. Built before `at`.
fn as_ptr<'m>(ll: &Ll<'m>, v: V<'m>, slots: &HashSet<V<'m>>, at: V<'m>) -> V<'m> {
    position_before(ll, at);
    match slot_load(v, slots) {
        Some(slot) => ll.load(ll.ptr(), slot, 8),
        None => ll.inttoptr(v, ll.ptr()),
    }
}

fn position_before<'m>(ll: &Ll<'m>, at: V<'m>) {
    ll.position_before(at);
}

/// Replaces the i64 result `old` by pointer `new`: stores of it store the
/// pointer; other uses get its `ptrtoint`.
fn replace_result<'m>(ll: &Ll<'m>, old: V<'m>, new: V<'m>) {
    let uses = old.users();
    let mut other = false;
    for user in uses {
        if user.opcode() == Opcode::LLVMStore && user.operand(0) == old {
            user.set_operand(0, new);
        } else {
            other = true;
        }
    }
    if other {
        // After `new`'s definition: right before the first remaining user
        // is not known to dominate, so after the defining instruction.
        // `new` is followed by another instruction: its block has a
        // terminator after it.
        let next = new.next_instruction().expect("a terminator after it");
        position_before(ll, next);
        let i = ll.ptrtoint(new, ll.i64());
        // Restore the operand of our own ptrtoint after the RAUW.
        old.replace_all_uses_with(i);
        i.set_operand(0, new);
    }
}

fn cmpxchg<'m>(ll: &Ll<'m>, i: V<'m>, slots: &HashSet<V<'m>>) -> bool {
    let (p, e, nv) = (i.operand(0), i.operand(1), i.operand(2));
    if !is_i64(nv) || slot_load(nv, slots).is_none() {
        return false;
    }
    let np = as_ptr(ll, nv, slots, i);
    let ep = as_ptr(ll, e, &HashSet::new(), i);
    // Builder positioned before `i`; orderings copied from it.
    let new = ll.cmpxchg(p, ep, np, i.cmpxchg_orderings());
    new.set_cmpxchg_weak(i.cmpxchg_weak());
    new.set_volatile(i.is_volatile());
    new.set_alignment(8);
    // Users are extractvalue 0 (old value) and 1 (success).
    for user in i.users() {
        if user.opcode() != Opcode::LLVMExtractValue {
            continue;
        }
        let Some(&idx) = user.indices().first() else {
            continue;
        };
        position_before(ll, user);
        let part = ll.extract_value(new, idx);
        if idx == 0 {
            replace_result(ll, user, part);
        } else {
            user.replace_all_uses_with(part);
        }
        // SAFETY: `user` has no uses left, and its handle is dropped here.
        unsafe { user.erase() };
    }
    if !i.has_uses() {
        // SAFETY: no uses remain, and the caller drops its handle.
        unsafe { i.erase() };
    }
    true
}

fn xchg<'m>(ll: &Ll<'m>, i: V<'m>, slots: &HashSet<V<'m>>) -> bool {
    let op = i.rmw_op();
    let v = i.operand(1);
    if op != RmwOp::LLVMAtomicRMWBinOpXchg || !is_i64(v) || slot_load(v, slots).is_none() {
        return false;
    }
    let vp = as_ptr(ll, v, slots, i);
    let p = i.operand(0);
    // Builder positioned before `i`; ordering copied.
    let new = ll.atomic_rmw(op, p, vp, i.ordering());
    new.set_alignment(8);
    replace_result(ll, i, new);
    if !i.has_uses() {
        // SAFETY: no uses remain, and the caller drops its handle.
        unsafe { i.erase() };
    }
    true
}

fn load<'m>(ll: &Ll<'m>, i: V<'m>, ptr_loaded: &HashSet<V<'m>>) -> bool {
    if !is_i64(i) {
        return false;
    }
    // Only when the value is parked in a slot that is read as a pointer.
    let mut parked = false;
    for user in i.users() {
        if user.opcode() == Opcode::LLVMStore
            && user.operand(0) == i
            && ptr_loaded.contains(&user.operand(1))
        {
            parked = true;
        }
    }
    if !parked {
        return false;
    }
    position_before(ll, i);
    let new = ll.load(ll.ptr(), i.operand(0), 8);
    new.set_ordering(i.ordering());
    new.set_volatile(i.is_volatile());
    replace_result(ll, i, new);
    if !i.has_uses() {
        // SAFETY: no uses remain, and the caller drops its handle.
        unsafe { i.erase() };
    }
    true
}

fn store<'m>(ll: &Ll<'m>, i: V<'m>, slots: &HashSet<V<'m>>) -> bool {
    let v = i.operand(0);
    if !is_i64(v) || slot_load(v, slots).is_none() {
        return false;
    }
    let vp = as_ptr(ll, v, slots, i);
    let s = ll.store(vp, i.operand(1), 8);
    s.set_ordering(i.ordering());
    s.set_volatile(i.is_volatile());
    // SAFETY: a store has no uses, and the caller drops its handle.
    unsafe { i.erase() };
    true
}
