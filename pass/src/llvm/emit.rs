//! The instructions [`Ll`] builds at its insertion point.

use inkwell::llvm_sys::core::*;

use super::build::{made, raws};
use super::{Block, IntPredicate, Ll, Opcode, Ordering, RmwOp, Type, Value};

impl<'m> Ll<'m> {
    /// An alloca at the start of `f`'s entry block, where `mem2reg` and
    /// code generation treat it as a static frame slot (an alloca in any
    /// other block is a dynamic stack allocation). The builder goes back
    /// to the end of the block it was in.
    #[track_caller]
    pub fn entry_alloca(&self, f: impl Into<Value<'m>>, ty: Type<'m>) -> Value<'m> {
        let f: Value<'m> = f.into();
        let back = self.insert_block();
        let entry = f
            .func()
            .entry_block()
            .expect("entry_alloca in a body-less function");
        self.position_at_start(entry);
        let a = self.alloca(ty);
        if let Some(b) = back {
            self.position_at_end(b);
        }
        a
    }
    #[track_caller]
    pub fn alloca(&self, ty: Type<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; a sized type.
        unsafe { made(LLVMBuildAlloca(self.builder(), ty.raw(), c"".as_ptr())) }
    }
    #[track_caller]
    pub fn load(&self, ty: Type<'m>, ptr: Value<'m>, align: u32) -> Value<'m> {
        // SAFETY: a positioned builder; `ptr` a pointer.
        let l = unsafe {
            made(LLVMBuildLoad2(
                self.builder(),
                ty.raw(),
                ptr.raw(),
                c"".as_ptr(),
            ))
        };
        l.set_alignment(align);
        l
    }
    #[track_caller]
    pub fn load_relaxed(&self, ty: Type<'m>, ptr: Value<'m>, align: u32) -> Value<'m> {
        let l = self.load(ty, ptr, align);
        l.set_ordering(Ordering::LLVMAtomicOrderingMonotonic);
        l
    }
    #[track_caller]
    pub fn store(&self, val: Value<'m>, ptr: Value<'m>, align: u32) -> Value<'m> {
        // SAFETY: a positioned builder; `ptr` a pointer.
        let s = unsafe { made(LLVMBuildStore(self.builder(), val.raw(), ptr.raw())) };
        s.set_alignment(align);
        s
    }
    #[track_caller]
    pub fn gep(&self, ty: Type<'m>, base: Value<'m>, idx: &[Value<'m>]) -> Value<'m> {
        let mut i = raws(idx);
        // SAFETY: a positioned builder; `ty` is the source element type.
        unsafe {
            made(LLVMBuildGEP2(
                self.builder(),
                ty.raw(),
                base.raw(),
                i.as_mut_ptr(),
                i.len() as u32,
                c"".as_ptr(),
            ))
        }
    }
    /// `base + off` bytes.
    #[track_caller]
    pub fn gep_i8(&self, base: Value<'m>, off: Value<'m>) -> Value<'m> {
        self.gep(self.i8(), base, &[off])
    }
    #[track_caller]
    pub fn gep_i8c(&self, base: Value<'m>, off: u64) -> Value<'m> {
        if off == 0 {
            return base;
        }
        self.gep_i8(base, self.i64c(off))
    }
    /// A call of `f`; a direct call takes `f`'s calling convention (a call
    /// whose convention differs from its callee's is undefined behaviour).
    #[track_caller]
    pub fn call(&self, fnty: Type<'m>, f: impl Into<Value<'m>>, args: &[Value<'m>]) -> Value<'m> {
        let f: Value<'m> = f.into();
        let mut a = raws(args);
        // SAFETY: a positioned builder; the arguments match `fnty`.
        let call = unsafe {
            made(LLVMBuildCall2(
                self.builder(),
                fnty.raw(),
                f.raw(),
                a.as_mut_ptr(),
                a.len() as u32,
                c"".as_ptr(),
            ))
        };
        if let Some(func) = f.as_func() {
            call.set_call_conv(func.call_conv());
        }
        call
    }
    /// An invoke of `f` continuing at `normal`, unwinding to `unwind`.
    #[track_caller]
    pub fn invoke(
        &self,
        fnty: Type<'m>,
        f: Value<'m>,
        args: &[Value<'m>],
        normal: Block<'m>,
        unwind: Block<'m>,
    ) -> Value<'m> {
        let mut a = raws(args);
        // SAFETY: a positioned builder; the arguments match `fnty`.
        let inv = unsafe {
            made(LLVMBuildInvoke2(
                self.builder(),
                fnty.raw(),
                f.raw(),
                a.as_mut_ptr(),
                a.len() as u32,
                normal.raw(),
                unwind.raw(),
                c"".as_ptr(),
            ))
        };
        if let Some(func) = f.as_func() {
            inv.set_call_conv(func.call_conv());
        }
        inv
    }
    /// A call of the LLVM intrinsic `name` (declared on first use) with
    /// function type `fnty`.
    #[track_caller]
    pub fn intrinsic(&self, name: &str, fnty: Type<'m>, args: &[Value<'m>]) -> Value<'m> {
        let f = self.runtime_fn(name, fnty);
        self.call(fnty, f.as_value(), args)
    }
    #[track_caller]
    pub fn br(&self, b: Block<'m>) -> Value<'m> {
        // SAFETY: a positioned builder.
        unsafe { made(LLVMBuildBr(self.builder(), b.raw())) }
    }
    #[track_caller]
    pub fn cond_br(&self, c: Value<'m>, t: Block<'m>, e: Block<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; `c` an i1.
        unsafe { made(LLVMBuildCondBr(self.builder(), c.raw(), t.raw(), e.raw())) }
    }
    #[track_caller]
    pub fn switch(
        &self,
        v: Value<'m>,
        default: Block<'m>,
        cases: &[(Value<'m>, Block<'m>)],
    ) -> Value<'m> {
        // SAFETY: a positioned builder; case values are constants of `v`'s type.
        let s = unsafe {
            made(LLVMBuildSwitch(
                self.builder(),
                v.raw(),
                default.raw(),
                cases.len() as u32,
            ))
        };
        for &(c, b) in cases {
            s.add_case(c, b);
        }
        s
    }
    /// `indirectbr addr, [dests]`.
    #[track_caller]
    pub fn indirect_br(&self, addr: Value<'m>, dests: &[Block<'m>]) -> Value<'m> {
        // SAFETY: a positioned builder; `addr` a pointer.
        let br = unsafe {
            made(LLVMBuildIndirectBr(
                self.builder(),
                addr.raw(),
                dests.len() as u32,
            ))
        };
        for &d in dests {
            br.add_destination(d);
        }
        br
    }
    #[track_caller]
    pub fn ret(&self, v: Value<'m>) -> Value<'m> {
        // SAFETY: a positioned builder.
        unsafe { made(LLVMBuildRet(self.builder(), v.raw())) }
    }
    #[track_caller]
    pub fn ret_void(&self) -> Value<'m> {
        // SAFETY: a positioned builder.
        unsafe { made(LLVMBuildRetVoid(self.builder())) }
    }
    #[track_caller]
    pub fn unreachable(&self) -> Value<'m> {
        // SAFETY: a positioned builder.
        unsafe { made(LLVMBuildUnreachable(self.builder())) }
    }
    #[track_caller]
    pub fn phi(&self, ty: Type<'m>) -> Value<'m> {
        // SAFETY: a builder positioned at the start of a block.
        unsafe { made(LLVMBuildPhi(self.builder(), ty.raw(), c"".as_ptr())) }
    }
    #[track_caller]
    pub fn select(&self, c: Value<'m>, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; `a` and `b` share a type.
        unsafe {
            made(LLVMBuildSelect(
                self.builder(),
                c.raw(),
                a.raw(),
                b.raw(),
                c"".as_ptr(),
            ))
        }
    }
    #[track_caller]
    pub fn extract_value(&self, agg: Value<'m>, i: u32) -> Value<'m> {
        // SAFETY: a positioned builder; `agg` has field `i`.
        unsafe {
            made(LLVMBuildExtractValue(
                self.builder(),
                agg.raw(),
                i,
                c"".as_ptr(),
            ))
        }
    }
    #[track_caller]
    pub fn insert_value(&self, agg: Value<'m>, v: Value<'m>, i: u32) -> Value<'m> {
        // SAFETY: a positioned builder; `v` has field `i`'s type.
        unsafe {
            made(LLVMBuildInsertValue(
                self.builder(),
                agg.raw(),
                v.raw(),
                i,
                c"".as_ptr(),
            ))
        }
    }
    #[track_caller]
    pub fn extract_element(&self, vec: Value<'m>, i: Value<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; `vec` a vector.
        unsafe {
            made(LLVMBuildExtractElement(
                self.builder(),
                vec.raw(),
                i.raw(),
                c"".as_ptr(),
            ))
        }
    }
    #[track_caller]
    pub fn insert_element(&self, vec: Value<'m>, v: Value<'m>, i: Value<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; `v` has the element type.
        unsafe {
            made(LLVMBuildInsertElement(
                self.builder(),
                vec.raw(),
                v.raw(),
                i.raw(),
                c"".as_ptr(),
            ))
        }
    }
    /// A cast instruction `op` of `v` to `ty`.
    #[track_caller]
    pub fn cast(&self, op: Opcode, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; LLVM asserts the cast is valid.
        unsafe {
            made(LLVMBuildCast(
                self.builder(),
                op,
                v.raw(),
                ty.raw(),
                c"".as_ptr(),
            ))
        }
    }
    #[track_caller]
    pub fn ptrtoint(&self, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        self.cast(Opcode::LLVMPtrToInt, v, ty)
    }
    #[track_caller]
    pub fn inttoptr(&self, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        self.cast(Opcode::LLVMIntToPtr, v, ty)
    }
    #[track_caller]
    pub fn bitcast(&self, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        self.cast(Opcode::LLVMBitCast, v, ty)
    }
    /// `v` as integer type `ty`, zero-extended or truncated.
    #[track_caller]
    pub fn int_cast(&self, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; integer to integer.
        unsafe {
            made(LLVMBuildIntCast2(
                self.builder(),
                v.raw(),
                ty.raw(),
                0,
                c"".as_ptr(),
            ))
        }
    }
    /// Binary operator `op` of `a` and `b`.
    #[track_caller]
    pub fn binop(&self, op: Opcode, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; LLVM asserts the operand types.
        unsafe {
            made(LLVMBuildBinOp(
                self.builder(),
                op,
                a.raw(),
                b.raw(),
                c"".as_ptr(),
            ))
        }
    }
    #[track_caller]
    pub fn add_i64(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.binop(Opcode::LLVMAdd, a, b)
    }
    #[track_caller]
    pub fn sub(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.binop(Opcode::LLVMSub, a, b)
    }
    #[track_caller]
    pub fn mul(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.binop(Opcode::LLVMMul, a, b)
    }
    #[track_caller]
    pub fn or(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.binop(Opcode::LLVMOr, a, b)
    }
    #[track_caller]
    pub fn and(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.binop(Opcode::LLVMAnd, a, b)
    }
    #[track_caller]
    pub fn lshr(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.binop(Opcode::LLVMLShr, a, b)
    }
    #[track_caller]
    pub fn ashr(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.binop(Opcode::LLVMAShr, a, b)
    }
    #[track_caller]
    pub fn icmp(&self, p: IntPredicate, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        // SAFETY: a positioned builder; operands of one integer/pointer type.
        unsafe {
            made(LLVMBuildICmp(
                self.builder(),
                p,
                a.raw(),
                b.raw(),
                c"".as_ptr(),
            ))
        }
    }
    #[track_caller]
    pub fn memset(&self, ptr: Value<'m>, val: Value<'m>, len: Value<'m>, align: u32) -> Value<'m> {
        // SAFETY: a positioned builder; `ptr` a pointer, `val` an i8.
        unsafe {
            made(LLVMBuildMemSet(
                self.builder(),
                ptr.raw(),
                val.raw(),
                len.raw(),
                align,
            ))
        }
    }
    #[track_caller]
    pub fn atomic_rmw(&self, op: RmwOp, ptr: Value<'m>, val: Value<'m>, o: Ordering) -> Value<'m> {
        // SAFETY: a positioned builder; `ptr` a pointer.
        unsafe {
            made(LLVMBuildAtomicRMW(
                self.builder(),
                op,
                ptr.raw(),
                val.raw(),
                o,
                0,
            ))
        }
    }
    #[track_caller]
    pub fn cmpxchg(
        &self,
        ptr: Value<'m>,
        expected: Value<'m>,
        new: Value<'m>,
        (success, failure): (Ordering, Ordering),
    ) -> Value<'m> {
        // SAFETY: a positioned builder; `ptr` a pointer, the values of one type.
        unsafe {
            made(LLVMBuildAtomicCmpXchg(
                self.builder(),
                ptr.raw(),
                expected.raw(),
                new.raw(),
                success,
                failure,
                0,
            ))
        }
    }

    // ---- metadata on what was built -----------------------------------------

    /// A load of an object header word (`upper` or `aux`). Plain, so the
    /// optimiser may merge and hoist repeated checks of one object, and in
    /// its own alias scope, which no access of the program's memory touches
    /// (headers lie outside every payload). A racing `free` may then go
    /// unnoticed for the rest of a loop: the memory stays valid (the
    /// collector keeps it while referenced), so nothing unsafe follows.
    #[track_caller]
    pub fn load_header(&self, ptr: Value<'m>) -> Value<'m> {
        let l = self.load(self.i64(), ptr, 8);
        self.tag(l, "alias.scope");
        l
    }
    /// Loads one byte of an object header (a flag byte of the aux word).
    #[track_caller]
    pub fn load_header_byte(&self, ptr: Value<'m>) -> Value<'m> {
        let l = self.load(self.i8(), ptr, 1);
        self.tag(l, "alias.scope");
        l
    }
    /// Marks a program access as not touching object headers.
    #[track_caller]
    pub fn not_header(&self, inst: Value<'m>) {
        self.tag(inst, "noalias");
    }
    /// Metadata nodes are uniqued by content, so the same scope list comes
    /// back on every call.
    fn tag(&self, inst: Value<'m>, kind: &str) {
        let domain = self.md_node(&[self.md_string("gimso.header.domain")]);
        let scope = self.md_node(&[self.md_string("gimso.header"), domain]);
        let list = self.md_node(&[scope]);
        self.attach(inst, kind, list);
    }
    /// A conditional branch whose true edge is rarely taken (a slow path
    /// that is not a failure): `!prof` branch weights 1 : 2000, so the
    /// code generator lays the slow block out of the hot path.
    #[track_caller]
    pub fn cond_br_unlikely(&self, c: Value<'m>, rare: Block<'m>, usual: Block<'m>) -> Value<'m> {
        self.cond_br_weighted(c, rare, usual, 1, 2000)
    }
    /// A conditional branch whose true edge is the usual one.
    #[track_caller]
    pub fn cond_br_likely(&self, c: Value<'m>, usual: Block<'m>, rare: Block<'m>) -> Value<'m> {
        self.cond_br_weighted(c, usual, rare, 2000, 1)
    }
    fn cond_br_weighted(
        &self,
        c: Value<'m>,
        t: Block<'m>,
        e: Block<'m>,
        wt: u64,
        we: u64,
    ) -> Value<'m> {
        let br = self.cond_br(c, t, e);
        let w = |n: u64| self.value_md(self.i32c(n));
        let node = self.md_node(&[self.md_string("branch_weights"), w(wt), w(we)]);
        self.attach(br, "prof", node);
        br
    }
    /// Marks a null test's branch as one code generation may fold into
    /// the first memory access of its non-null successor (LLVM's implicit
    /// null checks): the access faults when the pointer is null and the
    /// runtime's fault handler resumes at the null successor.
    #[track_caller]
    pub fn make_implicit(&self, br: Value<'m>) {
        self.attach(br, "make.implicit", self.md_node(&[]));
    }
    /// `v` as integer type `ty`, sign-extended or truncated.
    #[track_caller]
    pub fn int_cast_signed(&self, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        assert!(
            v.type_of().is_int() && ty.is_int(),
            "int_cast_signed of {v:?} to {ty:?}"
        );
        // SAFETY: a positioned builder; integer to integer (checked).
        unsafe {
            made(LLVMBuildIntCast2(
                self.builder(),
                v.raw(),
                ty.raw(),
                1,
                c"".as_ptr(),
            ))
        }
    }
}
