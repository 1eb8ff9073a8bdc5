//! Integers that carry capabilities: `ptrtoint`, `inttoptr`, 64-bit
//! integers crossing calls and memory.

use super::*;

impl<'m> FnTx<'_, 'm> {
    /// The pointer constant `v` is `ptrtoint` of, if it is one: the
    /// optimiser stores a pointer constant as that integer (a local array
    /// initialised with string literals, its `memcpy` from a constant
    /// image folded to `store i64 ptrtoint (@.str)`), and the store must
    /// carry the pointer's capability as the `memcpy` would have.
    pub(super) fn const_ptrtoint(&self, v: V<'m>) -> Option<V<'m>> {
        if v.value_kind() != ValueKind::LLVMConstantExprValueKind
            || v.const_opcode() != Some(Opcode::LLVMPtrToInt)
        {
            return None;
        }
        let p = v.operand(0);
        p.type_of().is_ptr().then_some(p)
    }

    /// The inferred capability of integer value `v` (null if none).
    pub(super) fn int_cap(&mut self, v: V<'m>) -> V<'m> {
        if let Some(p) = self.const_ptrtoint(v) {
            return self.cap(p);
        }
        if v.value_kind() != ValueKind::LLVMInstructionValueKind {
            // A parameter: the capability its caller passed with it.
            return self.boundary_int_cap(v);
        }
        match self.plan.inference.cap(v) {
            Cap::Definite(Origin::Pointer(p)) => {
                if p.type_of().is_ptr() {
                    self.cap(p)
                } else {
                    self.m.ll.null_ptr()
                }
            }
            Cap::Definite(Origin::Merge(x)) => self
                .intcaps
                .get(&x)
                .copied()
                .unwrap_or_else(|| self.m.ll.null_ptr()),
            Cap::Definite(Origin::Loaded(l)) => self
                .load_caps
                .get(&l)
                .copied()
                .unwrap_or_else(|| self.m.ll.null_ptr()),
            Cap::Definite(Origin::Boundary(x)) => self.boundary_int_cap(x),
            _ => self.m.ll.null_ptr(),
        }
    }

    /// The capability (as a pointer) that 64-bit integer `v` brought across
    /// a call, or null.
    pub(super) fn boundary_int_cap(&self, v: V<'m>) -> V<'m> {
        self.boundary_caps
            .get(&v)
            .copied()
            .unwrap_or_else(|| self.m.ll.null_ptr())
    }

    /// Records `c`, the capability word (an `i64`) 64-bit integer `old`
    /// arrived with.
    pub(super) fn note_boundary_int(&mut self, old: V<'m>, c: V<'m>) {
        let ll = &self.m.ll;
        let p = ll.inttoptr(c, ll.ptr());
        self.boundary_caps.insert(old, p);
    }

    /// A value that crossed a call (`old`: a parameter or a call) as read
    /// from the CC convention: the capability words of its 64-bit integers
    /// are kept aside for the inference's `Boundary` origins; a value
    /// without pointers goes on without a capability, as every such value.
    pub(super) fn boundary_in(&mut self, old: V<'m>, t: Tx<'m>) -> Tx<'m> {
        let ty = old.type_of();
        match t.cap {
            Some(c) if is_word_int(ty) && c.type_of() == ty => {
                self.note_boundary_int(old, c);
                Tx::plain(t.int)
            }
            _ => t,
        }
    }

    /// A value about to cross a call (an argument or the returned value)
    /// with the capability words of its 64-bit integers: a scalar's
    /// inferred capability; an aggregate carries its own (built by
    /// `insertvalue`, merged by phis and selects, or brought across a call).
    pub(super) fn boundary_out(&mut self, old: V<'m>, t: Tx<'m>) -> Tx<'m> {
        let ty = old.type_of();
        if !is_word_int(ty) {
            return t;
        }
        let c = self.int_cap_word(old);
        Tx {
            int: t.int,
            cap: Some(c),
        }
    }

    /// [`FnTx::int_cap`] of 64-bit integer `v` as an integer (0 for none).
    pub(super) fn int_cap_word(&mut self, v: V<'m>) -> V<'m> {
        let c = self.int_cap(v);
        let ll = &self.m.ll;
        if c.is_null_constant() {
            ll.i64c(0)
        } else {
            ll.ptrtoint(c, ll.i64())
        }
    }

    /// After `extractvalue` `inst`: a 64-bit integer field of an aggregate
    /// that carries capabilities keeps that field's capability word.
    pub(super) fn extract_boundary_cap(&mut self, inst: V<'m>) {
        if inst.opcode() != Opcode::LLVMExtractValue
            || inst.indices().len() != 1
            || !is_word_int(inst.type_of())
        {
            return;
        }
        let agg = inst.operand(0);
        let agg_ty = agg.type_of();
        let Some(c) = self.tx(agg).cap else { return };
        let ll = &self.m.ll;
        if c.type_of() != agg_ty || agg_ty.kind() != TypeKind::LLVMStructTypeKind {
            return;
        }
        let i = inst.indices()[0];
        let f = ll.extract_value(c, i);
        self.note_boundary_int(inst, f);
    }

    /// `ptrtoint` under exposed provenance: marks the object of `p` as
    /// exposed (a header flag test; the runtime call only the first time).
    pub(super) fn expose(&mut self, p: Tx<'m>) {
        let Some(cap) = p.cap else { return };
        if cap.is_null_constant() || cap.type_of().is_vector() {
            return;
        }
        let ll = &self.m.ll;
        let null = ll.icmp(IntPredicate::LLVMIntEQ, cap, ll.null_ptr());
        self.guard(null, |s| {
            let ll = &s.m.ll;
            let aux = ll.load_header(ll.gep_i8c(cap, (-8i64) as u64));
            let flag = ll.and(aux, ll.i64c(gimso_abi::FLAG_EXPOSED));
            let set = ll.icmp(IntPredicate::LLVMIntNE, flag, ll.i64c(0));
            s.guard(set, |s| {
                call(&s.m.ll, "gimso_expose", &[cap]);
                false
            });
            false
        });
    }

    pub(super) fn tx_inttoptr(&mut self, inst: V<'m>) {
        let src = inst.operand(0);
        let t = self.tx(src);
        let ty = inst.type_of();
        let int = self.m.ll.inttoptr(t.int, ty);
        let cap = if ty.is_ptr() {
            let inferred = self.int_cap(src);
            if inferred.is_null_constant() && explain_inttoptr() {
                self.explain_null_inttoptr(inst, src);
            }
            if self.m.options.exposed_provenance {
                let ll = &self.m.ll;
                let addr = ll.int_cast(t.int, ll.i64());
                call(ll, "gimso_exposed_lower", &[inferred, addr])
            } else {
                inferred
            }
        } else {
            self.m.ll.zero(ty)
        };
        self.set(
            inst,
            Tx {
                int,
                cap: Some(cap),
            },
        );
    }

    /// `GIMSO_EXPLAIN_INTTOPTR`: says on stderr why an `inttoptr` of a
    /// non-constant gets the null capability (a debugging aid for programs
    /// that lose a pointer's capability through integers).
    pub(super) fn explain_null_inttoptr(&self, inst: V<'m>, src: V<'m>) {
        if src.is_constant() {
            return;
        }
        let why = match src.value_kind() {
            ValueKind::LLVMInstructionValueKind => {
                format!("{:?} ({:?})", self.plan.inference.cap(src), src.opcode())
            }
            _ => "a parameter without a capability".to_string(),
        };
        explain_note(inst, &format!("inttoptr gets the null capability: {why}"));
    }

    /// `GIMSO_EXPLAIN_INTTOPTR`: says on stderr that checked store `inst`
    /// stores 64-bit integer `v` with no capability, and why.
    pub(super) fn explain_capless_store(&self, inst: V<'m>, v: V<'m>) {
        let ty = v.type_of();
        if !is_word_int(ty) || v.value_kind() != ValueKind::LLVMInstructionValueKind {
            return;
        }
        if !inst.is_instruction() || !v.is_instruction() {
            return;
        }
        let why = format!("{:?} ({:?})", self.plan.inference.cap(v), v.opcode());
        explain_note(inst, &format!("i64 stored without a capability: {why}"));
    }
}
