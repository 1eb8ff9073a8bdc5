//! Memory: values of any type at a checked address, pointers with their
//! capabilities from shadow storage or atomic boxes.

use super::*;
use crate::llvm::{IntPredicate, Opcode, Ordering, TypeKind, ValueKind, Visibility};

impl<'m> FnTx<'_, 'm> {
    /// Loads a value of `ty` at `p` (already checked); pointers come with
    /// their capabilities from shadow storage or atomic boxes.
    pub(super) fn load_value(&mut self, ty: T<'m>, p: Tx<'m>, atomic: bool) -> Tx<'m> {
        let ll = &self.m.ll;
        if let Some(cap) = p.cap.filter(|_| !atomic && is_word_int(ty)) {
            // A 64-bit field of an aggregate that carries capability
            // words: the capability at rest in its word, as an integer.
            let v = ll.load(ty, p.int, 1);
            ll.not_header(v);
            let c = self.word_cap(p.int, cap);
            let ll = &self.m.ll;
            return Tx {
                int: v,
                cap: Some(ll.ptrtoint(c, ll.i64())),
            };
        }
        if !has_ptr(ty) && (atomic || !aggregate_carries(ty)) {
            let v = ll.load(ty, p.int, 1);
            ll.not_header(v);
            return Tx::plain(v);
        }
        let cap = p.cap.unwrap_or_else(|| ll.null_ptr());
        match ty.kind() {
            TypeKind::LLVMPointerTypeKind => {
                if !atomic {
                    return self.inline_load_ptr(p.int, cap);
                }
                let r = call(ll, "gimso_atomic_load_ptr", &[p.int, cap]);
                self.pair(r)
            }
            TypeKind::LLVMStructTypeKind => {
                let fields = ty.struct_fields();
                let mut int = ll.zero(ty);
                let mut capv = ll.zero(ty);
                for (i, f) in fields.into_iter().enumerate() {
                    let off = self.m.ll.field_offset(ty, i as u32);
                    let at = Tx {
                        int: self.m.ll.gep_i8c(p.int, off),
                        cap: p.cap,
                    };
                    let e = self.load_value(f, at, false);
                    let ll = &self.m.ll;
                    int = ll.insert_value(int, e.int, i as u32);
                    if let Some(c) = e.cap {
                        capv = ll.insert_value(capv, c, i as u32);
                    }
                }
                Tx {
                    int,
                    cap: Some(capv),
                }
            }
            TypeKind::LLVMArrayTypeKind => {
                let e_ty = ty.element_type();
                let n = ty.array_len();
                let stride = ll.size_of(e_ty);
                let mut int = ll.zero(ty);
                let mut capv = ll.zero(ty);
                for i in 0..n {
                    let at = Tx {
                        int: self.m.ll.gep_i8c(p.int, i * stride),
                        cap: p.cap,
                    };
                    let e = self.load_value(e_ty, at, false);
                    let ll = &self.m.ll;
                    int = ll.insert_value(int, e.int, i as u32);
                    if let Some(c) = e.cap {
                        capv = ll.insert_value(capv, c, i as u32);
                    }
                }
                Tx {
                    int,
                    cap: Some(capv),
                }
            }
            _ => {
                // A vector of pointers, lane by lane.
                let n = ty.vector_len();
                let mut int = ll.zero(ty);
                let mut capv = ll.zero(ty);
                for i in 0..u64::from(n) {
                    let at = Tx {
                        int: self.m.ll.gep_i8c(p.int, i * 8),
                        cap: p.cap,
                    };
                    let e = self.load_value(self.m.ll.ptr(), at, false);
                    let ll = &self.m.ll;
                    int = ll.insert_element(int, e.int, ll.i32c(i));
                    capv = ll.insert_element(capv, e.cap.unwrap_or(ll.null_ptr()), ll.i32c(i));
                }
                Tx {
                    int,
                    cap: Some(capv),
                }
            }
        }
    }

    /// Stores `v` (of `ty`) at `p` (already checked).
    pub(super) fn store_value(&mut self, ty: T<'m>, v: Tx<'m>, p: Tx<'m>, atomic: bool) {
        let ll = &self.m.ll;
        if !atomic && is_word_int(ty) {
            // A 64-bit field of an aggregate carrying capability words.
            match v.cap {
                Some(c) if !c.is_null_constant() => {
                    let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
                    let vcap = ll.inttoptr(c, ll.ptr());
                    self.store_word(p.int, pcap, v.int, vcap);
                }
                _ => {
                    let s = ll.store(v.int, p.int, 1);
                    ll.not_header(s);
                }
            }
            return;
        }
        let carried = v.cap.is_some() && aggregate_carries(ty);
        if !has_ptr(ty) && (atomic || !carried) {
            let s = ll.store(v.int, p.int, 1);
            ll.not_header(s);
            return;
        }
        let pcap = p.cap.unwrap_or_else(|| ll.null_ptr());
        let vcap = v.cap.unwrap_or_else(|| ll.zero(ty));
        match ty.kind() {
            TypeKind::LLVMPointerTypeKind => {
                if atomic {
                    call(ll, "gimso_atomic_store_ptr", &[p.int, pcap, v.int, vcap]);
                } else {
                    self.inline_store_ptr(p.int, pcap, v.int, vcap);
                }
            }
            TypeKind::LLVMStructTypeKind | TypeKind::LLVMArrayTypeKind => {
                let parts: Vec<(T<'m>, u64)> = if ty.kind() == TypeKind::LLVMStructTypeKind {
                    ty.struct_fields()
                        .into_iter()
                        .enumerate()
                        .map(|(i, f)| (f, ll.field_offset(ty, i as u32)))
                        .collect()
                } else {
                    let e = ty.element_type();
                    let stride = ll.size_of(e);
                    (0..ty.array_len()).map(|i| (e, i * stride)).collect()
                };
                for (i, (f, off)) in parts.into_iter().enumerate() {
                    let ll = &self.m.ll;
                    let e = Tx {
                        int: ll.extract_value(v.int, i as u32),
                        cap: cc_carries(f).then(|| ll.extract_value(vcap, i as u32)),
                    };
                    let at = Tx {
                        int: ll.gep_i8c(p.int, off),
                        cap: p.cap,
                    };
                    self.store_value(f, e, at, false);
                }
            }
            _ => {
                let n = ty.vector_len();
                for i in 0..u64::from(n) {
                    let ll = &self.m.ll;
                    let idx = ll.i32c(i);
                    let e = Tx {
                        int: ll.extract_element(v.int, idx),
                        cap: Some(ll.extract_element(vcap, idx)),
                    };
                    let at = Tx {
                        int: ll.gep_i8c(p.int, i * 8),
                        cap: p.cap,
                    };
                    self.store_value(ll.ptr(), e, at, false);
                }
            }
        }
    }

    /// The shadow word address of the (checked, aligned) pointer slot
    /// `addr` of the object `cap`, and whether the object has shadow words
    /// (a pointer store may write the word): `addr + (aux >> 16)`, the
    /// header recording the signed distance from the payload to its
    /// shadow, or to the runtime's zero region when `FLAG_SHADOW` is clear
    /// (no shadow words yet: the word reads as a null capability but must
    /// not be written).
    pub(super) fn shadow_word(&mut self, addr: V<'m>, cap: V<'m>) -> (V<'m>, V<'m>) {
        let (word, aux) = self.shadow_address(addr, cap);
        let ll = &self.m.ll;
        let has = match aux {
            Some(aux) => {
                let flag = ll.and(aux, ll.i64c(gimso_abi::FLAG_SHADOW));
                ll.icmp(IntPredicate::LLVMIntNE, flag, ll.i64c(0))
            }
            None => ll.const_int(ll.i1_ty(), 1),
        };
        (word, has)
    }

    /// The address a pointer load reads the capability of the slot `addr`
    /// of the object `cap` from, with no test (see [`FnTx::shadow_word`]),
    /// and the aux word it came from: none for a frame object or a global
    /// defined here, born with inline shadow words at a distance their
    /// size fixes ([`FnTx::init_frame_object`], `globals::shadow_distance`).
    /// The address is made with `inttoptr`, not as a GEP of `addr`: the
    /// shadow is usually another object, which a pointer based on `addr`
    /// may not reach.
    pub(super) fn shadow_address(&mut self, addr: V<'m>, cap: V<'m>) -> (V<'m>, Option<V<'m>>) {
        let fixed = self.frame_shadows.get(&cap).copied().or_else(|| {
            self.m
                .static_upper(cap)
                .map(|b| super::super::globals::shadow_distance(b.size))
        });
        let ll = &self.m.ll;
        let i64 = ll.i64();
        let (delta, aux) = match fixed {
            Some(distance) => (ll.i64c(distance), None),
            None => {
                let aux_p = ll.gep_i8(cap, ll.const_int(i64, (-8i64) as u64));
                let aux = ll.load_header(aux_p);
                let shift = ll.i64c(u64::from(gimso_abi::AUX_DELTA_SHIFT));
                (ll.ashr(aux, shift), Some(aux))
            }
        };
        let word = ll.inttoptr(ll.add_i64(ll.ptrtoint(addr, i64), delta), ll.ptr());
        (word, aux)
    }

    /// Non-atomic pointer load, inline (gimso-atomics `plain_load`): the
    /// capability from the shadow word (the runtime reads atomic boxes),
    /// the intval from the payload.
    pub(super) fn inline_load_ptr(&mut self, addr: V<'m>, cap: V<'m>) -> Tx<'m> {
        let ll = &self.m.ll;
        let intval = ll.load_relaxed(ll.ptr(), addr, 8);
        let (lower, boxed) = self.shadow_lower(addr, cap);
        let at = self.cur_old;
        self.slot_caps.insert(
            lower,
            SlotRead {
                addr,
                cap,
                at,
                boxed,
            },
        );
        Tx {
            int: intval,
            cap: Some(lower),
        }
    }

    /// The capability at rest in the pointer-aligned word at `addr` (null
    /// if the object has no shadow words yet: its aux word leads to the
    /// zero region, so the word is read without a test; the runtime reads
    /// atomic boxes).
    /// With it, an `i1`: whether the word held an atomic box.
    pub(super) fn shadow_lower(&mut self, addr: V<'m>, cap: V<'m>) -> (V<'m>, V<'m>) {
        let (word, _) = self.shadow_address(addr, cap);
        let ll = &self.m.ll;
        let plain = ll.append_block(self.new, "");
        let boxed = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        let w = ll.load(ll.i64(), word, 8);
        w.set_ordering(Ordering::LLVMAtomicOrderingAcquire);
        let tag = ll.and(w, ll.i64c(gimso_abi::SHADOW_BOX_TAG as u64));
        let is_box = ll.icmp(IntPredicate::LLVMIntNE, tag, ll.i64c(0));
        ll.cond_br_unlikely(is_box, boxed, plain);
        ll.position_at_end(plain);
        let lower_plain = ll.inttoptr(w, ll.ptr());
        ll.br(join);
        ll.position_at_end(boxed);
        let r = call(ll, "gimso_load_ptr", &[addr, cap]);
        ll.not_header(r);
        let lower_boxed = ll.extract_value(r, 1);
        ll.br(join);
        ll.position_at_end(join);
        let lower = ll.phi(ll.ptr());
        lower.add_incoming(lower_plain, plain);
        lower.add_incoming(lower_boxed, boxed);
        let was_box = ll.phi(ll.i1_ty());
        let (no, yes) = (ll.const_int(ll.i1_ty(), 0), ll.const_int(ll.i1_ty(), 1));
        was_box.add_incoming(no, plain);
        was_box.add_incoming(yes, boxed);
        (lower, was_box)
    }

    /// The collector's marking flag (`gimso_gc_marking`: 0 or the epoch
    /// of the cycle marking).
    pub(super) fn marking_flag(&self) -> V<'m> {
        let ll = &self.m.ll;
        ll.get_global(gimso_abi::MARKING_FLAG_SYMBOL)
            .unwrap_or_else(|| {
                let g = ll.add_global(ll.i8(), gimso_abi::MARKING_FLAG_SYMBOL);
                // gimso-cc links the runtime statically: the flag is in the
                // same executable, read PC-relative (one `movzbl`) rather than
                // through its GOT entry.
                g.set_visibility(Visibility::LLVMHiddenVisibility);
                g
            })
    }

    /// Non-atomic pointer store, inline (gimso-atomics `plain_store`); the
    /// runtime takes over when the object needs its shadow words created
    /// and, while the collector marks, when the stored capability's header
    /// does not carry the current marking epoch (store barrier; see
    /// `gimso_shadow::barrier`).
    pub(super) fn inline_store_ptr(&mut self, addr: V<'m>, cap: V<'m>, vint: V<'m>, vcap: V<'m>) {
        if let Some(&read) = self.slot_caps.get(&vcap) {
            if (read.addr, read.cap) == (addr, cap)
                && self.nothing_written_between(read.at, self.cur_old)
            {
                return self.store_ptr_in_place(read, vint, vcap);
            }
        }
        self.store_ptr_full(addr, cap, vint, vcap);
    }

    /// [`FnTx::inline_store_ptr`] for a capability of any origin.
    pub(super) fn store_ptr_full(&mut self, addr: V<'m>, cap: V<'m>, vint: V<'m>, vcap: V<'m>) {
        let (word, has) = self.shadow_word(addr, cap);
        let ll = &self.m.ll;
        if vcap.is_null_constant() {
            // A constant null capability (`p->next = NULL`, an integer
            // constant): no barrier, so no look at the collector's state;
            // the shadow word is cleared if the object has shadow words.
            let shadowed = ll.append_block(self.new, "");
            let join = ll.append_block(self.new, "");
            let st = ll.store(vint, addr, 8);
            ll.not_header(st);
            st.set_ordering(Ordering::LLVMAtomicOrderingMonotonic);
            ll.cond_br_likely(has, shadowed, join);
            ll.position_at_end(shadowed);
            let sw = ll.store(vcap, word, 8);
            sw.set_ordering(Ordering::LLVMAtomicOrderingRelease);
            ll.not_header(sw);
            ll.br(join);
            ll.position_at_end(join);
            return;
        }
        let i8t = ll.i8();
        let flag = self.marking_flag();
        let ll = &self.m.ll;
        let vnull = ll.icmp(
            IntPredicate::LLVMIntEQ,
            ll.ptrtoint(vcap, ll.i64()),
            ll.i64c(0),
        );
        let shadowed = ll.append_block(self.new, "");
        let no_shadow = ll.append_block(self.new, "");
        let plain = ll.append_block(self.new, "");
        let fast = ll.append_block(self.new, "");
        let marking = ll.append_block(self.new, "");
        let stamped = ll.append_block(self.new, "");
        let slow = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        // The usual case first, two branches: the object has shadow words
        // and the collector is not marking.
        ll.cond_br_likely(has, shadowed, no_shadow);
        ll.position_at_end(shadowed);
        let epoch = ll.load_relaxed(i8t, flag, 1);
        let idle = ll.icmp(IntPredicate::LLVMIntEQ, epoch, ll.const_int(i8t, 0));
        ll.cond_br_likely(idle, fast, marking);
        // Marking: a null capability or one whose object was already seen
        // in this cycle needs no barrier.
        ll.position_at_end(marking);
        ll.cond_br(vnull, fast, stamped);
        ll.position_at_end(stamped);
        // An atomic load: a plain one could be hoisted out of a loop and
        // compared with a later cycle's epoch.
        let aux_p = ll.gep_i8(vcap, ll.const_int(ll.i64(), (-8i64) as u64));
        let aux = ll.load_relaxed(ll.i64(), aux_p, 8);
        let target_epoch = ll.int_cast(
            ll.and(
                ll.lshr(aux, ll.i64c(u64::from(gimso_abi::BARRIER_EPOCH_SHIFT))),
                ll.i64c(u64::from(gimso_abi::MAX_BARRIER_EPOCH)),
            ),
            i8t,
        );
        let marked = ll.icmp(IntPredicate::LLVMIntEQ, target_epoch, epoch);
        ll.cond_br_likely(marked, fast, slow);
        ll.position_at_end(fast);
        let st = ll.store(vint, addr, 8);
        ll.not_header(st);
        st.set_ordering(Ordering::LLVMAtomicOrderingMonotonic);
        let sw = ll.store(vcap, word, 8);
        sw.set_ordering(Ordering::LLVMAtomicOrderingRelease);
        ll.not_header(sw);
        ll.br(join);
        // No shadow words yet: a null capability needs none (and no
        // barrier); any other makes the runtime create them.
        ll.position_at_end(no_shadow);
        ll.cond_br(vnull, plain, slow);
        ll.position_at_end(plain);
        let st = ll.store(vint, addr, 8);
        ll.not_header(st);
        st.set_ordering(Ordering::LLVMAtomicOrderingMonotonic);
        ll.br(join);
        ll.position_at_end(slow);
        call(ll, "gimso_store_ptr", &[addr, cap, vint, vcap]);
        ll.br(join);
        ll.position_at_end(join);
    }

    /// A pointer store of a capability read from the same slot
    /// (`L->top++`; `p->next = p->next->next` is not one) with nothing
    /// written in between: the intval alone. The slot's shadow word already
    /// holds that capability (or what a racing store put there since,
    /// which a racy plain store may leave as well), so no capability is
    /// written, no reference is made and the collector needs no barrier
    /// (a Dijkstra barrier is about references stored, and none is).
    /// Unless the read found the slot in atomic mode: atomic loads take the
    /// value from its box, so the full store puts it back in plain mode.
    pub(super) fn store_ptr_in_place(&mut self, read: SlotRead<'m>, vint: V<'m>, vcap: V<'m>) {
        self.m.stats.in_place_stores += 1;
        let ll = &self.m.ll;
        let plain = ll.append_block(self.new, "");
        let full = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br_unlikely(read.boxed, full, plain);
        ll.position_at_end(plain);
        let st = ll.store(vint, read.addr, 8);
        ll.not_header(st);
        st.set_ordering(Ordering::LLVMAtomicOrderingMonotonic);
        ll.br(join);
        ll.position_at_end(full);
        self.store_ptr_full(read.addr, read.cap, vint, vcap);
        let ll = &self.m.ll;
        ll.br(join);
        ll.position_at_end(join);
    }

    /// Whether old instructions `load` and `store` are in one block, in
    /// that order, with nothing between them that may write memory (the
    /// program's stores and calls; a racing thread's stores are races the
    /// program has, which may tear a pointer anyway).
    pub(super) fn nothing_written_between(&self, load: V<'m>, store: V<'m>) -> bool {
        use Opcode::*;
        let mut i = load.next_instruction();
        while let Some(inst) = i {
            if inst == store {
                return true;
            }
            let harmless = match inst.opcode() {
                LLVMGetElementPtr | LLVMLoad | LLVMBitCast | LLVMPtrToInt | LLVMIntToPtr
                | LLVMTrunc | LLVMZExt | LLVMSExt | LLVMAdd | LLVMSub | LLVMMul | LLVMShl
                | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor | LLVMICmp | LLVMSelect
                | LLVMExtractValue | LLVMFreeze => true,
                LLVMCall => inst.called_value().name().starts_with("llvm.dbg."),
                _ => false,
            };
            if !harmless {
                return false;
            }
            i = inst.next_instruction();
        }
        // The end of the load's block: the store is elsewhere.
        false
    }

    /// `memset(d, val, n)` of a constant whole number of words, inline:
    /// the access check, the fill, and the capabilities of the `n / 8`
    /// words nulled (when the object has shadow words). An address that is
    /// not 8-aligned touches one word more and goes to the runtime.
    /// (clang's `-ftrivial-auto-var-init=zero` clears every escaping local
    /// this way at its declaration: SQLite's 56-byte `Mem`s in each
    /// `sqlite3VdbeExec` opcode.)
    pub(super) fn inline_memset(&mut self, d: Tx<'m>, val: V<'m>, n: u64, site: V<'m>) {
        let aligned = self.word_aligned(d.int);
        let ll = &self.m.ll;
        let cap = d.cap.unwrap_or_else(|| ll.null_ptr());
        let fast = ll.append_block(self.new, "");
        let slow = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, fast, slow);
        ll.position_at_end(slow);
        let val32 = ll.int_cast(val, ll.i32());
        call(
            ll,
            "gimso_memset_at",
            &[d.int, cap, val32, ll.i64c(n), site],
        );
        ll.br(join);
        ll.position_at_end(fast);
        self.check(d, n, 1, true);
        let ll = &self.m.ll;
        let val8 = ll.int_cast(val, ll.i8());
        let fill = ll.memset(d.int, val8, ll.i64c(n), 8);
        ll.not_header(fill);
        let (word, has) = self.shadow_word(d.int, cap);
        let ll = &self.m.ll;
        let clear = ll.append_block(self.new, "");
        ll.cond_br(has, clear, join);
        ll.position_at_end(clear);
        for k in 0..n / 8 {
            let st = ll.store(ll.i64c(0), ll.gep_i8c(word, k * 8), 8);
            st.set_ordering(Ordering::LLVMAtomicOrderingMonotonic);
            ll.not_header(st);
        }
        ll.br(join);
        ll.position_at_end(join);
    }

    /// Whether storing integer value `v` stores a capability with it: an
    /// `i64` the inference gave exactly one capability (a pointer copied
    /// as an integer, as the optimiser's `memcpy` lowering and SROA do;
    /// see the `inttoptr` module).
    pub(super) fn carries_cap(&self, v: V<'m>) -> bool {
        let ty = v.type_of();
        if ty.kind() != TypeKind::LLVMIntegerTypeKind || ty.int_width() != 64 {
            return false;
        }
        if self.const_ptrtoint(v).is_some() {
            return true;
        }
        if v.value_kind() != ValueKind::LLVMInstructionValueKind {
            return self.boundary_caps.contains_key(&v);
        }
        matches!(self.plan.inference.cap(v), Cap::Definite(_))
    }

    /// Whether `addr` is 8-aligned (only such words hold capabilities).
    pub(super) fn word_aligned(&self, addr: V<'m>) -> V<'m> {
        let ll = &self.m.ll;
        let low = ll.and(ll.ptrtoint(addr, ll.i64()), ll.i64c(7));
        ll.icmp(IntPredicate::LLVMIntEQ, low, ll.i64c(0))
    }

    /// The capability at rest in the word at `addr` (already checked for
    /// an 8-byte read through `cap`): null when `addr` is not 8-aligned,
    /// since only aligned words hold capabilities.
    pub(super) fn word_cap(&mut self, addr: V<'m>, cap: V<'m>) -> V<'m> {
        let aligned = self.word_aligned(addr);
        let ll = &self.m.ll;
        let from = ll.current_block();
        let read = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, read, join);
        ll.position_at_end(read);
        let (lower, was_box) = self.shadow_lower(addr, cap);
        let ll = &self.m.ll;
        let read_end = ll.current_block();
        ll.br(join);
        ll.position_at_end(join);
        let phi = ll.phi(ll.ptr());
        phi.add_incoming(ll.null_ptr(), from);
        phi.add_incoming(lower, read_end);
        let boxed = ll.phi(ll.i1_ty());
        boxed.add_incoming(ll.const_int(ll.i1_ty(), 0), from);
        boxed.add_incoming(was_box, read_end);
        let at = self.cur_old;
        self.slot_caps.insert(
            phi,
            SlotRead {
                addr,
                cap,
                at,
                boxed,
            },
        );
        phi
    }

    /// Stores the word `vint` with capability `vcap` at `addr` (already
    /// checked for an 8-byte write through `cap`): as a pointer when
    /// `addr` is 8-aligned and `vcap` is not null, else as a plain integer,
    /// which leaves the capability at rest alone (the spec's integer store:
    /// a number that crossed a call, or was copied from a word without a
    /// capability, is stored as the number it is).
    pub(super) fn store_word(&mut self, addr: V<'m>, cap: V<'m>, vint: V<'m>, vcap: V<'m>) {
        let ll = &self.m.ll;
        if vcap.is_null_constant() {
            let s = ll.store(vint, addr, 1);
            ll.not_header(s);
            return;
        }
        let mut aligned = self.word_aligned(addr);
        let ll = &self.m.ll;
        if !vcap.is_constant() {
            let has = ll.icmp(IntPredicate::LLVMIntNE, vcap, ll.null_ptr());
            aligned = ll.and(aligned, has);
        }
        let as_ptr = ll.append_block(self.new, "");
        let as_int = ll.append_block(self.new, "");
        let join = ll.append_block(self.new, "");
        ll.cond_br(aligned, as_ptr, as_int);
        ll.position_at_end(as_ptr);
        let vptr = ll.inttoptr(vint, ll.ptr());
        self.inline_store_ptr(addr, cap, vptr, vcap);
        let ll = &self.m.ll;
        ll.br(join);
        ll.position_at_end(as_int);
        let s = ll.store(vint, addr, 1);
        ll.not_header(s);
        ll.br(join);
        ll.position_at_end(join);
    }

    // ---- CC buffers -------------------------------------------------------------

    /// Reads a value of `ty` from CC buffer offset `off`.
    pub(super) fn read_buf(&mut self, ty: T<'m>, payload: V<'m>, caps: V<'m>, off: u64) -> Tx<'m> {
        buffers::read_value(&self.m.ll, ty, payload, caps, off)
    }

    /// Writes `v` of `ty` at CC buffer offset `off` (capability words of
    /// its span must already be zero).
    pub(super) fn write_buf(
        &mut self,
        ty: T<'m>,
        v: Tx<'m>,
        payload: V<'m>,
        caps: V<'m>,
        off: u64,
    ) {
        buffers::write_value(&self.m.ll, ty, v, payload, caps, off);
    }

    pub(super) fn zero_caps(&self, caps: V<'m>, bytes: u64) {
        buffers::zero_caps(&self.m.ll, caps, bytes);
    }
}
