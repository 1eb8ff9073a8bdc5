//! The prologue: parameters from the CC buffers, private stack slots and
//! frame objects, the function's site.

use super::*;

impl<'m> FnTx<'_, 'm> {
    pub(super) fn prologue(&mut self) {
        // A function that calls nothing cannot be on a cycle of calls, and
        // its loops poll on their back edges: it runs for a bounded time
        // between polls without one at its entry.
        if self.makes_calls() {
            self.pollcheck();
        }
        let ll = &self.m.ll;
        let fnty = self.old.global_value_type();
        let params = self.old.func().params();
        let mut types = Vec::new();
        for (i, &p) in params.iter().enumerate() {
            types.push(self.old.func().param_byval(i as u32).unwrap_or(p.type_of()));
        }
        let layout = cc_layout(ll, &types);
        self.fixed_bytes = layout.bytes;
        if let Some(arg_bytes) = self.arg_bytes {
            self.buffer_params(&layout, arg_bytes);
        } else {
            // A direct body: (value, capability?) per parameter.
            let values = direct::direct_params(self.new, fnty);
            for (&p, t) in params.iter().zip(values) {
                let t = self.boundary_in(p, t);
                self.set(p, t);
            }
        }
        if self.uses_va_start() {
            let bytes = self.arg_bytes.unwrap_or_else(|| self.m.ll.i64c(0));
            let skip = self.m.ll.i64c(self.fixed_bytes / 8 * 8);
            let r = call(&self.m.ll, "gimso_va_start", &[self.thread, bytes, skip]);
            self.va_obj = Some(self.pair(r));
        }
        self.stack_slots();
        self.lazy_alloca_slots();
        self.push_frame();
    }

    /// The generic entry's arguments: `arg_bytes` checked against what the
    /// parameters need, then each read from the CC buffers.
    pub(super) fn buffer_params(&mut self, layout: &CcLayout, arg_bytes: V<'m>) {
        let ll = &self.m.ll;
        if layout.bytes > 0 {
            let ok = ll.icmp(IntPredicate::LLVMIntUGE, arg_bytes, ll.i64c(layout.bytes));
            let site = self.site_for_function();
            let needed = self.m.ll.i64c(layout.bytes);
            self.guard(ok, |s| {
                call(&s.m.ll, "gimso_arg_size_failed", &[needed, arg_bytes, site]);
                s.m.ll.unreachable();
                true
            });
        }
        let (payload, caps) = self.arg_buffers(arg_bytes);
        let params = self.old.func().params();
        for (i, &p) in params.iter().enumerate() {
            let off = layout.offsets[i];
            let t = if let Some(bt) = self.old.func().param_byval(i as u32) {
                let ll = &self.m.ll;
                let size = ll.size_of(bt);
                let align = ll.align_of(bt).max(16);
                let pp = ll.gep_i8c(payload, off);
                let cp = ll.gep_i8c(caps, off);
                let r = call(
                    ll,
                    "gimso_cc_copy_out",
                    &[pp, cp, ll.i64c(size), ll.i64c(align)],
                );
                self.pair(r)
            } else {
                let ty = p.type_of();
                let t = self.read_buf(ty, payload, caps, off);
                if self.m.options.exposed_provenance && ty.is_ptr() {
                    // Passed as an integer by a caller of another type.
                    self.recover_exposed(t)
                } else {
                    t
                }
            };
            let t = self.boundary_in(p, t);
            self.set(p, t);
        }
    }

    /// Private stack slots: zeroed allocas in the entry block; those that
    /// hold pointers get a zeroed capability slot beside them, and those
    /// whose address escapes to calls a frame slot for the heap copy made
    /// on never-returning paths (not in functions that call `setjmp`,
    /// where a `longjmp` back skips copies back and revives such paths).
    /// `vals` (instructions of the function being translated) in the
    /// order they appear in it: what the translation emits for a set of
    /// them must not depend on hash order, or the same source would
    /// compile to different code from run to run.
    pub(super) fn in_old_order(&self, vals: HashSet<V<'m>>) -> Vec<V<'m>> {
        let mut out = Vec::with_capacity(vals.len());
        for b in self.old.func().blocks() {
            out.extend(b.instructions().into_iter().filter(|i| vals.contains(i)));
            if out.len() == vals.len() {
                break;
            }
        }
        out
    }

    pub(super) fn stack_slots(&mut self) {
        let allocas = self.in_old_order(self.plan.homes.keys().copied().collect());
        for a in allocas {
            let home = self.plan.homes[&a].clone();
            let escapes = match home {
                AllocaHome::Stack => None,
                AllocaHome::StackCaps { escapes } => Some(escapes),
                AllocaHome::Frame => {
                    self.frame_object(a);
                    continue;
                }
                AllocaHome::Heap(_) => continue,
            };
            let ll = &self.m.ll;
            let ty = a.allocated_type();
            let count = a.operand(0).const_int_value().unwrap_or(1);
            let size = ll.size_of(ty) * count;
            let mut align = a.alignment().max(1);
            let slot = if escapes.is_some() {
                // Whole words, word-aligned: copied out a word at a time.
                align = align.max(8);
                ll.entry_alloca(self.new, ll.array_ty(ll.i64(), size.div_ceil(8)))
            } else if count == 1 {
                ll.entry_alloca(self.new, ty)
            } else {
                ll.entry_alloca(self.new, ll.array_ty(ty, count))
            };
            slot.set_alignment(align);
            ll.memset(slot, ll.const_int(ll.i8(), 0), ll.i64c(size), align);
            if let Some(escapes) = escapes {
                let words = size.div_ceil(8);
                let caps = ll.entry_alloca(self.new, ll.array_ty(ll.ptr(), words));
                caps.set_alignment(8);
                ll.memset(caps, ll.const_int(ll.i8(), 0), ll.i64c(words * 8), 8);
                let copy = escapes.then(|| {
                    let c = ll.entry_alloca(self.new, ll.ptr());
                    ll.store(ll.null_ptr(), c, 8);
                    c
                });
                self.stack_caps.insert(
                    slot,
                    StackCaps {
                        caps,
                        copy,
                        size,
                        align: u64::from(align),
                    },
                );
                self.m.stats.stack_cap_allocas += 1;
            }
            self.trusted_ints.insert(slot);
            self.set(
                a,
                Tx {
                    int: slot,
                    cap: Some(self.m.ll.null_ptr()),
                },
            );
            self.m.stats.stack_allocas += 1;
        }
    }

    /// An [`AllocaHome::Frame`] alloca: `[header][payload][shadow]` in the
    /// frame, 16-aligned. Made an object here (in the prologue), or where
    /// first needed when lazy allocas planned a point for it.
    pub(super) fn frame_object(&mut self, a: V<'m>) {
        let ll = &self.m.ll;
        let size = alloca_bytes(ll, a);
        let words = 2 + 2 * size.div_ceil(8);
        let storage = ll.entry_alloca(self.new, ll.array_ty(ll.i64(), words));
        storage.set_alignment(16);
        if self.plan.lazy.allocas.contains(&a) {
            self.frame_storage.insert(a, storage);
            return;
        }
        let lower = self.init_frame_object(storage, size);
        let t = Tx {
            int: lower,
            cap: Some(lower),
        };
        self.note_stack_object(t.cap, size);
        self.m.stats.frame_objects += 1;
        self.set(a, t);
    }

    /// Makes `storage` an object of `size` bytes: the payload (whole
    /// words) and its inline shadow zeroed, the header naming the exact
    /// bounds and the shadow (as the runtime's small objects do) and
    /// flagging it a stack object (`free` refuses it). Returns its
    /// `lower`. The collector takes the capability for a non-heap one and
    /// finds the heap objects the shadow refers to with the stack scan.
    pub(super) fn init_frame_object(&mut self, storage: V<'m>, size: u64) -> V<'m> {
        let ll = &self.m.ll;
        let payload = super::super::globals::shadow_distance(size);
        let lower = ll.gep_i8c(storage, HEADER_SIZE as u64);
        let upper = ll.gep_i8c(storage, HEADER_SIZE as u64 + size);
        ll.memset(lower, ll.const_int(ll.i8(), 0), ll.i64c(2 * payload), 16);
        ll.store(ll.ptrtoint(upper, ll.i64()), storage, 16);
        // The shadow is inline, right after the payload.
        let aux = gimso_abi::aux_with_delta(FLAG_STACK, payload as isize);
        ll.store(ll.i64c(aux), ll.gep_i8c(storage, 8), 8);
        self.note_frame_shadow(lower, size);
        lower
    }

    /// Records that `cap` is a frame object of `size` bytes, whose inline
    /// shadow words lie at the distance its size fixes.
    pub(super) fn note_frame_shadow(&mut self, cap: V<'m>, size: u64) {
        self.frame_shadows
            .insert(cap, super::super::globals::shadow_distance(size));
    }

    pub(super) fn site_for_function(&mut self) -> V<'m> {
        // The first instruction with a location stands for the function.
        for b in self.old.func().blocks() {
            for i in b.instructions() {
                if i.debug_loc().is_some() {
                    let saved = self.cur_old;
                    self.cur_old = i;
                    let s = self.site();
                    self.cur_old = saved;
                    return s;
                }
            }
        }
        self.m.ll.null_ptr()
    }

    /// Whether the function calls anything but LLVM intrinsics (which never
    /// run program code); inline assembly counts as a call.
    pub(super) fn makes_calls(&self) -> bool {
        self.old.func().blocks().into_iter().any(|b| {
            b.instructions().into_iter().any(|i| {
                matches!(
                    i.opcode(),
                    Opcode::LLVMCall | Opcode::LLVMInvoke | Opcode::LLVMCallBr
                ) && {
                    let c = i.called_value();
                    !(c.is_function() && c.name().starts_with("llvm."))
                }
            })
        })
    }

    pub(super) fn uses_va_start(&self) -> bool {
        for b in self.old.func().blocks() {
            for i in b.instructions() {
                if i.opcode() == Opcode::LLVMCall {
                    let c = i.called_value();
                    if c.is_function() && c.name() == "llvm.va_start" {
                        return true;
                    }
                }
            }
        }
        false
    }
}
