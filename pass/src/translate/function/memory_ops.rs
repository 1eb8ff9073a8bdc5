//! Locals, loads, stores, address arithmetic and atomics.

use super::*;

impl<'m> FnTx<'_, 'm> {
    pub(super) fn tx_alloca(&mut self, inst: V<'m>) {
        if self.vals.contains_key(&inst) {
            return; // a private stack slot, made in the prologue
        }
        let ty = inst.allocated_type();
        let count = self.tx(inst.operand(0)).int;
        let ll = &self.m.ll;
        let count = ll.int_cast(count, ll.i64());
        let size = ll.mul(count, ll.i64c(ll.size_of(ty)));
        let align = stack_align(ll, inst);
        let r = call(ll, alloc_stack_fn(inst), &[size, ll.i64c(align)]);
        let t = self.pair(r);
        if let Some(n) = inst.operand(0).const_int_value() {
            self.note_stack_object(t.cap, n.saturating_mul(ll.size_of(ty)));
        }
        self.m.stats.heap_allocas += 1;
        self.set(inst, t);
    }

    /// Records that `cap` is a stack object of `bytes` requested bytes,
    /// its exact bounds.
    pub(super) fn note_stack_object(&mut self, cap: Option<V<'m>>, bytes: u64) {
        if let Some(cap) = cap {
            self.sized_caps.insert(cap, bytes);
        }
    }

    /// The private stack slot (with capabilities) `int` points into, and
    /// the offset.
    pub(super) fn stack_root(&self, int: V<'m>) -> Option<(V<'m>, StackCaps<'m>, u64)> {
        let (root, off) = self.const_gep.get(&int).copied().unwrap_or((int, 0));
        let sc = *self.stack_caps.get(&root)?;
        Some((root, sc, u64::try_from(off).ok()?))
    }

    /// Where the capability of a `ptr` of type `ty` at `int` (inside a
    /// private stack slot with capabilities) is kept.
    pub(super) fn stack_cap_word(&self, int: V<'m>, ty: T<'m>) -> Option<V<'m>> {
        let ll = &self.m.ll;
        let ptrs = ty.is_ptr() || (ty.is_vector() && ty.element_type().is_ptr());
        if !ptrs {
            return None;
        }
        let (_, sc, off) = self.stack_root(int)?;
        Some(ll.gep_i8c(sc.caps, off))
    }

    /// Where the capability an `i64` at `int` may carry is kept, when `int`
    /// is a word of a private stack slot with capabilities.
    pub(super) fn stack_int_word(&self, int: V<'m>, ty: T<'m>) -> Option<V<'m>> {
        let ll = &self.m.ll;
        if ty.kind() != TypeKind::LLVMIntegerTypeKind || ty.int_width() != 64 {
            return None;
        }
        let (_, sc, off) = self.stack_root(int)?;
        (off % 8 == 0).then(|| ll.gep_i8c(sc.caps, off))
    }

    /// An argument pointing into a private stack slot whose address
    /// escapes here: on a never-returning path the slot's one heap copy,
    /// made on first use from its values and capabilities; otherwise a
    /// fresh copy for this call, copied back when it returns.
    pub(super) fn escaped_stack_arg(&mut self, t: Tx<'m>) -> Tx<'m> {
        if !self.trusted_ints.contains(&t.int) {
            return t;
        }
        let Some((root, sc, off)) = self.stack_root(t.int) else {
            return t;
        };
        if !self.plan.escape.is_doomed(self.cur_old_block) {
            // A call that returns: a fresh copy for it (one per slot, shared
            // by its arguments), copied back after it.
            let obj = match self.copied_for_call.iter().find(|(r, _)| *r == root) {
                Some(&(_, obj)) => obj,
                None => {
                    let ll = &self.m.ll;
                    let r = call(
                        ll,
                        "gimso_stack_copy_out",
                        &[root, sc.caps, ll.i64c(sc.size), ll.i64c(sc.align)],
                    );
                    let made = self.pair(r);
                    let obj = made.cap.unwrap_or(made.int);
                    self.copied_for_call.push((root, obj));
                    self.m.stats.escaped_stack_copies += 1;
                    obj
                }
            };
            return Tx {
                int: self.m.ll.gep_i8c(obj, off),
                cap: Some(obj),
            };
        }
        let Some(copy) = sc.copy else { return t };
        let ll = &self.m.ll;
        let from = ll.current_block();
        let make = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        let cur = ll.load(ll.ptr(), copy, 8);
        let none = ll.icmp(
            IntPredicate::LLVMIntEQ,
            ll.ptrtoint(cur, ll.i64()),
            ll.i64c(0),
        );
        ll.cond_br(none, make, join);
        ll.position_at_end(make);
        let r = call(
            ll,
            "gimso_stack_copy_out",
            &[root, sc.caps, ll.i64c(sc.size), ll.i64c(sc.align)],
        );
        let made = self.pair(r);
        let ll = &self.m.ll;
        let made_cap = made.cap.unwrap_or(made.int);
        ll.store(made_cap, copy, 8);
        let made_at = ll.current_block();
        ll.br(join);
        ll.position_at_end(join);
        let obj = ll.phi(ll.ptr());
        obj.add_incoming(cur, from);
        obj.add_incoming(made_cap, made_at);
        self.m.stats.escaped_stack_copies += 1;
        Tx {
            int: ll.gep_i8c(obj, off),
            cap: Some(obj),
        }
    }

    /// `llvm.memset` of a private stack slot (the escape analysis proved it
    /// constant and inside): done in place, clearing the capabilities of
    /// the words it touches.
    pub(super) fn memset_private(&mut self, inst: V<'m>) -> bool {
        let d = self.arg(inst, 0);
        if !self.trusted_ints.contains(&d.int) {
            return false;
        }
        let v = self.arg(inst, 1);
        let len = self.arg(inst, 2);
        let ll = &self.m.ll;
        let Some(len) = len.int.const_int_value() else {
            return false;
        };
        ll.memset(d.int, ll.int_cast(v.int, ll.i8()), ll.i64c(len), 1);
        if let Some((_, sc, off)) = self.stack_root(d.int) {
            let (first, end) = (off / 8, (off + len).div_ceil(8));
            if end > first {
                let ll = &self.m.ll;
                let at = ll.gep_i8c(sc.caps, first * 8);
                ll.memset(at, ll.const_int(ll.i8(), 0), ll.i64c((end - first) * 8), 8);
            }
        }
        true
    }

    pub(super) fn tx_load(&mut self, inst: V<'m>) {
        let ty = inst.type_of();
        let p = self.tx(inst.operand(0));
        let ll = &self.m.ll;
        let ordering = inst.ordering();
        let atomic = ordering != Ordering::LLVMAtomicOrderingNotAtomic;
        let volatile = inst.is_volatile();
        let ir_align = inst.alignment();
        let size = ll.store_size_of(ty);
        let mut align = required_align(ty, ir_align);
        if atomic {
            align = align.max(u64::from(ir_align));
        }
        if self.trusted_ints.contains(&p.int) {
            let v = self.m.ll.load(ty, p.int, 1);
            if let Some(word) = self.stack_cap_word(p.int, ty) {
                let cap = self.m.ll.load(ty, word, 8);
                self.set(
                    inst,
                    Tx {
                        int: v,
                        cap: Some(cap),
                    },
                );
                return;
            }
            if self.plan.needed_loads.contains(&inst) {
                if let Some(word) = self.stack_int_word(p.int, ty) {
                    let ll = &self.m.ll;
                    let cap = ll.load(ll.ptr(), word, 8);
                    self.load_caps.insert(inst, cap);
                }
            }
            self.set(inst, Tx::plain(v));
            return;
        }
        self.check(p, size, align, false);
        if !atomic && !volatile && self.capability_unused(inst) {
            // Compared or jumped to only: the value without its shadow word.
            let ll = &self.m.ll;
            let v = ll.load(ty, p.int, align as u32);
            ll.not_header(v);
            self.m.stats.capless_loads += 1;
            self.set(
                inst,
                Tx {
                    int: v,
                    cap: Some(ll.null_ptr()),
                },
            );
            return;
        }
        let carried = !atomic && !volatile && aggregate_carries(ty);
        if !has_ptr(ty) && !carried {
            let ll = &self.m.ll;
            let v = ll.load(ty, p.int, align as u32);
            ll.not_header(v);
            v.set_volatile(volatile);
            if atomic {
                v.set_ordering(ordering);
            }
            self.set(inst, Tx::plain(v));
            if self.plan.needed_loads.contains(&inst) {
                let cap = p.cap.unwrap_or_else(|| self.m.ll.null_ptr());
                let c = self.word_cap(p.int, cap);
                self.load_caps.insert(inst, c);
            }
            return;
        }
        let mut t = self.load_value(ty, p, atomic);
        if self.m.options.exposed_provenance && ty.is_ptr() {
            t = self.recover_exposed(t);
        }
        self.set(inst, t);
    }

    /// A pointer loaded from memory under exposed provenance: bytes stored
    /// as an integer (no capability at rest) and read back as a pointer are
    /// an integer-to-pointer conversion, so a non-null value without a
    /// capability takes that of the exposed object at its address.
    pub(super) fn recover_exposed(&mut self, t: Tx<'m>) -> Tx<'m> {
        let Some(cap) = t.cap else { return t };
        let ll = &self.m.ll;
        let no_cap = ll.icmp(IntPredicate::LLVMIntEQ, cap, ll.null_ptr());
        let nonnull = ll.icmp(IntPredicate::LLVMIntNE, t.int, ll.null_ptr());
        let need = ll.and(no_cap, nonnull);
        let from = ll.current_block();
        let slow = ll.append_block(self.new, "");
        let cont = ll.append_block(self.new, "");
        ll.cond_br_unlikely(need, slow, cont);
        ll.position_at_end(slow);
        let addr = ll.ptrtoint(t.int, ll.i64());
        let found = call(ll, "gimso_exposed_lower", &[cap, addr]);
        ll.br(cont);
        ll.position_at_end(cont);
        let phi = ll.phi(ll.ptr());
        phi.add_incoming(cap, from);
        phi.add_incoming(found, slow);
        Tx {
            int: t.int,
            cap: Some(phi),
        }
    }

    pub(super) fn tx_store(&mut self, inst: V<'m>) {
        let (vo, po) = (inst.operand(0), inst.operand(1));
        let ty = vo.type_of();
        let v = self.tx(vo);
        let p = self.tx(po);
        let ll = &self.m.ll;
        let ordering = inst.ordering();
        let atomic = ordering != Ordering::LLVMAtomicOrderingNotAtomic;
        let volatile = inst.is_volatile();
        let ir_align = inst.alignment();
        let size = ll.store_size_of(ty);
        let mut align = required_align(ty, ir_align);
        if atomic {
            align = align.max(u64::from(ir_align));
        }
        if self.trusted_ints.contains(&p.int) {
            self.m.ll.store(v.int, p.int, 1);
            if let Some(word) = self.stack_cap_word(p.int, ty) {
                let ll = &self.m.ll;
                ll.store(v.cap.unwrap_or_else(|| ll.zero(ty)), word, 8);
            } else if let Some(word) = self.stack_int_word(p.int, ty) {
                let in_place = self.plan.inference.rewrites_in_place(inst);
                if self.carries_cap(vo) && !in_place {
                    let c = self.int_cap(vo);
                    self.m.ll.store(c, word, 8);
                }
            }
            return;
        }
        self.check(p, size, align, true);
        if explain_inttoptr() && !self.carries_cap(vo) {
            self.explain_capless_store(inst, vo);
        }
        let in_place = self.plan.inference.rewrites_in_place(inst);
        if !atomic && !volatile && self.carries_cap(vo) && !in_place {
            let pcap = p.cap.unwrap_or_else(|| self.m.ll.null_ptr());
            let vcap = self.int_cap(vo);
            self.store_word(p.int, pcap, v.int, vcap);
            return;
        }
        let carried = !atomic && !volatile && v.cap.is_some() && aggregate_carries(ty);
        if !has_ptr(ty) && !carried {
            let ll = &self.m.ll;
            let s = ll.store(v.int, p.int, align as u32);
            ll.not_header(s);
            s.set_volatile(volatile);
            if atomic {
                s.set_ordering(ordering);
            }
            return;
        }
        self.store_value(ty, v, p, atomic);
    }

    pub(super) fn tx_gep(&mut self, inst: V<'m>) {
        let n = inst.num_operands();
        let base_v = inst.operand(0);
        let base = self.tx(base_v);
        let mut idx = Vec::new();
        let mut all_const = true;
        for i in 1..n {
            let o = inst.operand(i);
            if o.const_int_value().is_none() {
                all_const = false;
            }
            idx.push(self.tx(o).int);
        }
        let src = inst.gep_source_type();
        let ty = inst.type_of();
        let int = match self.indexed_gep(inst, base.int, &idx) {
            Some(int) => int,
            None => self.m.ll.gep(src, base.int, &idx),
        };
        let ll = &self.m.ll;
        let mut cap = base.cap.unwrap_or_else(|| ll.null_ptr());
        if ty.is_vector() && !cap.type_of().is_vector() {
            let lanes = ty.vector_len();
            let mut v = ll.zero(ty);
            for i in 0..u64::from(lanes) {
                v = ll.insert_element(v, cap, ll.i32c(i));
            }
            cap = v;
        }
        if all_const && self.trusted_ints.contains(&base.int) {
            self.trusted_ints.insert(int);
        }
        let vector = ty.is_vector();
        if !all_const && !vector && !self.const_gep.contains_key(&int) {
            self.note_var_gep(inst, int, base.int, src, &idx);
        }
        if all_const && !ty.is_vector() {
            if let Some(off) = self.m.ll.const_gep_offset(src, &idx) {
                let (root, at) = self
                    .const_gep
                    .get(&base.int)
                    .copied()
                    .unwrap_or((base.int, 0));
                if let Some(total) = at.checked_add(off) {
                    self.const_gep.insert(int, (root, total));
                }
            }
        }
        self.set(
            inst,
            Tx {
                int,
                cap: Some(cap),
            },
        );
    }

    /// Records `int` (the new GEP of old `inst` on `base`) as at or above
    /// a constant offset from its base's root when its one variable index
    /// is non-negative and small.
    pub(super) fn note_var_gep(
        &mut self,
        inst: V<'m>,
        int: V<'m>,
        base: V<'m>,
        src: T<'m>,
        idx: &[V<'m>],
    ) {
        let ll = &self.m.ll;
        let vars: Vec<usize> = (0..idx.len())
            .filter(|&i| inst.operand(i as u32 + 1).const_int_value().is_none())
            .collect();
        let [at] = vars[..] else { return };
        if index_range::nonneg_bound(inst.operand(at as u32 + 1)).is_none() {
            return;
        }
        let Some(min) = index_range::min_offset(ll, src, idx, at) else {
            return;
        };
        let (root, off) = self.const_gep.get(&base).copied().unwrap_or((base, 0));
        if let Some(total) = off.checked_add(min) {
            self.var_gep.insert(int, (root, total));
        }
    }

    pub(super) fn tx_cmpxchg(&mut self, inst: V<'m>) {
        let ll = &self.m.ll;
        let (po, eo, no) = (inst.operand(0), inst.operand(1), inst.operand(2));
        let ty = eo.type_of();
        let size = ll.store_size_of(ty);
        let weak = inst.cmpxchg_weak();
        let p = self.tx(po);
        let e = self.tx(eo);
        let nv = self.tx(no);
        self.check(p, size, size.max(1), true);
        let ll = &self.m.ll;
        if ty.is_ptr() {
            let rty = ll.struct_ty(&[ll.ptr(), ll.ptr(), ll.i64()]);
            let slot = self.entry_alloca(rty);
            let ll = &self.m.ll;
            let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
            let ncap = nv.cap.unwrap_or_else(|| ll.null_ptr());
            let exp = ll.ptrtoint(e.int, ll.i64());
            call(
                ll,
                "gimso_atomic_cmpxchg_ptr",
                &[
                    slot,
                    p.int,
                    pcap,
                    exp,
                    nv.int,
                    ncap,
                    ll.i32c(u64::from(weak)),
                ],
            );
            let r = ll.load(rty, slot, 8);
            let old_int = ll.extract_value(r, 0);
            let old_cap = ll.extract_value(r, 1);
            let ok = ll.extract_value(r, 2);
            let ok = ll.icmp(IntPredicate::LLVMIntNE, ok, ll.i64c(0));
            let res_ty = inst.type_of();
            let int = ll.insert_value(ll.zero(res_ty), old_int, 0);
            let int = ll.insert_value(int, ok, 1);
            let cap = ll.insert_value(ll.zero(res_ty), old_cap, 0);
            self.set(
                inst,
                Tx {
                    int,
                    cap: Some(cap),
                },
            );
            return;
        }
        let c = inst.clone_inst();
        c.set_operand(0, p.int);
        c.set_operand(1, e.int);
        c.set_operand(2, nv.int);
        ll.insert(c);
        self.set(inst, Tx::plain(c));
    }

    pub(super) fn tx_rmw(&mut self, inst: V<'m>) {
        let ll = &self.m.ll;
        let (po, vo) = (inst.operand(0), inst.operand(1));
        let ty = vo.type_of();
        let size = ll.store_size_of(ty);
        let p = self.tx(po);
        let v = self.tx(vo);
        self.check(p, size, size.max(1), true);
        let ll = &self.m.ll;
        if ty.is_ptr() {
            // LLVM 16 only has xchg on pointers.
            let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
            let vcap = v.cap.unwrap_or_else(|| ll.null_ptr());
            let r = call(ll, "gimso_atomic_xchg_ptr", &[p.int, pcap, v.int, vcap]);
            let t = self.pair(r);
            self.set(inst, t);
            return;
        }
        let c = inst.clone_inst();
        c.set_operand(0, p.int);
        c.set_operand(1, v.int);
        ll.insert(c);
        self.set(inst, Tx::plain(c));
    }

    /// `&base[i].f...` (a variable first index, constant field indices) as
    /// `&base[i]` plus a constant: `&base[i]` made once per original block
    /// and element type, so every field of one element shares a root (for
    /// check merging and widening; [`widen::root_of`] finds the same).
    pub(super) fn indexed_gep(&mut self, inst: V<'m>, base: V<'m>, idx: &[V<'m>]) -> Option<V<'m>> {
        let ll = &self.m.ll;
        if inst.type_of().is_vector() {
            return None;
        }
        let src = inst.gep_source_type();
        let off = widen::element_offset(ll, src, idx)?;
        let (&first, rest) = idx.split_first()?;
        let key = (self.cur_old_block, base, first, src);
        let element = match self.indexed_roots.get(&key) {
            Some(&e) => e,
            None => {
                let e = ll.gep(src, base, &[first]);
                self.indexed_roots.insert(key, e);
                e
            }
        };
        if rest.is_empty() {
            return Some(element);
        }
        let ll = &self.m.ll;
        let int = ll.gep_i8(element, ll.i64c(off as u64));
        self.const_gep.insert(int, (element, off));
        Some(int)
    }

    /// Whether the pointer loaded by `inst` is only compared (`icmp`),
    /// jumped to (`indirectbr`, a computed goto's dispatch table) or
    /// subtracted from another pointer (`ptrtoint` feeding only compares and
    /// `sub`s with a second pointer's `ptrtoint`, as in `top - base`), or
    /// offset and then only compared (`o != &G(L)->nilvalue`): all
    /// use its address alone, so its capability need not be read. (A
    /// difference of two pointers carries no capability under `inttoptr`
    /// inference: the two origins differ.)
    pub(super) fn capability_unused(&self, inst: V<'m>) -> bool {
        if inst.type_of().kind() != TypeKind::LLVMPointerTypeKind {
            return false;
        }
        let other_pointer =
            |v: V<'m>| v.inst_opcode() == Some(Opcode::LLVMPtrToInt) && v.operand(0) != inst;
        let address_only = |int: V<'m>| {
            let users = int.users();
            !users.is_empty()
                && users.iter().all(|&u| match u.opcode() {
                    Opcode::LLVMICmp => true,
                    Opcode::LLVMSub => {
                        let (a, b) = (u.operand(0), u.operand(1));
                        (a == int && other_pointer(b)) || (b == int && other_pointer(a))
                    }
                    _ => false,
                })
        };
        let users = inst.users();
        !users.is_empty()
            && users.iter().all(|&u| match u.opcode() {
                Opcode::LLVMICmp | Opcode::LLVMIndirectBr => true,
                Opcode::LLVMPtrToInt => address_only(u),
                Opcode::LLVMGetElementPtr => u.operand(0) == inst && only_compared(u, 4),
                _ => false,
            })
    }

    /// A scratch alloca in the entry block.
    pub(super) fn entry_alloca(&mut self, ty: T<'m>) -> V<'m> {
        self.m.ll.entry_alloca(self.new, ty)
    }
}
