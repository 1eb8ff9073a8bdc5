//! The dispatch over instructions, and those with no memory access:
//! phis, selects, aggregates, inline asm.

use super::*;

impl<'m> FnTx<'_, 'm> {
    pub(super) fn translate(&mut self, inst: V<'m>) {
        use Opcode::*;
        let op = inst.opcode();
        match op {
            LLVMPHI => self.tx_phi(inst),
            LLVMAlloca => self.tx_alloca(inst),
            LLVMLoad => self.tx_load(inst),
            LLVMStore => self.tx_store(inst),
            LLVMGetElementPtr => self.tx_gep(inst),
            LLVMPtrToInt => {
                let src = self.tx(inst.operand(0));
                if self.m.options.exposed_provenance {
                    self.expose(src);
                }
                let ty = inst.type_of();
                let v = self.m.ll.ptrtoint(src.int, ty);
                self.set(inst, Tx::plain(v));
            }
            LLVMIntToPtr => self.tx_inttoptr(inst),
            LLVMBitCast | LLVMAddrSpaceCast if has_ptr(inst.type_of()) => {
                let src = self.tx(inst.operand(0));
                self.set(inst, src);
            }
            LLVMFreeze => {
                let src = self.tx(inst.operand(0));
                self.set(inst, src);
            }
            LLVMSelect => self.tx_select(inst),
            LLVMExtractValue | LLVMInsertValue | LLVMExtractElement | LLVMInsertElement
            | LLVMShuffleVector => self.tx_aggregate_op(inst),
            LLVMCall | LLVMInvoke => self.tx_call(inst),
            LLVMRet => self.tx_ret(inst),
            LLVMBr | LLVMSwitch | LLVMIndirectBr => self.tx_branch(inst),
            LLVMUnreachable => {
                let site = self.site();
                call(&self.m.ll, "gimso_unreachable", &[site]);
                self.m.ll.unreachable();
            }
            LLVMAtomicCmpXchg => self.tx_cmpxchg(inst),
            LLVMAtomicRMW => self.tx_rmw(inst),
            LLVMLandingPad => self.tx_landingpad(inst),
            LLVMResume => {
                // The value is ignored (spec "Resume"): the exception in
                // flight is the runtime's.
                self.pop_frame();
                self.return_with(true, None);
            }
            LLVMVAArg => {
                self.error(
                    "va_arg",
                    "clang lowers va_arg itself on x86-64; this form is not supported yet",
                );
                let z = self.zero(inst.type_of());
                self.set(inst, z);
            }
            _ => self.tx_generic(inst),
        }
    }

    /// Instructions with no pointer semantics: cloned with translated
    /// operands (pointer operands contribute their intval).
    pub(super) fn tx_generic(&mut self, inst: V<'m>) {
        let mut n = inst.num_operands();
        if matches!(inst.opcode(), Opcode::LLVMCall | Opcode::LLVMInvoke) {
            n -= 1; // the callee (an intrinsic or inline asm) stays
        }
        let c = inst.clone_inst();
        for i in 0..n {
            let o = inst.operand(i);
            if o.value_kind() == ValueKind::LLVMMetadataAsValueValueKind {
                continue;
            }
            let t = self.tx(o);
            c.set_operand(i, t.int);
        }
        self.m.ll.insert(c);
        let ty = inst.type_of();
        let cap = has_ptr(ty).then(|| self.m.ll.zero(ty));
        self.set(inst, Tx { int: c, cap });
    }

    /// A call of (safe, [`crate::asm_safety`]) inline asm. A pointer
    /// result gets the capability of the first pointer input with the same
    /// address, else of the input tied to it, else none.
    pub(super) fn tx_inline_asm(&mut self, inst: V<'m>, asm: V<'m>) {
        self.tx_generic(inst);
        let ty = inst.type_of();
        if !has_ptr(ty) {
            return;
        }
        let (_, cons, _) = asm.inline_asm_parts();
        let tied = crate::asm_safety::tied_inputs(&crate::asm_safety::constraints(&cons));
        let nargs = inst.num_arg_operands();
        let mut inputs = Vec::new();
        for i in 0..nargs {
            let a = inst.operand(i);
            let t = self.tx(a);
            inputs.push(a.type_of().is_ptr().then_some(t));
        }
        let int = self.vals[&inst].int;
        let ll = &self.m.ll;
        let cap_of = |v: V<'m>, out: usize| -> V<'m> {
            let ptr_input = |j: usize| inputs.get(j).copied().flatten();
            let mut cap = tied
                .get(out)
                .copied()
                .flatten()
                .and_then(ptr_input)
                .and_then(|t| t.cap)
                .unwrap_or_else(|| ll.null_ptr());
            for j in (0..inputs.len()).rev() {
                if let Some(Tx {
                    int: i,
                    cap: Some(c),
                }) = ptr_input(j)
                {
                    let same = ll.icmp(IntPredicate::LLVMIntEQ, v, i);
                    cap = ll.select(same, c, cap);
                }
            }
            cap
        };
        let cap = if ty.is_ptr() {
            cap_of(int, 0)
        } else if ty.kind() == TypeKind::LLVMStructTypeKind {
            let mut agg = ll.zero(ty);
            for (k, field) in ty.struct_fields().into_iter().enumerate() {
                if field.is_ptr() {
                    let v = ll.extract_value(int, k as u32);
                    agg = ll.insert_value(agg, cap_of(v, k), k as u32);
                }
            }
            agg
        } else {
            ll.zero(ty)
        };
        self.set(
            inst,
            Tx {
                int,
                cap: Some(cap),
            },
        );
    }

    pub(super) fn tx_phi(&mut self, inst: V<'m>) {
        let ty = inst.type_of();
        let int = self.m.ll.phi(ty);
        let carries = has_ptr(ty) || aggregate_carries(ty);
        let cap = carries.then(|| self.m.ll.phi(ty));
        let t = Tx { int, cap };
        self.phis.push((inst, t));
        self.set(inst, t);
        if self.merge_node(inst) {
            let cp = self.m.ll.phi(self.m.ll.ptr());
            self.int_cap_phis.push((inst, cp));
            self.intcaps.insert(inst, cp);
        }
    }

    /// Whether integer `inst` is a phi/select the inttoptr inference gave a
    /// capability of its own.
    pub(super) fn merge_node(&self, inst: V<'m>) -> bool {
        matches!(self.plan.inference.cap(inst), Cap::Definite(Origin::Merge(x)) if x == inst)
    }
}

impl<'m> FnTx<'_, 'm> {
    pub(super) fn tx_select(&mut self, inst: V<'m>) {
        let (c, a, b) = (inst.operand(0), inst.operand(1), inst.operand(2));
        let ty = inst.type_of();
        let (tc, ta, tb) = (self.tx(c), self.tx(a), self.tx(b));
        let ll = &self.m.ll;
        let int = ll.select(tc.int, ta.int, tb.int);
        let cap = if has_ptr(ty) || aggregate_carries(ty) {
            let ca = self.cap(a);
            let cb = self.cap(b);
            Some(self.m.ll.select(tc.int, ca, cb))
        } else {
            None
        };
        self.set(inst, Tx { int, cap });
        if self.merge_node(inst) {
            let ca = self.int_cap(a);
            let cb = self.int_cap(b);
            let cond = tc.int.type_of();
            let cs = if cond.is_vector() {
                self.m.ll.null_ptr()
            } else {
                self.m.ll.select(tc.int, ca, cb)
            };
            self.intcaps.insert(inst, cs);
        }
    }

    pub(super) fn tx_aggregate_op(&mut self, inst: V<'m>) {
        let ty = inst.type_of();
        let n = inst.num_operands();
        let int = inst.clone_inst();
        let mut ops = Vec::new();
        for i in 0..n {
            let o = inst.operand(i);
            let t = self.tx(o);
            int.set_operand(i, t.int);
            ops.push((o, t));
        }
        self.m.ll.insert(int);
        let cap = if has_ptr(ty) || aggregate_carries(ty) {
            let c = inst.clone_inst();
            use Opcode::*;
            let op = inst.opcode();
            for (i, (o, t)) in ops.into_iter().enumerate() {
                let is_index = matches!((op, i), (LLVMExtractElement, 1) | (LLVMInsertElement, 2));
                let v = if is_index {
                    t.int
                } else if op == LLVMInsertValue && i == 1 && is_word_int(o.type_of()) {
                    // A 64-bit integer field: its inferred capability.
                    self.int_cap_word(o)
                } else {
                    t.cap.unwrap_or_else(|| self.m.ll.zero(o.type_of()))
                };
                c.set_operand(i as u32, v);
            }
            self.m.ll.insert(c);
            Some(c)
        } else {
            None
        };
        self.set(inst, Tx { int, cap });
        self.extract_boundary_cap(inst);
    }
}
