//! LLVM intrinsics: memory intrinsics, varargs, and the rest by class.

use super::*;

impl<'m> FnTx<'_, 'm> {
    pub(super) fn arg(&mut self, inst: V<'m>, i: u32) -> Tx<'m> {
        let o = inst.operand(i);
        self.tx(o)
    }

    /// A copy of `len` bytes (whole words, at most [`INLINE_COPY_MAX`]) from
    /// `s` to `d` as pointer-word loads and stores when both addresses are
    /// word-aligned (a struct assignment, SQLite's `Mem` copies): each word
    /// takes its capability along, as the runtime's copy would, without the
    /// call. All words are loaded before any is stored, so overlapping
    /// ranges copy as `memmove` does. Leaves the builder in the block that
    /// makes the runtime call for unaligned addresses, which must branch to
    /// the returned join block.
    pub(super) fn inline_word_copy(&mut self, d: Tx<'m>, s: Tx<'m>, len: u64) -> B<'m> {
        let ll = &self.m.ll;
        let i64 = ll.i64();
        let both = ll.or(ll.ptrtoint(d.int, i64), ll.ptrtoint(s.int, i64));
        let mis = ll.and(both, ll.i64c(WORD_SIZE - 1));
        let aligned = ll.icmp(IntPredicate::LLVMIntEQ, mis, ll.i64c(0));
        let words = ll.append_block(self.new, "");
        let runtime = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, words, runtime);
        ll.position_at_end(words);
        // Alignment 1: the runtime path below takes unaligned copies, so
        // what holds after the join is the bounds (which the runtime also
        // checks before copying), never alignment.
        self.check(s, len, 1, false);
        self.check(d, len, 1, true);
        let ptr = self.m.ll.ptr();
        let mut loaded = Vec::new();
        for i in 0..len / WORD_SIZE {
            let at = Tx {
                int: self.m.ll.gep_i8c(s.int, i * WORD_SIZE),
                cap: s.cap,
            };
            loaded.push(self.load_value(ptr, at, false));
        }
        for (i, v) in loaded.into_iter().enumerate() {
            let at = Tx {
                int: self.m.ll.gep_i8c(d.int, i as u64 * WORD_SIZE),
                cap: d.cap,
            };
            self.store_value(ptr, v, at, false);
        }
        self.m.ll.br(join);
        self.m.ll.position_at_end(runtime);
        self.m.stats.inline_copies += 1;
        join
    }

    /// A call of an intrinsic, lowered as its entry in
    /// [`crate::intrinsics`]'s table says.
    pub(super) fn tx_intrinsic(&mut self, inst: V<'m>, callee: V<'m>) {
        let name = callee.name();
        let ty = inst.type_of();
        let class = callee.as_func().and_then(|f| classify(f));
        let lowering = match class {
            Some(IntrinsicClass::Handled(lowering, _)) => lowering,
            Some(IntrinsicClass::NoMemory) => Lowering::Kept,
            _ => {
                self.error(
                    &format!("the intrinsic `{name}`"),
                    "it accesses memory and gimso has no checked form of it yet",
                );
                if ty.kind() != TypeKind::LLVMVoidTypeKind {
                    let z = self.zero(ty);
                    self.set(inst, z);
                }
                return;
            }
        };
        match lowering {
            Lowering::MemTransfer => self.tx_mem_transfer(inst),
            Lowering::MemSet => self.tx_memset(inst),
            Lowering::VaStart => self.tx_va_start(inst),
            Lowering::VaCopy => {
                let (d, s) = (self.arg(inst, 0), self.arg(inst, 1));
                let site = self.site();
                let ll = &self.m.ll;
                let (dc, sc) = (
                    d.cap.unwrap_or_else(|| ll.null_ptr()),
                    s.cap.unwrap_or_else(|| ll.null_ptr()),
                );
                call(
                    ll,
                    "gimso_memmove_at",
                    &[d.int, dc, s.int, sc, ll.i64c(24), site],
                );
            }
            Lowering::Dropped => {}
            Lowering::NullToken => {
                let z = self.zero(ty);
                self.set(inst, z);
            }
            Lowering::FirstOperand => {
                let a = self.arg(inst, 0);
                self.set(inst, a);
            }
            Lowering::ObjectSize => {
                let min = inst.operand(1);
                let is_min = min.const_int_value().unwrap_or(0) != 0;
                let v = if is_min { 0 } else { u64::MAX };
                let c = self.m.ll.const_int(ty, v);
                self.set(inst, Tx::plain(c));
            }
            Lowering::PtrMask => {
                let p = inst.operand(0);
                self.tx_generic(inst);
                let cap = self.cap(p);
                if let Some(t) = self.vals.get_mut(&inst) {
                    t.cap = Some(cap);
                }
            }
            Lowering::ThreadLocal => self.tx_threadlocal_address(inst),
            Lowering::TypeId => {
                let t = inst.operand(0);
                let id = self.m.type_id(t);
                let c = self.m.ll.const_int(ty, id as u64);
                self.set(inst, Tx::plain(c));
            }
            Lowering::Masked => match Masked::of(&name) {
                Some(kind) => self.tx_masked(inst, kind),
                None => {
                    self.error(
                        &format!("the intrinsic `{name}`"),
                        "this masked access has no checked form yet",
                    );
                }
            },
            Lowering::NotConstant => {
                let c = self.m.ll.const_int(ty, 0);
                self.set(inst, Tx::plain(c));
            }
            Lowering::FrameAddress => self.tx_frame_address(inst, &name),
            Lowering::Kept => self.tx_generic(inst),
        }
    }

    /// `llvm.memcpy` / `llvm.memmove`: whole words inline when short and
    /// aligned, else the runtime's checked copy.
    fn tx_mem_transfer(&mut self, inst: V<'m>) {
        let site = self.site();
        let (d, s, len) = (self.arg(inst, 0), self.arg(inst, 1), self.arg(inst, 2));
        let volatile = inst.operand(3).const_int_value() != Some(0);
        let words = len
            .int
            .const_int_value()
            .filter(|&l| (WORD_SIZE..=INLINE_COPY_MAX).contains(&l) && l % WORD_SIZE == 0);
        let join = match words {
            Some(l) if !volatile && !self.trusted_ptr(d) && !self.trusted_ptr(s) => {
                Some(self.inline_word_copy(d, s, l))
            }
            _ => None,
        };
        let ll = &self.m.ll;
        let len = ll.int_cast(len.int, ll.i64());
        let (dc, sc) = (
            d.cap.unwrap_or_else(|| ll.null_ptr()),
            s.cap.unwrap_or_else(|| ll.null_ptr()),
        );
        call(ll, "gimso_memmove_at", &[d.int, dc, s.int, sc, len, site]);
        if let Some(join) = join {
            ll.br(join);
            ll.position_at_end(join);
        }
    }

    /// `llvm.memset`: of a private stack slot or a fresh local, nothing
    /// more to do; short and whole words, inline; else the runtime's.
    fn tx_memset(&mut self, inst: V<'m>) {
        if self.memset_private(inst) {
            self.m.stats.stack_memsets += 1;
            return;
        }
        if self.zeroes_fresh_alloca(inst) {
            self.m.stats.fresh_zeroings += 1;
            return;
        }
        let site = self.site();
        let (d, v, len) = (self.arg(inst, 0), self.arg(inst, 1), self.arg(inst, 2));
        let volatile = inst.operand(3).const_int_value() != Some(0);
        if let Some(n) = len.int.const_int_value() {
            if !volatile && n > 0 && n <= INLINE_MEMSET_MAX && n % 8 == 0 {
                self.inline_memset(d, v.int, n, site);
                return;
            }
        }
        let ll = &self.m.ll;
        let len = ll.int_cast(len.int, ll.i64());
        let v = ll.int_cast(v.int, ll.i32());
        let dc = d.cap.unwrap_or_else(|| ll.null_ptr());
        call(ll, "gimso_memset_at", &[d.int, dc, v, len, site]);
    }

    /// `llvm.threadlocal.address`: this thread's copy of the variable.
    fn tx_threadlocal_address(&mut self, inst: V<'m>) {
        let ty = inst.type_of();
        let g = inst.operand(0);
        match self.m.obj_map.get(&g).copied() {
            Some(GlobalTx::Data(obj)) if self.m.tls_objects.contains(&obj) => {
                let ll = &self.m.ll;
                let image = ll.const_gep_i8(obj, 16);
                let r = call(ll, "gimso_tls_address", &[self.thread, image, image]);
                let t = self.pair(r);
                self.set(inst, t);
            }
            _ => {
                self.error(
                    "llvm.threadlocal.address",
                    "its operand is not a thread-local variable",
                );
                let z = self.zero(ty);
                self.set(inst, z);
            }
        }
    }

    /// `__builtin_frame_address(0)` (interpreters' stack-depth checks) and
    /// friends: the address as a number, with no capability, so it
    /// compares and subtracts but never dereferences. A deeper level walks
    /// the chain of saved frame pointers, raw stack memory the compiled
    /// code does not keep.
    fn tx_frame_address(&mut self, inst: V<'m>, name: &str) {
        let deeper = !name.starts_with("llvm.addressofreturnaddress") && {
            let level = inst.operand(0);
            level.const_int_value() != Some(0)
        };
        if !deeper {
            self.tx_generic(inst);
            return;
        }
        let what = if name.starts_with("llvm.frameaddress") {
            "`__builtin_frame_address` with a level other than 0"
        } else {
            "`__builtin_return_address` with a level other than 0"
        };
        self.error(
            what,
            "it reads the frames of callers through saved frame pointers; only level 0 (this function's own frame) is supported",
        );
        let ty = inst.type_of();
        let z = self.zero(ty);
        self.set(inst, z);
    }

    /// `va_start(ap)`: the x86-64 `va_list` is set up so clang's inline
    /// `va_arg` code always takes its memory path, reading the argument
    /// object (gp_offset 48, fp_offset 176, overflow_arg_area = the first
    /// variadic argument, reg_save_area null).
    pub(super) fn tx_va_start(&mut self, inst: V<'m>) {
        let ap = self.arg(inst, 0);
        let Some(va) = self.va_obj else {
            self.error("va_start", "used outside a variadic function");
            return;
        };
        self.check(ap, 24, 8, true);
        let ll = &self.m.ll;
        ll.store(ll.i32c(48), ap.int, 1);
        ll.store(ll.i32c(176), ll.gep_i8c(ap.int, 4), 1);
        // The object starts at the word of the first variadic argument.
        let area = Tx {
            int: ll.gep_i8c(va.int, self.fixed_bytes % 8),
            cap: va.cap,
        };
        let slot = Tx {
            int: ll.gep_i8c(ap.int, 8),
            cap: ap.cap,
        };
        self.store_value(self.m.ll.ptr(), area, slot, false);
        let ll = &self.m.ll;
        let slot2 = Tx {
            int: ll.gep_i8c(ap.int, 16),
            cap: ap.cap,
        };
        let null = Tx {
            int: ll.null_ptr(),
            cap: Some(ll.null_ptr()),
        };
        self.store_value(self.m.ll.ptr(), null, slot2, false);
    }
}
