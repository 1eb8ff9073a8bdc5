//! Calls: direct, through wrappers, generic; the function's generic entry.

use super::*;

impl<'m> FnTx<'_, 'm> {
    /// A call; private stack slots whose address it gets (a copy each) are
    /// copied back when it returns.
    pub(super) fn tx_call(&mut self, inst: V<'m>) {
        self.copied_for_call.clear();
        self.tx_call_inner(inst);
        let copies = std::mem::take(&mut self.copied_for_call);
        if copies.is_empty() {
            return;
        }
        let site = self.site();
        for (root, obj) in copies {
            // Back into the slot, values and capabilities: the copy-in of
            // byval arguments, from the copy into the frame's slot.
            let sc = self.stack_caps[&root];
            let ll = &self.m.ll;
            call(
                ll,
                "gimso_cc_copy_in",
                &[root, sc.caps, obj, obj, ll.i64c(sc.size), site],
            );
        }
    }

    pub(super) fn tx_call_inner(&mut self, inst: V<'m>) {
        let callee = inst.called_value();
        if plan::call_forgets_checks(inst) {
            self.checked.clear();
        }
        if callee.is_inline_asm() {
            self.tx_inline_asm(inst, callee);
            return;
        }
        if callee.is_function() && callee.name().starts_with("llvm.") {
            self.tx_intrinsic(inst, callee);
            return;
        }
        if callee.is_function()
            && unwinding::SETJMP_NAMES.contains(&callee.name().as_str())
            && inst.opcode() == Opcode::LLVMCall
        {
            self.tx_setjmp(inst);
            return;
        }
        let fnty = inst.called_fn_type();
        let nargs = inst.num_arg_operands();
        let mut types = Vec::new();
        let mut byval = Vec::new();
        for i in 0..nargs {
            let a = inst.operand(i);
            let bv = inst.call_type_attr(i, "byval");
            byval.push(bv);
            types.push(bv.unwrap_or(a.type_of()));
        }
        let site = self.site();
        // Evaluate the callee and arguments before touching the buffers.
        let mut args = Vec::new();
        for i in 0..nargs {
            let a = inst.operand(i);
            let t = self.tx(a);
            let t = self.escaped_stack_arg(t);
            args.push(self.boundary_out(a, t));
        }
        // A weak declaration may be null: called through its pointer, so
        // the call check reports a call of an undefined one.
        let weak = callee.is_function() && callee.linkage() == Linkage::LLVMExternalWeakLinkage;
        if !weak && !byval.iter().any(Option::is_some) && callee.is_function() {
            if let Some(w) = self.m.wrapper_entry(callee, fnty) {
                self.wrapper_direct_call(inst, w, &args);
                return;
            }
            let target = self.m.direct_callee(callee, fnty);
            // Making a thunk moved the builder's location.
            self.set_loc(inst);
            if let Some(target) = target {
                self.direct_call(inst, target, fnty, &args);
                return;
            }
        }
        let (entry, lower, indirect) = if let Some(&(entry, obj)) = self
            .m
            .fn_map
            .get(&callee)
            .filter(|_| !weak && callee.is_function())
        {
            (entry, self.m.ll.const_gep_i8(obj, 16), false)
        } else {
            let f = self.tx(callee);
            let cap = f.cap.unwrap_or_else(|| self.m.ll.null_ptr());
            self.check_call(f.int, cap, site);
            (f.int, cap, true)
        };
        let fast = indirect
            && self.m.options.direct_calls
            && inst.opcode() == Opcode::LLVMCall
            && !byval.iter().any(Option::is_some)
            && direct::signature_ok(fnty);
        if !fast {
            let t = self.generic_call(inst, entry, lower, &types, &byval, args, site);
            self.finish_call(inst, t);
            return;
        }
        // A function pointer: the callee's object records its direct body
        // and the hash of its type; a call of that very type goes to the
        // body in registers, any other through the generic entry (which
        // checks sizes as before).
        self.m.stats.indirect_fast_paths += 1;
        let ll = &self.m.ll;
        let hash_at = gimso_abi::FUNCTION_TYPE_HASH_OFFSET as u64;
        let hash = ll.load(ll.i64(), ll.gep_i8c(lower, hash_at), 8);
        let same = ll.icmp(
            IntPredicate::LLVMIntEQ,
            hash,
            ll.i64c(direct::type_hash(fnty)),
        );
        let (to_body, to_entry, join) = (
            ll.append_block(self.new, ""),
            ll.append_block(self.new, ""),
            ll.append_block(self.new, ""),
        );
        ll.cond_br_likely(same, to_body, to_entry);
        ll.position_at_end(to_body);
        let body_at = gimso_abi::FUNCTION_BODY_OFFSET as u64;
        let body = ll.load(ll.ptr(), ll.gep_i8c(lower, body_at), 8);
        let direct_t = self.call_body(inst, body, fnty, &args);
        let direct_end = self.m.ll.current_block();
        self.m.ll.br(join);
        self.m.ll.position_at_end(to_entry);
        let generic_t = self.generic_call(inst, entry, lower, &types, &byval, args, site);
        let generic_end = self.m.ll.current_block();
        let ll = &self.m.ll;
        ll.br(join);
        ll.position_at_end(join);
        if direct_t.is_none() && generic_t.is_none() {
            return;
        }
        let ty = fnty.fn_ret();
        let merge = |a: Option<V<'m>>, b: Option<V<'m>>| {
            let phi = ll.phi(ty);
            phi.add_incoming(a.unwrap_or_else(|| ll.zero(ty)), direct_end);
            phi.add_incoming(b.unwrap_or_else(|| ll.zero(ty)), generic_end);
            phi
        };
        let int = merge(direct_t.map(|t| t.int), generic_t.map(|t| t.int));
        let (dc, gc) = (direct_t.and_then(|t| t.cap), generic_t.and_then(|t| t.cap));
        let cap = (dc.is_some() || gc.is_some()).then(|| merge(dc, gc));
        self.set(inst, Tx { int, cap });
    }

    /// A call through the generic entry `entry` of the function object
    /// `lower`: the arguments through the CC buffers, the result read back
    /// (after the size check). Returns the result; leaves invoke edges to
    /// the caller.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn generic_call(
        &mut self,
        inst: V<'m>,
        entry: V<'m>,
        lower: V<'m>,
        types: &[T<'m>],
        byval: &[Option<T<'m>>],
        args: Vec<Tx<'m>>,
        site: V<'m>,
    ) -> Option<Tx<'m>> {
        let layout = cc_layout(&self.m.ll, types);
        let fnty = inst.called_fn_type();
        let (payload, caps) = self.write_buffers(layout.bytes);
        self.zero_caps(caps, layout.bytes);
        for (i, t) in args.into_iter().enumerate() {
            let off = layout.offsets[i];
            if let Some(bt) = byval[i] {
                let ll = &self.m.ll;
                let size = ll.size_of(bt);
                let pp = ll.gep_i8c(payload, off);
                let cp = ll.gep_i8c(caps, off);
                let cap = t.cap.unwrap_or_else(|| ll.null_ptr());
                call(
                    ll,
                    "gimso_cc_copy_in",
                    &[pp, cp, t.int, cap, ll.i64c(size), site],
                );
            } else {
                self.write_buf(types[i], t, payload, caps, off);
            }
        }
        self.set_frame_lsda(inst);
        let ll = &self.m.ll;
        let r = ll.call(
            entry_type(ll),
            entry,
            &[self.thread, lower, ll.i64c(layout.bytes)],
        );
        self.unwind_check(inst, r);
        let ll = &self.m.ll;
        let ret_ty = fnty.fn_ret();
        let expected = ret_bytes(ll, ret_ty);
        if expected == 0 {
            return None;
        }
        let got = ll.extract_value(r, 1);
        let ok = ll.icmp(IntPredicate::LLVMIntUGE, got, ll.i64c(expected));
        let exp = ll.i64c(expected);
        self.guard(ok, |s| {
            call(&s.m.ll, "gimso_ret_size_failed", &[exp, got, site]);
            s.m.ll.unreachable();
            true
        });
        let (payload, caps) = self.arg_buffers(got);
        Some(self.read_buf(ret_ty, payload, caps, 0))
    }

    /// A call through a direct entry ([`super::direct`]): arguments and
    /// result in registers.
    pub(super) fn direct_call(&mut self, inst: V<'m>, target: V<'m>, fnty: T<'m>, args: &[Tx<'m>]) {
        self.m.stats.direct_calls += 1;
        let t = self.call_body(inst, target, fnty, args);
        self.finish_call(inst, t);
    }

    /// A call of a C library wrapper through its register entry
    /// (`gimso.fn.NAME.direct`): the C prototype with each pointer, argument
    /// or result, as an (intval, capability) pair; no CC buffers, no
    /// exception word (wrappers never unwind).
    pub(super) fn wrapper_direct_call(
        &mut self,
        inst: V<'m>,
        w: &gimso_abi::DirectWrapper,
        args: &[Tx<'m>],
    ) {
        self.m.stats.wrapper_direct_calls += 1;
        let ll = &self.m.ll;
        let fnty = inst.called_fn_type();
        let is_ptr = |t: T<'m>| t.kind() == TypeKind::LLVMPointerTypeKind;
        let (mut params, mut values) = (Vec::new(), Vec::new());
        for (&ty, t) in fnty.fn_params().iter().zip(args) {
            params.push(ty);
            values.push(t.int);
            if is_ptr(ty) {
                params.push(ty);
                values.push(t.cap.unwrap_or_else(|| ll.null_ptr()));
            }
        }
        let ret = fnty.fn_ret();
        let rty = if is_ptr(ret) {
            ll.struct_ty(&[ret, ret])
        } else {
            ret
        };
        let entry_ty = ll.fn_ty(rty, &params, false);
        let f = ll
            .get_function(w.symbol)
            .unwrap_or_else(|| ll.runtime_fn(w.symbol, entry_ty));
        let r = ll.call(entry_ty, f, &values);
        let t = if ret.kind() == TypeKind::LLVMVoidTypeKind {
            None
        } else if is_ptr(ret) {
            Some(Tx {
                int: ll.extract_value(r, 0),
                cap: Some(ll.extract_value(r, 1)),
            })
        } else {
            Some(Tx::plain(r))
        };
        self.finish_call(inst, t);
    }

    /// Calls direct body `target` (of original type `fnty`) for `inst`;
    /// returns its result. Leaves invoke edges to the caller.
    pub(super) fn call_body(
        &mut self,
        inst: V<'m>,
        target: V<'m>,
        fnty: T<'m>,
        args: &[Tx<'m>],
    ) -> Option<Tx<'m>> {
        self.set_frame_lsda(inst);
        let ll = &self.m.ll;
        let values = direct::direct_args(ll, fnty, self.thread, args);
        let r = ll.call(direct::direct_type(ll, fnty), target, &values);
        self.unwind_check(inst, r);
        direct::direct_value(&self.m.ll, fnty, r)
    }

    /// Gives call `inst` its result and, for an invoke, the edge to its
    /// normal destination.
    pub(super) fn finish_call(&mut self, inst: V<'m>, t: Option<Tx<'m>>) {
        if let Some(t) = t {
            let t = self.boundary_in(inst, t);
            self.set(inst, t);
        }
        if inst.opcode() == Opcode::LLVMInvoke {
            let normal = inst.successors()[0];
            self.edge_to(normal);
        }
    }

    /// The generic entry of a function with a direct body: checks the
    /// argument size, reads the CC buffers, calls the body and writes its
    /// result back (or returns unwinding).
    pub(super) fn emit_generic_entry(&mut self, generic: V<'m>) {
        let site = self.site_for_function();
        let body = self.new;
        self.new = generic;
        self.thread = generic.func().param(0);
        let arg_bytes = generic.func().param(2);
        let ll = &self.m.ll;
        let entry = ll.append_block(generic, "gimso.entry");
        ll.position_at_end(entry);
        ll.set_debug_loc(None);
        let fnty = self.old.global_value_type();
        let types = fnty.fn_params();
        let layout = cc_layout(ll, &types);
        if layout.bytes > 0 {
            let ok = ll.icmp(IntPredicate::LLVMIntUGE, arg_bytes, ll.i64c(layout.bytes));
            let needed = ll.i64c(layout.bytes);
            self.guard(ok, |s| {
                call(&s.m.ll, "gimso_arg_size_failed", &[needed, arg_bytes, site]);
                s.m.ll.unreachable();
                true
            });
        }
        let (payload, caps) = self.arg_buffers(arg_bytes);
        let mut args = Vec::new();
        for (i, &ty) in types.iter().enumerate() {
            let t = self.read_buf(ty, payload, caps, layout.offsets[i]);
            let t = if self.m.options.exposed_provenance && ty.is_ptr() {
                // Passed as an integer by a caller of another type.
                self.recover_exposed(t)
            } else {
                t
            };
            args.push(t);
        }
        let ll = &self.m.ll;
        let values = direct::direct_args(ll, fnty, self.thread, &args);
        let r = ll.call(direct::direct_type(ll, fnty), body, &values);
        let threw = ll.icmp(IntPredicate::LLVMIntNE, ll.extract_value(r, 0), ll.i64c(0));
        let (exc, cont) = (ll.append_block(generic, ""), ll.append_block(generic, ""));
        ll.cond_br(threw, exc, cont);
        ll.position_at_end(exc);
        ll.ret(ll.const_struct(&[ll.i64c(1), ll.i64c(0)]));
        ll.position_at_end(cont);
        let ret_ty = fnty.fn_ret();
        let bytes = ret_bytes(ll, ret_ty);
        if let Some(t) = direct::direct_value(ll, fnty, r) {
            let (payload, caps) = self.write_buffers(bytes);
            self.zero_caps(caps, bytes);
            self.write_buf(ret_ty, t, payload, caps, 0);
        }
        let ll = &self.m.ll;
        ll.ret(ll.const_struct(&[ll.i64c(0), ll.i64c(bytes)]));
    }

    /// The inline call check: a function capability whose entry word is
    /// the intval; the runtime reports anything else.
    pub(super) fn check_call(&mut self, int: V<'m>, cap: V<'m>, site: V<'m>) {
        let ll = &self.m.ll;
        let i64 = ll.i64();
        let nonnull = ll.icmp(IntPredicate::LLVMIntNE, ll.ptrtoint(cap, i64), ll.i64c(0));
        let hdr = ll.append_block(self.new, "");
        let bad = ll.append_block(self.new, "");
        let cont = ll.append_block(self.new, "");
        ll.cond_br(nonnull, hdr, bad);
        ll.position_at_end(hdr);
        let aux = ll.load_header(ll.gep_i8(cap, ll.const_int(i64, (-8i64) as u64)));
        let kind = ll.and(aux, ll.i64c(gimso_abi::SPECIAL_MASK));
        let function = (gimso_abi::SpecialKind::Function as u64) << gimso_abi::SPECIAL_SHIFT;
        let is_fn = ll.icmp(IntPredicate::LLVMIntEQ, kind, ll.i64c(function));
        let entry = ll.load_header(cap);
        let same = ll.icmp(IntPredicate::LLVMIntEQ, entry, ll.ptrtoint(int, i64));
        ll.cond_br(ll.and(is_fn, same), cont, bad);
        ll.position_at_end(bad);
        call(ll, "gimso_check_call_at", &[int, cap, site]);
        ll.br(cont);
        ll.position_at_end(cont);
    }
}
