//! Control flow: returns, branches, switches, computed gotos, phis.

use super::*;

impl<'m> FnTx<'_, 'm> {
    pub(super) fn tx_ret(&mut self, inst: V<'m>) {
        if inst.num_operands() == 0 {
            self.pop_frame();
            self.return_with(false, None);
            return;
        }
        let ll = &self.m.ll;
        let v = inst.operand(0);
        let ty = v.type_of();
        let bytes = ret_bytes(ll, ty);
        let t = self.tx(v);
        let t = self.boundary_out(v, t);
        if self.arg_bytes.is_none() {
            self.pop_frame();
            self.return_with(false, Some(t));
            return;
        }
        let (payload, caps) = self.write_buffers(bytes);
        self.zero_caps(caps, bytes);
        self.write_buf(ty, t, payload, caps, 0);
        self.pop_frame();
        self.return_with(false, None);
    }

    /// Returns from the body: unwinding, or normally with nothing or with
    /// `value` (a direct body only; a generic entry has written its value
    /// to the CC buffers, and `bytes` is read from the function's type).
    pub(super) fn return_with(&mut self, exception: bool, value: Option<Tx<'m>>) {
        let ll = &self.m.ll;
        let fnty = self.old.global_value_type();
        let r = if self.arg_bytes.is_none() {
            direct::direct_result(ll, fnty, exception, value)
        } else {
            let bytes = if exception {
                0
            } else {
                ret_bytes(ll, fnty.fn_ret())
            };
            ll.const_struct(&[ll.i64c(u64::from(exception)), ll.i64c(bytes)])
        };
        ll.ret(r);
    }

    // ---- branches -------------------------------------------------------------------

    /// An unconditional branch to the translation of old block `to`.
    pub(super) fn edge_to(&mut self, to: B<'m>) {
        let from = self.m.ll.current_block();
        let target = self.branch_target(from, to);
        self.m.ll.br(target);
    }

    /// Where a branch from new block `from` to old block `to` goes: the
    /// translation of `to`, or on a back edge a block that polls the
    /// safepoint and then goes there (one per edge). Records the edge that
    /// reaches `to`'s phis.
    pub(super) fn branch_target(&mut self, from: B<'m>, to: B<'m>) -> B<'m> {
        let edge = (self.cur_old_block, to);
        if !self.plan.back_edges.contains(&edge) {
            self.edges.push((from, self.cur_old_block, to));
            return self.block_map[&to];
        }
        if let Some(&poll) = self.poll_blocks.get(&edge) {
            return poll;
        }
        let poll = self.m.ll.append_block(self.new, "");
        self.poll_blocks.insert(edge, poll);
        self.m.ll.position_at_end(poll);
        self.set_loc_line0();
        self.pollcheck();
        let last = self.m.ll.current_block();
        self.m.ll.br(self.block_map[&to]);
        self.edges.push((last, self.cur_old_block, to));
        self.m.ll.position_at_end(from);
        poll
    }

    pub(super) fn tx_branch(&mut self, inst: V<'m>) {
        let ll = &self.m.ll;
        let op = inst.opcode();
        let from = ll.current_block();
        let succ = inst.successors();
        match op {
            Opcode::LLVMBr if succ.len() == 1 => {
                self.edge_to(succ[0]);
            }
            Opcode::LLVMBr => {
                let c = self.tx(inst.operand(0)).int;
                let (t, f) = (
                    self.branch_target(from, succ[0]),
                    self.branch_target(from, succ[1]),
                );
                self.m.ll.cond_br(c, t, f);
            }
            Opcode::LLVMSwitch => {
                let c = self.tx(inst.operand(0)).int;
                let n = inst.num_operands();
                let mut cases = Vec::new();
                let mut i = 2;
                while i + 1 < n {
                    let val = inst.operand(i);
                    let dest = inst.operand(i + 1).as_block().expect("a block value");
                    cases.push((val, self.branch_target(from, dest)));
                    i += 2;
                }
                let default = self.branch_target(from, succ[0]);
                self.m.ll.switch(c, default, &cases);
            }
            _ => {
                // indirectbr: the address is a block number
                // (`ModTx::block_id`); a valid one of a destination picks
                // the destination's code address from a table and jumps
                // through a real `indirectbr`, which the code generator can
                // copy into each predecessor (a computed-goto interpreter
                // keeps one indirect jump per handler). Anything else
                // reaches the failure block.
                let addr = self.tx(inst.operand(0)).int;
                let ll = &self.m.ll;
                let key = ll.ptrtoint(addr, ll.i64());
                let bad = ll.append_block(self.new, "");
                let mut dests: Vec<(u64, B<'m>)> = Vec::new();
                let mut seen = HashSet::new();
                for &s in &succ {
                    if seen.insert(s) {
                        let id = self.m.block_id(self.old, s);
                        dests.push((id, s));
                        self.edges.push((from, self.cur_old_block, s));
                    }
                }
                let lo = dests.iter().map(|d| d.0).min().unwrap_or(0);
                let hi = dests.iter().map(|d| d.0).max().unwrap_or(0);
                let span = hi.saturating_sub(lo) + 1;
                let target = match self.constant_dispatch(inst.operand(0), &dests, bad) {
                    Some(t) => Some(t),
                    None if !dests.is_empty() && span <= 4 * dests.len() as u64 + 16 => {
                        let mut codes = vec![bad; span as usize];
                        for &(id, s) in &dests {
                            codes[(id - lo) as usize] = self.block_map[&s];
                        }
                        let table = self.code_table(&codes);
                        let ll = &self.m.ll;
                        let index = ll.sub(key, ll.i64c(lo));
                        let valid = ll.icmp(IntPredicate::LLVMIntULT, index, ll.i64c(span));
                        let go = ll.append_block(self.new, "");
                        ll.cond_br(valid, go, bad);
                        ll.position_at_end(go);
                        let slot = ll.gep(table.global_value_type(), table, &[ll.i64c(0), index]);
                        Some(ll.load(ll.ptr(), slot, 8))
                    }
                    None => None,
                };
                let ll = &self.m.ll;
                match target {
                    Some(target) => {
                        let mut targets: Vec<B<'m>> =
                            dests.iter().map(|d| self.block_map[&d.1]).collect();
                        targets.push(bad);
                        ll.indirect_br(target, &targets);
                        // The destinations' phis see the jump's block as
                        // their predecessor.
                        let here = ll.current_block();
                        for e in self.edges.iter_mut().rev().take(dests.len()) {
                            e.0 = here;
                        }
                    }
                    None => {
                        let cases: Vec<(V<'m>, B<'m>)> = dests
                            .iter()
                            .map(|&(id, s)| (ll.i64c(id), self.block_map[&s]))
                            .collect();
                        ll.switch(key, bad, &cases);
                    }
                }
                self.m.ll.position_at_end(bad);
                let site = self.goto_site(inst);
                let ll = &self.m.ll;
                call(ll, "gimso_indirectbr_failed", &[key, site]);
                ll.unreachable();
            }
        }
    }

    /// The code address for `indirectbr (load (gep @G, i...))` when `@G` is
    /// a constant array of this function's block addresses (a computed
    /// goto's `static const void *const` table): the same element of a
    /// parallel table of code addresses, so the jump needs no number
    /// lookup. The load of `@G` stays, with its bounds check; elements that
    /// are not destinations of this `indirectbr` lead to `bad`.
    pub(super) fn constant_dispatch(
        &mut self,
        addr: V<'m>,
        dests: &[(u64, B<'m>)],
        bad: B<'m>,
    ) -> Option<V<'m>> {
        if addr.value_kind() != ValueKind::LLVMInstructionValueKind
            || addr.opcode() != Opcode::LLVMLoad
            || addr.is_volatile()
        {
            return None;
        }
        let gep = addr.operand(0);
        if gep.value_kind() != ValueKind::LLVMInstructionValueKind
            || gep.opcode() != Opcode::LLVMGetElementPtr
        {
            return None;
        }
        let table = gep.operand(0);
        if table.value_kind() != ValueKind::LLVMGlobalVariableValueKind
            || !table.is_global_constant()
        {
            return None;
        }
        let init = table.initializer()?;
        if init.value_kind() != ValueKind::LLVMConstantArrayValueKind {
            return None;
        }
        let mut codes = Vec::new();
        for i in 0..init.num_operands() {
            let e = init.operand(i);
            if e.value_kind() != ValueKind::LLVMBlockAddressValueKind {
                return None;
            }
            let b = e.operand(1).as_block().expect("blockaddress of a block");
            let to = match dests.iter().find(|d| d.1 == b) {
                Some(d) if b.parent().expect("a block in a function").as_value() == self.old => {
                    self.block_map[&d.1]
                }
                _ => bad,
            };
            codes.push(to);
        }
        let src = gep.gep_source_type();
        let n = gep.num_operands();
        let idx: Vec<V<'m>> = (1..n).map(|i| gep.operand(i)).collect();
        let idx: Vec<V<'m>> = idx.into_iter().map(|v| self.tx(v).int).collect();
        let table = self.code_table(&codes);
        let ll = &self.m.ll;
        let slot = ll.gep(src, table, &idx);
        Some(ll.load(ll.ptr(), slot, 8))
    }

    /// A private constant table of the code addresses of `blocks` (of the
    /// new function), for an `indirectbr` to jump through.
    pub(super) fn code_table(&self, blocks: &[B<'m>]) -> V<'m> {
        let ll = &self.m.ll;
        let codes: Vec<V<'m>> = blocks
            .iter()
            .map(|&b| ll.block_address(self.new, b))
            .collect();
        let init = ll.const_array(ll.ptr(), &codes);
        let g = ll.add_global(init.type_of(), "gimso.indirectbr");
        g.set_initializer(Some(init));
        g.set_global_constant(true);
        g.set_linkage(Linkage::LLVMPrivateLinkage);
        g
    }

    pub(super) fn fill_phis(&mut self) {
        let phis = std::mem::take(&mut self.phis);
        let int_caps = std::mem::take(&mut self.int_cap_phis);
        let edges = std::mem::take(&mut self.edges);
        for (old, t) in phis {
            let home = old.block();
            let incoming = old.incoming();
            for &(np, op, os) in &edges {
                if os != home {
                    continue;
                }
                let Some(&(v, _)) = incoming.iter().find(|(_, b)| *b == op) else {
                    continue;
                };
                let tv = self.tx(v);
                t.int.add_incoming(tv.int, np);
                if let Some(cp) = t.cap {
                    let c = self.cap(v);
                    cp.add_incoming(c, np);
                }
            }
        }
        for (old, cp) in int_caps {
            let home = old.block();
            let incoming = old.incoming();
            for &(np, op, os) in &edges {
                if os != home {
                    continue;
                }
                let Some(&(v, _)) = incoming.iter().find(|(_, b)| *b == op) else {
                    continue;
                };
                let c = self.int_cap(v);
                cp.add_incoming(c, np);
            }
        }
    }
}
