//! Exceptions in a translated body (docs/translation.md, "Exceptions, unwinding and setjmp"; spec "Invoke", "Landing
//! Pad", "Resume"): the frame record of a function with a personality,
//! the exception check after every call, landing pads and `resume`.

use crate::llvm::{AttrAt, IntPredicate, Opcode, TypeKind};
use gimso_abi::{
    FRAME_EPOCH_OFFSET, FRAME_LSDA_OFFSET, FRAME_NO_PERSONALITY, FRAME_PERSONALITY_OFFSET,
    FRAME_PREV_OFFSET,
};

use super::super::consts::Tx;
use super::super::layout::has_ptr;
use super::super::ll::B;
use super::super::runtime::call;
use super::{FnTx, THREAD_UNWIND_FRAMES_OFFSET, V};

impl<'m> FnTx<'_, 'm> {
    /// Links this function's frame record (if it has a personality) on the
    /// thread's chain. Runs at the end of the prologue.
    pub(super) fn push_frame(&mut self) {
        let p = match self.old.func().personality() {
            Some(pers) => self.tx(pers),
            // A record only so `longjmp` can find the frame.
            None if self.calls_setjmp() => {
                let ll = &self.m.ll;
                let marker = ll.const_int(ll.i64(), FRAME_NO_PERSONALITY as u64);
                Tx::plain(ll.const_inttoptr(marker, ll.ptr()))
            }
            None => return,
        };
        let ll = &self.m.ll;
        let ptr = ll.ptr();
        let ty = ll.struct_ty(&[ptr, ptr, ptr, ptr, ptr, ll.i64()]);
        let rec = self.entry_alloca(ty);
        let ll = &self.m.ll;
        let slot = ll.gep_i8c(self.thread, THREAD_UNWIND_FRAMES_OFFSET as u64);
        let prev = ll.load(ptr, slot, 8);
        ll.store(prev, ll.gep_i8c(rec, FRAME_PREV_OFFSET as u64), 8);
        let pc = p.cap.unwrap_or_else(|| ll.null_ptr());
        let at = FRAME_PERSONALITY_OFFSET as u64;
        ll.store(p.int, ll.gep_i8c(rec, at), 8);
        ll.store(pc, ll.gep_i8c(rec, at + 8), 8);
        let null = ll.null_ptr();
        let at = FRAME_LSDA_OFFSET as u64;
        ll.store(null, ll.gep_i8c(rec, at), 8);
        ll.store(null, ll.gep_i8c(rec, at + 8), 8);
        ll.store(ll.i64c(0), ll.gep_i8c(rec, FRAME_EPOCH_OFFSET as u64), 8);
        ll.store(rec, slot, 8);
        self.frame = Some(rec);
    }

    /// Unlinks the frame record before the function returns (normally or
    /// unwinding).
    pub(super) fn pop_frame(&mut self) {
        let Some(rec) = self.frame else { return };
        let ll = &self.m.ll;
        let prev = ll.load(ll.ptr(), ll.gep_i8c(rec, FRAME_PREV_OFFSET as u64), 8);
        let slot = ll.gep_i8c(self.thread, THREAD_UNWIND_FRAMES_OFFSET as u64);
        ll.store(prev, slot, 8);
    }

    /// Before a call: the frame's LSDA becomes the landing pad of this
    /// `invoke`, or null for a plain call.
    pub(super) fn set_frame_lsda(&mut self, inst: V<'m>) {
        let Some(rec) = self.frame else { return };
        if self.old.func().personality().is_none() {
            return;
        }
        let lsda = if inst.opcode() == Opcode::LLVMInvoke {
            let pad = self.landingpad_of(inst);
            match pad.and_then(|lp| self.m.lsda_map.get(&lp).copied()) {
                Some(g) => self.tx(g),
                None => Tx::plain(self.m.ll.null_ptr()),
            }
        } else {
            Tx::plain(self.m.ll.null_ptr())
        };
        let ll = &self.m.ll;
        let at = FRAME_LSDA_OFFSET as u64;
        let cap = lsda.cap.unwrap_or_else(|| ll.null_ptr());
        ll.store(lsda.int, ll.gep_i8c(rec, at), 8);
        ll.store(cap, ll.gep_i8c(rec, at + 8), 8);
    }

    /// The `landingpad` that starts the unwind destination of `invoke`.
    fn landingpad_of(&self, invoke: V<'m>) -> Option<V<'m>> {
        let dest = *invoke.successors().get(1)?;
        dest.instructions()
            .into_iter()
            .find(|&i| i.opcode() != Opcode::LLVMPHI)
            .filter(|&i| i.opcode() == Opcode::LLVMLandingPad)
    }

    /// After the call `inst` returned `r`: with the exception flag, an
    /// `invoke` asks the runtime whether its landing pad runs; a plain call
    /// returns unwinding, or stops the program where no exception may pass
    /// (a `nounwind` function or call). Leaves the builder in the
    /// no-exception continuation.
    pub(super) fn unwind_check(&mut self, inst: V<'m>, r: V<'m>) {
        let ll = &self.m.ll;
        let flag = ll.extract_value(r, 0);
        let threw = ll.icmp(IntPredicate::LLVMIntNE, flag, ll.i64c(0));
        let cont = ll.append_block(self.new, "");
        if inst.opcode() == Opcode::LLVMInvoke {
            let exc = ll.append_block(self.new, "");
            ll.cond_br(threw, exc, cont);
            ll.position_at_end(exc);
            let enter = call(ll, "gimso_landing_pad", &[self.thread]);
            let enter = ll.icmp(IntPredicate::LLVMIntNE, enter, ll.i64c(0));
            let pad = ll.append_block(self.new, "");
            let exit = self.unwind_exit_block();
            self.m.ll.cond_br(enter, pad, exit);
            self.m.ll.position_at_end(pad);
            let dest = inst.successors()[1];
            self.edge_to(dest);
        } else {
            let may_unwind = !self.old.func().has_attr(AttrAt::Function, "nounwind")
                && !inst.call_has_attr(AttrAt::Function, "nounwind");
            let target = if may_unwind {
                self.unwind_exit_block()
            } else {
                self.unwind_fatal_block()
            };
            self.m.ll.cond_br(threw, target, cont);
        }
        self.m.ll.position_at_end(cont);
    }

    /// The shared block that returns with the exception flag.
    fn unwind_exit_block(&mut self) -> B<'m> {
        if let Some(b) = self.unwind_exit {
            return b;
        }
        let here = self.m.ll.current_block();
        let b = self.m.ll.append_block(self.new, "gimso.unwind");
        self.m.ll.position_at_end(b);
        self.pop_frame();
        self.return_with(true, None);
        self.m.ll.position_at_end(here);
        self.unwind_exit = Some(b);
        b
    }

    /// The shared block for an exception arriving at a call it may not
    /// pass: a fatal error naming this function.
    fn unwind_fatal_block(&mut self) -> B<'m> {
        if let Some(b) = self.unwind_fatal {
            return b;
        }
        let here = self.m.ll.current_block();
        let b = self.m.ll.append_block(self.new, "gimso.nounwind");
        self.m.ll.position_at_end(b);
        let site = self.site_for_function();
        call(&self.m.ll, "gimso_unwind_into_nounwind", &[site]);
        self.m.ll.unreachable();
        self.m.ll.position_at_end(here);
        self.unwind_fatal = Some(b);
        b
    }

    /// `landingpad`: the two unwind registers the personality set, as the
    /// pad's `{ptr-or-int, ptr-or-int}` (integers truncated).
    pub(super) fn tx_landingpad(&mut self, inst: V<'m>) {
        let ll = &self.m.ll;
        let ty = inst.type_of();
        let fields = if ty.kind() == TypeKind::LLVMStructTypeKind {
            ty.struct_fields()
        } else {
            Vec::new()
        };
        let ok = fields.len() == 2
            && fields.iter().all(|&f| {
                f.is_ptr() || (f.kind() == TypeKind::LLVMIntegerTypeKind && f.int_width() <= 64)
            });
        if !ok {
            self.error(
                "this landingpad type",
                "a landing pad yields two pointers or integers of at most 64 bits",
            );
            let z = self.zero(ty);
            self.set(inst, z);
            return;
        }
        let mut int = ll.zero(ty);
        let mut cap = ll.zero(ty);
        for (i, &f) in fields.iter().enumerate() {
            let ll = &self.m.ll;
            let r = call(ll, "gimso_landing_register", &[ll.i64c(i as u64)]);
            let (iv, lower) = (ll.extract_value(r, 0), ll.extract_value(r, 1));
            if f.is_ptr() {
                int = ll.insert_value(int, iv, i as u32);
                cap = ll.insert_value(cap, lower, i as u32);
            } else {
                let wide = ll.ptrtoint(iv, ll.i64());
                let v = ll.int_cast(wide, f);
                int = ll.insert_value(int, v, i as u32);
            }
        }
        let cap = has_ptr(ty).then_some(cap);
        self.set(inst, Tx { int, cap });
    }
}

/// The C library's names for `setjmp` (`<setjmp.h>` maps `setjmp` to
/// `_setjmp` and `sigsetjmp` to `__sigsetjmp`).
pub(super) const SETJMP_NAMES: &[&str] = &["setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp"];

/// The glibc `_setjmp` the translation calls, under a name no program
/// symbol can take; renamed to `_setjmp` once the originals are gone.
pub const NATIVE_SETJMP: &str = "gimso.native._setjmp";

impl<'m> FnTx<'_, 'm> {
    /// Whether the body calls `setjmp` directly.
    pub(super) fn calls_setjmp(&self) -> bool {
        self.plan.calls_setjmp
    }

    /// `setjmp(env)` / `sigsetjmp(env, savemask)`: the registers go to a
    /// native `jmp_buf` in this frame (program code never sees it, and the
    /// collector scans it with the stack); the program's `jmp_buf` gets a
    /// runtime object naming it and this frame's record, which `longjmp`
    /// checks is still on the stack.
    pub(super) fn tx_setjmp(&mut self, inst: V<'m>) {
        let env = self.arg(inst, 0);
        let ll = &self.m.ll;
        let save = if inst.num_arg_operands() > 1 {
            let m = self.arg(inst, 1).int;
            self.m.ll.int_cast(m, self.m.ll.i32())
        } else {
            ll.i32c(0)
        };
        let Some(rec) = self.frame else {
            self.error("setjmp", "the function keeps no frame record (a gimso bug)");
            return;
        };
        let ll = &self.m.ll;
        let buf_ty = ll.array_ty(ll.i64(), 25);
        let native = self.entry_alloca(buf_ty);
        native.set_alignment(16);
        let site = self.site();
        let ll = &self.m.ll;
        let cap = env.cap.unwrap_or_else(|| ll.null_ptr());
        call(
            ll,
            "gimso_setjmp_prepare",
            &[self.thread, env.int, cap, native, rec, save, site],
        );
        let fnty = ll.fn_ty(ll.i32(), &[ll.ptr()], false);
        let f = ll.get_function(NATIVE_SETJMP).unwrap_or_else(|| {
            let f = ll.add_function(NATIVE_SETJMP, fnty);
            f.func().add_fn_attrs(&["returns_twice", "nounwind"]);
            f
        });
        let r = ll.call(fnty, f, &[native]);
        r.add_call_attrs(&["returns_twice"]);
        let ty = inst.type_of();
        let r = ll.int_cast(r, ty);
        self.set(inst, Tx::plain(r));
    }
}
