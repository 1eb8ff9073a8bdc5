//! Bounds guards placed before the optimiser, so that `-O2` reports what
//! `-O0` reports.
//!
//! LLVM's optimiser runs before the translation and reasons as if the
//! program had no undefined behaviour. It deletes a store past the end of a
//! local array whose value is never read, rewrites any index into a
//! one-element array to 0, folds a load at any index of a constant array
//! whose bytes are all equal, narrows a `memcpy` past the end of a local
//! (SROA, run even at `-O0`), deletes a store into a constant global and a
//! load whose value is unused. The translation never sees those accesses,
//! so nothing is reported. Before the optimiser runs, this module makes
//! each of them something it must keep:
//!
//! - An access (load, store, `memset`/`memcpy`/`memmove`) at a variable
//!   offset into an object whose size is known here (an `alloca` of
//!   constant size, a global defined with its final size) gets a guard: the
//!   offset, computed from the indices, is compared with the object's size,
//!   and on the out-of-bounds path the same access is made again, volatile,
//!   through an address computed without `inbounds`. The translation
//!   checks that access like any other, so it reports the bug with the
//!   object's capability and the access's line. The guard compares
//!   indices, not addresses, so nothing new escapes; once the optimiser
//!   proves an index in range (a loop bound) the guard folds away and the
//!   object can still be promoted to registers.
//! - An access at a constant offset outside such an object and a store into
//!   a constant global are made volatile, through a laundered address (an
//!   empty inline asm the optimiser cannot see through: SROA would narrow
//!   or delete a volatile access it sees outside an `alloca`); a load whose
//!   value is unused is made volatile. All are kept, checked and reported.
//! - The address of a local passed to a function defined here goes
//!   laundered when that function may reach outside the local through it
//!   ([`crate::param_reach`]), and so does a local array's address stored
//!   into a struct's field: once the optimiser inlines the function, its
//!   accesses are still to an object it cannot see, and are checked.
//! - A call of a known function through a type that is not the function's
//!   goes through a laundered callee, so the optimiser cannot turn it into
//!   a direct call with the missing arguments filled in: the translation's
//!   call check reports the argument size mismatch, as at `-O0`.
//!
//! Functions with `indirectbr` or `callbr` are left alone: splitting a
//! block whose address is taken would move its start.

use inkwell::context::AsContextRef;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::LLVMInstructionGetDebugLoc;
use inkwell::llvm_sys::prelude::{
    LLVMBasicBlockRef, LLVMBuilderRef, LLVMContextRef, LLVMTypeRef, LLVMValueRef,
};
use inkwell::llvm_sys::target::{
    LLVMABISizeOfType, LLVMCreateTargetData, LLVMDisposeTargetData, LLVMOffsetOfElement,
    LLVMStoreSizeOfType, LLVMTargetDataRef,
};
use inkwell::llvm_sys::{
    LLVMInlineAsmDialect, LLVMIntPredicate, LLVMLinkage, LLVMOpcode, LLVMTypeKind,
};
use inkwell::module::Module;
use inkwell::values::AsValueRef;

use crate::param_reach::{ParamReach, const_gep_offset};

/// Constraints of the empty inline asm that hands a guard's failing path
/// its object's address: one register output tied to the one input. The
/// translation gives the output the input's capability, and the escape
/// analysis ([`is_launder`]) looks through it.
const LAUNDER_CONSTRAINTS: &str = "=r,0";

/// Whether `call` is a guard's launder of `value` ([`LAUNDER_CONSTRAINTS`],
/// empty template).
pub(crate) fn is_launder(call: LLVMValueRef, value: LLVMValueRef) -> bool {
    // SAFETY: `call` is a live call instruction; its called value and
    // first operand are read, the asm printed only when it is one.
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if LLVMIsAInlineAsm(callee).is_null() || LLVMGetNumArgOperands(call) != 1 {
            return false;
        }
        if LLVMGetOperand(call, 0) != value {
            return false;
        }
        let (template, constraints, _) = crate::ir::inline_asm_parts(callee);
        template.is_empty() && constraints == LAUNDER_CONSTRAINTS
    }
}

/// What [`insert`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuardStats {
    /// Accesses given a guard.
    pub guards: usize,
    /// Accesses made volatile.
    pub kept: usize,
}

/// Places the guards of every function of `module` (see the module docs).
pub fn insert(module: &Module<'_>) -> GuardStats {
    let dl = module.get_data_layout();
    // SAFETY: `dl` is a NUL-terminated layout string owned for the call;
    // the target data and builder are disposed by `Guards`' Drop.
    let g = unsafe {
        let ctx = module.get_context().as_ctx_ref();
        Guards {
            ctx,
            td: LLVMCreateTargetData(dl.as_ptr()),
            b: LLVMCreateBuilderInContext(ctx),
            stats: GuardStats::default(),
            reach: ParamReach::default(),
        }
    };
    let mut g = g;
    for f in module.get_functions() {
        if f.count_basic_blocks() > 0 {
            g.function(f.as_value_ref());
        }
    }
    g.stats
}

/// One memory access the guards look at.
#[derive(Clone, Copy)]
enum Access {
    Load,
    Store,
    /// `llvm.memset`: the destination.
    Set,
    /// `llvm.memcpy` / `llvm.memmove`: destination and source.
    Copy,
    /// A call of something other than an intrinsic or inline asm.
    Call,
}

/// Where an address points: `root + offset`.
struct Place {
    root: LLVMValueRef,
    /// The object's size in bytes.
    size: u64,
    /// Whether the object is a constant global.
    constant: bool,
    offset: Offset,
}

enum Offset {
    Const(i128),
    /// An `i64` value built before the access.
    Var(LLVMValueRef),
}

struct Guards {
    ctx: LLVMContextRef,
    td: LLVMTargetDataRef,
    b: LLVMBuilderRef,
    stats: GuardStats,
    reach: ParamReach,
}

impl Drop for Guards {
    fn drop(&mut self) {
        // SAFETY: created in `insert`, disposed once.
        unsafe {
            LLVMDisposeBuilder(self.b);
            LLVMDisposeTargetData(self.td);
        }
    }
}

/// The accesses of `f` in program order, and whether `f` can be split.
fn accesses(f: LLVMValueRef) -> Option<Vec<(LLVMValueRef, Access)>> {
    let mut out = Vec::new();
    // SAFETY: `f` is a function with a body; blocks and instructions are
    // walked with the C API's iterators while nothing is changed.
    unsafe {
        let mut bb = LLVMGetFirstBasicBlock(f);
        while !bb.is_null() {
            let mut i = LLVMGetFirstInstruction(bb);
            while !i.is_null() {
                match LLVMGetInstructionOpcode(i) {
                    LLVMOpcode::LLVMIndirectBr | LLVMOpcode::LLVMCallBr => return None,
                    LLVMOpcode::LLVMLoad => out.push((i, Access::Load)),
                    LLVMOpcode::LLVMStore => out.push((i, Access::Store)),
                    LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke => {
                        let callee = LLVMGetCalledValue(i);
                        let name = crate::llvm::Value::from_llvm(callee)
                            .map_or_else(String::new, crate::llvm::Value::name);
                        if name.starts_with("llvm.memset.") {
                            out.push((i, Access::Set));
                        } else if name.starts_with("llvm.memcpy.")
                            || name.starts_with("llvm.memmove.")
                        {
                            out.push((i, Access::Copy));
                        } else if !name.starts_with("llvm.") && LLVMIsAInlineAsm(callee).is_null() {
                            out.push((i, Access::Call));
                        }
                    }
                    _ => {}
                }
                i = LLVMGetNextInstruction(i);
            }
            bb = LLVMGetNextBasicBlock(bb);
        }
    }
    Some(out)
}

/// The value of `v` when it is a constant integer (sign-extended).
pub(crate) fn const_int(v: LLVMValueRef) -> Option<i128> {
    // SAFETY: `v` is a live value; only read when it is a ConstantInt.
    unsafe {
        if LLVMIsAConstantInt(v).is_null() {
            return None;
        }
        Some(i128::from(LLVMConstIntGetSExtValue(v)))
    }
}

/// Whether `v` is a constant, or an `alloca` plus constant indices: the
/// guards use only its root and those constants (an `alloca` is defined in
/// the entry block, so it is available wherever `v` is read back).
fn fixed_address(mut v: LLVMValueRef) -> bool {
    // SAFETY: `v` walks live values; operands are read only of GEPs.
    unsafe {
        for _ in 0..16 {
            if !LLVMIsAConstant(v).is_null() || !LLVMIsAAllocaInst(v).is_null() {
                return true;
            }
            if LLVMIsAGetElementPtrInst(v).is_null() {
                return false;
            }
            let n = LLVMGetNumOperands(v) as u32;
            if (1..n).any(|k| const_int(LLVMGetOperand(v, k)).is_none()) {
                return false;
            }
            v = LLVMGetOperand(v, 0);
        }
        false
    }
}

/// Whether address `v` points into a local array: an `alloca` of an array
/// type or of a variable count (a VLA), reached through `getelementptr`s
/// and locals that only hold it ([`only_value_held`]).
fn local_array(mut v: LLVMValueRef) -> bool {
    // SAFETY: `v` walks live values; operands are read only of GEPs, the
    // allocated type only of allocas.
    unsafe {
        for _ in 0..16 {
            if !LLVMIsAAllocaInst(v).is_null() {
                return LLVMGetTypeKind(LLVMGetAllocatedType(v)) == LLVMTypeKind::LLVMArrayTypeKind
                    || const_int(LLVMGetOperand(v, 0)).is_none();
            }
            if let Some(held) = only_value_held(v) {
                v = held;
            } else if !LLVMIsAGetElementPtrInst(v).is_null() {
                v = LLVMGetOperand(v, 0);
            } else {
                return false;
            }
        }
        false
    }
}

/// The local an address points into, when it is one: its `alloca`
/// (reached through `getelementptr`s and locals that only hold it,
/// [`only_value_held`]) and the constant offset into it (`None` when an
/// index is not a constant).
fn local_root(td: LLVMTargetDataRef, mut v: LLVMValueRef) -> Option<(LLVMValueRef, Option<i128>)> {
    let mut offset = Some(0i128);
    // SAFETY: `v` walks live values; operands are read only of GEPs.
    unsafe {
        for _ in 0..16 {
            if !LLVMIsAAllocaInst(v).is_null() {
                return Some((v, offset));
            }
            if let Some(held) = only_value_held(v) {
                v = held;
            } else if !LLVMIsAGetElementPtrInst(v).is_null() {
                let step = const_gep_offset(td, v);
                offset = offset.zip(step).map(|(a, b)| a + b);
                v = LLVMGetOperand(v, 0);
            } else {
                return None;
            }
        }
        None
    }
}

/// The value a `load` reads when it reads a local that only ever holds
/// that value, a [`fixed_address`] (`char *s = "x";`, or the parameter of
/// an inlined `always_inline` helper, before allocas are promoted): every
/// use of the local is a load, a lifetime marker or a store of that value
/// (or of the null that zero-initialisation stores just before it).
fn only_value_held(load: LLVMValueRef) -> Option<LLVMValueRef> {
    // SAFETY: `load` is a live value; the slot's users are live
    // instructions whose operands are read by their opcodes' positions.
    unsafe {
        if LLVMIsALoadInst(load).is_null() || LLVMGetVolatile(load) != 0 {
            return None;
        }
        let slot = LLVMGetOperand(load, 0);
        if LLVMIsAAllocaInst(slot).is_null() {
            return None;
        }
        let mut held = None;
        let mut u = LLVMGetFirstUse(slot);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            match LLVMGetInstructionOpcode(user) {
                LLVMOpcode::LLVMLoad if LLVMGetOperand(user, 0) == slot => {}
                LLVMOpcode::LLVMStore if LLVMGetOperand(user, 1) == slot => {
                    let value = LLVMGetOperand(user, 0);
                    if !fixed_address(value) {
                        return None;
                    }
                    // `-ftrivial-auto-var-init=zero`'s null, overwritten at
                    // once by the declaration's initialiser.
                    let next = LLVMGetNextInstruction(user);
                    let overwritten = LLVMIsNull(value) != 0
                        && !next.is_null()
                        && !LLVMIsAStoreInst(next).is_null()
                        && LLVMGetOperand(next, 1) == slot;
                    if overwritten {
                        u = LLVMGetNextUse(u);
                        continue;
                    }
                    if held.is_some_and(|h| h != value) {
                        return None;
                    }
                    held = Some(value);
                }
                LLVMOpcode::LLVMCall
                    if crate::llvm::Value::from_llvm(LLVMGetCalledValue(user))
                        .map_or_else(String::new, crate::llvm::Value::name)
                        .starts_with("llvm.lifetime.") => {}
                _ => return None,
            }
            u = LLVMGetNextUse(u);
        }
        held
    }
}

impl Guards {
    fn i64(&self) -> LLVMTypeRef {
        // SAFETY: the module's context.
        unsafe { LLVMInt64TypeInContext(self.ctx) }
    }

    fn i64c(&self, v: u64) -> LLVMValueRef {
        // SAFETY: a constant of the context's i64.
        unsafe { LLVMConstInt(self.i64(), v, 0) }
    }

    fn abi_size(&self, ty: LLVMTypeRef) -> u64 {
        // SAFETY: `ty` is a sized type of the module's context.
        unsafe { LLVMABISizeOfType(self.td, ty) }
    }

    fn function(&mut self, f: LLVMValueRef) {
        let Some(list) = accesses(f) else { return };
        for (inst, kind) in list {
            self.access(inst, kind);
        }
    }

    fn access(&mut self, inst: LLVMValueRef, kind: Access) {
        // SAFETY: `inst` is a live instruction of the kind `accesses`
        // recorded; operands are read by their documented positions.
        unsafe {
            // Built values carry the access's line, so the report of the
            // volatile copy names it.
            LLVMPositionBuilderBefore(self.b, inst);
            LLVMSetCurrentDebugLocation2(self.b, LLVMInstructionGetDebugLoc(inst));
            match kind {
                Access::Load | Access::Store => {
                    if matches!(kind, Access::Store) {
                        self.local_array_stored(inst);
                    }
                    let (ptr, ty) = match kind {
                        Access::Load => (LLVMGetOperand(inst, 0), LLVMTypeOf(inst)),
                        _ => (LLVMGetOperand(inst, 1), LLVMTypeOf(LLVMGetOperand(inst, 0))),
                    };
                    if LLVMGetVolatile(inst) != 0 || LLVMTypeIsSized(ty) == 0 {
                        return;
                    }
                    let bytes = LLVMStoreSizeOfType(self.td, ty);
                    let unused = matches!(kind, Access::Load) && LLVMGetFirstUse(inst).is_null();
                    let place = self.place(ptr);
                    let write = matches!(kind, Access::Store);
                    let addr = if write { 1 } else { 0 };
                    match place {
                        None if unused => self.keep(inst, &[]),
                        None => {}
                        Some(p) if write && p.constant => self.keep(inst, &[addr]),
                        Some(p) => match p.offset {
                            Offset::Const(off) => {
                                if off < 0 || off + i128::from(bytes) > i128::from(p.size) {
                                    self.keep(inst, &[addr]);
                                } else if unused && LLVMIsAAllocaInst(p.root).is_null() {
                                    self.keep(inst, &[]);
                                }
                            }
                            Offset::Var(_) if bytes > p.size => self.keep(inst, &[addr]),
                            Offset::Var(off) => {
                                let bad = self.icmp_ugt(off, self.i64c(p.size - bytes));
                                self.guard(inst, bad, |g| {
                                    let at = g.byte_address(p.root, off);
                                    let copy = if write {
                                        LLVMBuildStore(g.b, LLVMGetOperand(inst, 0), at)
                                    } else {
                                        LLVMBuildLoad2(g.b, ty, at, c"".as_ptr())
                                    };
                                    LLVMSetVolatile(copy, 1);
                                    LLVMSetAlignment(copy, 1);
                                });
                            }
                        },
                    }
                }
                Access::Set | Access::Copy => self.mem_intrinsic(inst, kind),
                Access::Call => {
                    self.mistyped_call(inst);
                    self.locals_passed(inst);
                }
            }
        }
    }

    /// `memset` / `memcpy` / `memmove`: each pointer operand checked for
    /// the length.
    fn mem_intrinsic(&mut self, inst: LLVMValueRef, kind: Access) {
        // SAFETY: `inst` is a live call of a memory intrinsic: operands
        // (dst, src or value, len, volatile flag, callee).
        unsafe {
            let volatile = LLVMGetOperand(inst, 3);
            if const_int(volatile) != Some(0) {
                return;
            }
            let len = LLVMGetOperand(inst, 2);
            if const_int(len) == Some(0) {
                return;
            }
            let ptrs: &[(u32, bool)] = match kind {
                Access::Copy => &[(0, true), (1, false)],
                _ => &[(0, true)],
            };
            let mut bad: Vec<LLVMValueRef> = Vec::new();
            let mut places = Vec::new();
            let mut always = false;
            for &(op, write) in ptrs {
                let Some(p) = self.place(LLVMGetOperand(inst, op)) else {
                    continue;
                };
                if write && p.constant {
                    always = true;
                    continue;
                }
                match (&p.offset, const_int(len)) {
                    (Offset::Const(off), Some(n)) => {
                        if *off < 0 || off + n > i128::from(p.size) || n < 0 {
                            always = true;
                        }
                    }
                    (offset, _) => {
                        let off = match *offset {
                            Offset::Const(c) => self.i64c(c as u64),
                            Offset::Var(v) => v,
                        };
                        let size = self.i64c(p.size);
                        let len64 = LLVMBuildIntCast2(self.b, len, self.i64(), 0, c"".as_ptr());
                        let past = self.icmp_ugt(off, size);
                        let room = LLVMBuildSub(self.b, size, off, c"".as_ptr());
                        let long = self.icmp_ugt(len64, room);
                        bad.push(LLVMBuildOr(self.b, past, long, c"".as_ptr()));
                        places.push((op, p.root, off));
                    }
                }
            }
            if always {
                let ops: Vec<u32> = ptrs.iter().map(|&(op, _)| op).collect();
                self.keep(inst, &ops);
                return;
            }
            let Some(first) = bad.first().copied() else {
                return;
            };
            let cond = bad[1..]
                .iter()
                .fold(first, |a, &c| LLVMBuildOr(self.b, a, c, c"".as_ptr()));
            self.guard(inst, cond, |g| {
                let addresses: Vec<(u32, LLVMValueRef)> = places
                    .iter()
                    .map(|&(op, root, off)| (op, g.byte_address(root, off)))
                    .collect();
                let copy = LLVMInstructionClone(inst);
                LLVMInsertIntoBuilder(g.b, copy);
                for (op, at) in addresses {
                    LLVMSetOperand(copy, op, at);
                }
                LLVMSetOperand(copy, 3, LLVMConstInt(LLVMTypeOf(volatile), 1, 0));
            });
        }
    }

    /// A call of a known function through a type that is not the
    /// function's (a function pointer cast to fewer parameters, a prototype
    /// that lies): the callee is laundered, so the optimiser cannot make it
    /// a direct call with the missing arguments filled in; the translation's
    /// call check then compares the argument bytes with the callee's and
    /// reports a mismatch, as at `-O0`.
    fn mistyped_call(&mut self, inst: LLVMValueRef) {
        // SAFETY: `inst` is a live call or invoke; its called value is its
        // last operand.
        unsafe {
            let at = LLVMGetNumOperands(inst) as u32 - 1;
            let callee = LLVMGetOperand(inst, at);
            let target = if LLVMIsAFunction(callee).is_null() {
                match only_value_held(callee) {
                    Some(f) if !LLVMIsAFunction(f).is_null() => f,
                    _ => return,
                }
            } else {
                callee
            };
            if LLVMGlobalGetValueType(target) == LLVMGetCalledFunctionType(inst) {
                return;
            }
            let laundered = self.launder(callee);
            LLVMSetOperand(inst, at, laundered);
        }
        self.stats.kept += 1;
    }

    /// The address of a local passed to a function defined here goes
    /// laundered when the function may reach outside the local through it
    /// ([`crate::param_reach`]): once the optimiser inlines the function,
    /// its accesses through the parameter are into an object the optimiser
    /// cannot see, so one out of bounds is neither deleted nor folded but
    /// checked (and reported) like any other. A local the callee only
    /// touches inside (`p->x = 0`) is passed as it is, and can still be
    /// promoted to registers after inlining.
    fn locals_passed(&mut self, inst: LLVMValueRef) {
        // SAFETY: `inst` is a live call or invoke (not an intrinsic or
        // inline asm: `accesses`); its argument operands come first.
        unsafe {
            let callee = LLVMGetCalledValue(inst);
            if LLVMIsAFunction(callee).is_null() || LLVMCountBasicBlocks(callee) == 0 {
                return;
            }
            // A variadic argument is read with `va_arg`, in a function the
            // optimiser does not inline (it calls `va_start`).
            let fixed = LLVMCountParams(callee);
            for i in 0..LLVMGetNumArgOperands(inst).min(fixed) {
                let arg = LLVMGetOperand(inst, i);
                if LLVMGetTypeKind(LLVMTypeOf(arg)) != LLVMTypeKind::LLVMPointerTypeKind {
                    continue;
                }
                let Some((root, offset)) = local_root(self.td, arg) else {
                    continue;
                };
                let size = const_int(LLVMGetOperand(root, 0))
                    .and_then(|n| u64::try_from(n).ok())
                    .and_then(|n| n.checked_mul(self.abi_size(LLVMGetAllocatedType(root))));
                let reach = self.reach.param(self.td, callee, i);
                let inside = match size {
                    Some(size) => reach.inside(offset, size),
                    None => reach.inside(None, 0),
                };
                if inside {
                    continue;
                }
                let laundered = self.launder(arg);
                LLVMSetOperand(inst, i, laundered);
                self.stats.kept += 1;
            }
        }
    }

    /// A local array's address stored anywhere but in a pointer variable
    /// (a struct's field: `struct buf b = { arr, n };`) is stored
    /// laundered: a function that reads it back there and indexes it may
    /// be inlined, and its accesses would otherwise be to the array itself.
    fn local_array_stored(&mut self, inst: LLVMValueRef) {
        // SAFETY: `inst` is a live store: operand 0 the value, 1 the
        // address.
        unsafe {
            let value = LLVMGetOperand(inst, 0);
            if LLVMGetTypeKind(LLVMTypeOf(value)) != LLVMTypeKind::LLVMPointerTypeKind
                || LLVMGetVolatile(inst) != 0
                || !local_array(value)
            {
                return;
            }
            let dest = LLVMGetOperand(inst, 1);
            let variable = !LLVMIsAAllocaInst(dest).is_null()
                && LLVMGetTypeKind(LLVMGetAllocatedType(dest)) == LLVMTypeKind::LLVMPointerTypeKind;
            if variable {
                return;
            }
            let laundered = self.launder(value);
            LLVMSetOperand(inst, 0, laundered);
            self.stats.kept += 1;
        }
    }

    /// Makes `inst` (a load, a store or a memory intrinsic) volatile, its
    /// address operands `ops` laundered ([`Guards::launder`]: the
    /// optimiser no longer sees which object, so it neither narrows the
    /// access to the object nor deletes a store into constant memory).
    fn keep(&mut self, inst: LLVMValueRef, ops: &[u32]) {
        // SAFETY: `inst` is a live load, store or memory intrinsic call
        // (volatile flag at operand 3); `ops` are its pointer operands.
        unsafe {
            for &op in ops {
                let laundered = self.launder(LLVMGetOperand(inst, op));
                LLVMSetOperand(inst, op, laundered);
            }
            if LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMCall {
                let flag = LLVMGetOperand(inst, 3);
                LLVMSetOperand(inst, 3, LLVMConstInt(LLVMTypeOf(flag), 1, 0));
            } else {
                LLVMSetVolatile(inst, 1);
            }
        }
        self.stats.kept += 1;
    }

    fn icmp_ugt(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        // SAFETY: two i64 values; the builder is positioned in a block.
        unsafe { LLVMBuildICmp(self.b, LLVMIntPredicate::LLVMIntUGT, a, b, c"".as_ptr()) }
    }

    /// `root + off` without `inbounds`, from `root` passed through
    /// [`launder`] (built at the builder's position).
    ///
    /// SROA deletes an access it sees wholly outside an `alloca` (volatile
    /// or not), and an index the optimiser folds to a constant would show
    /// it one; through the laundered address it sees none.
    fn byte_address(&self, root: LLVMValueRef, off: LLVMValueRef) -> LLVMValueRef {
        let laundered = self.launder(root);
        // SAFETY: `laundered` is a pointer, `off` an i64.
        unsafe {
            let mut idx = [off];
            LLVMBuildGEP2(
                self.b,
                LLVMInt8TypeInContext(self.ctx),
                laundered,
                idx.as_mut_ptr(),
                1,
                c"".as_ptr(),
            )
        }
    }

    /// `p` passed through the empty asm of [`LAUNDER_CONSTRAINTS`] (built
    /// at the builder's position): the same address, from which the
    /// optimiser can tell nothing.
    fn launder(&self, p: LLVMValueRef) -> LLVMValueRef {
        // SAFETY: `p` is a pointer; the asm is the empty template with one
        // register output tied to its input.
        unsafe {
            let ptr = LLVMTypeOf(p);
            let mut params = [ptr];
            let fnty = LLVMFunctionType(ptr, params.as_mut_ptr(), 1, 0);
            let asm = LLVMGetInlineAsm(
                fnty,
                c"".as_ptr().cast_mut(),
                0,
                LAUNDER_CONSTRAINTS.as_ptr().cast_mut().cast(),
                LAUNDER_CONSTRAINTS.len(),
                1,
                0,
                LLVMInlineAsmDialect::LLVMInlineAsmDialectATT,
                0,
            );
            let mut args = [p];
            LLVMBuildCall2(self.b, fnty, asm, args.as_mut_ptr(), 1, c"".as_ptr())
        }
    }

    /// The object and offset `ptr` is known to point at: a chain of
    /// `getelementptr`s from an `alloca` of constant size or a global
    /// defined here with its final size. Variable offsets are built as
    /// `i64` values at the builder's position.
    fn place(&self, ptr: LLVMValueRef) -> Option<Place> {
        let mut geps = Vec::new();
        let mut v = ptr;
        // SAFETY: `v` walks live values; each accessor is used on the kind
        // of value it belongs to.
        let (root, size, constant) = unsafe {
            loop {
                if !LLVMIsAAllocaInst(v).is_null() {
                    let n = const_int(LLVMGetOperand(v, 0))?;
                    let ty = LLVMGetAllocatedType(v);
                    if LLVMTypeIsSized(ty) == 0 || n < 0 {
                        return None;
                    }
                    break (v, self.abi_size(ty).checked_mul(n as u64)?, false);
                }
                if !LLVMIsAGlobalVariable(v).is_null() {
                    let final_size = LLVMIsDeclaration(v) == 0
                        && matches!(
                            LLVMGetLinkage(v),
                            LLVMLinkage::LLVMExternalLinkage
                                | LLVMLinkage::LLVMInternalLinkage
                                | LLVMLinkage::LLVMPrivateLinkage
                        )
                        && LLVMIsThreadLocal(v) == 0;
                    if !final_size {
                        return None;
                    }
                    let ty = LLVMGlobalGetValueType(v);
                    break (v, self.abi_size(ty), LLVMIsGlobalConstant(v) != 0);
                }
                if geps.len() == 16 {
                    return None;
                }
                if let Some(c) = only_value_held(v) {
                    v = c;
                    geps.push(core::ptr::null_mut());
                    continue;
                }
                let is_gep = !LLVMIsAGetElementPtrInst(v).is_null()
                    || (!LLVMIsAConstantExpr(v).is_null()
                        && LLVMGetConstOpcode(v) == LLVMOpcode::LLVMGetElementPtr);
                if !is_gep {
                    return None;
                }
                geps.push(v);
                v = LLVMGetOperand(v, 0);
            }
        };
        let mut konst: i128 = 0;
        let mut var: Option<LLVMValueRef> = None;
        for &gep in geps.iter().rev().filter(|g| !g.is_null()) {
            // SAFETY: `gep` is a live getelementptr (instruction or
            // constant expression): operand 0 the base, then the indices.
            unsafe {
                let n = LLVMGetNumOperands(gep) as u32;
                let mut ty = LLVMGetGEPSourceElementType(gep);
                for k in 1..n {
                    let idx = LLVMGetOperand(gep, k);
                    if LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMTypeKind::LLVMIntegerTypeKind {
                        return None; // a vector of addresses
                    }
                    let stride = if k == 1 {
                        self.abi_size(ty)
                    } else {
                        match LLVMGetTypeKind(ty) {
                            LLVMTypeKind::LLVMStructTypeKind => {
                                let field = const_int(idx)? as u32;
                                konst += i128::from(LLVMOffsetOfElement(self.td, ty, field));
                                ty = LLVMStructGetTypeAtIndex(ty, field);
                                continue;
                            }
                            LLVMTypeKind::LLVMArrayTypeKind => {
                                ty = LLVMGetElementType(ty);
                                self.abi_size(ty)
                            }
                            _ => return None,
                        }
                    };
                    match const_int(idx) {
                        Some(c) => konst += c * i128::from(stride),
                        None => {
                            let wide = LLVMBuildIntCast2(self.b, idx, self.i64(), 1, c"".as_ptr());
                            let term = LLVMBuildMul(self.b, wide, self.i64c(stride), c"".as_ptr());
                            var = Some(match var {
                                Some(sum) => LLVMBuildAdd(self.b, sum, term, c"".as_ptr()),
                                None => term,
                            });
                        }
                    }
                }
            }
        }
        let offset = match var {
            None => Offset::Const(konst),
            Some(v) => {
                // SAFETY: `v` is an i64 value built at the builder's position.
                Offset::Var(unsafe {
                    LLVMBuildAdd(self.b, v, self.i64c(konst as u64), c"".as_ptr())
                })
            }
        };
        Some(Place {
            root,
            size,
            constant,
            offset,
        })
    }

    /// Splits `inst`'s block before it and branches on `bad` to a cold
    /// block made by `cold` (which rejoins at `inst`).
    fn guard(&mut self, inst: LLVMValueRef, bad: LLVMValueRef, cold: impl FnOnce(&Self)) {
        // SAFETY: `inst` is a live instruction with a parent block; the
        // blocks made here are inserted into the same function and every
        // moved instruction keeps its identity (and so its uses).
        unsafe {
            if !LLVMIsAConstantInt(bad).is_null() && LLVMConstIntGetZExtValue(bad) == 0 {
                return;
            }
            let Some(head) = self.split_before(inst) else {
                return;
            };
            let tail = LLVMGetInstructionParent(inst);
            let fail = LLVMInsertBasicBlockInContext(self.ctx, tail, c"".as_ptr());
            LLVMPositionBuilderAtEnd(self.b, head);
            let br = LLVMBuildCondBr(self.b, bad, fail, tail);
            // Cold: the failing path ends the program.
            let weights = [
                LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(self.ctx), 1, 0)),
                LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(self.ctx), 1 << 20, 0)),
            ];
            let tag = LLVMMDStringInContext2(self.ctx, c"branch_weights".as_ptr(), 14);
            let node =
                LLVMMDNodeInContext2(self.ctx, [tag, weights[0], weights[1]].as_mut_ptr(), 3);
            let kind = LLVMGetMDKindIDInContext(self.ctx, c"prof".as_ptr(), 4);
            LLVMSetMetadata(br, kind, LLVMMetadataAsValue(self.ctx, node));
            LLVMPositionBuilderAtEnd(self.b, fail);
            cold(self);
            LLVMBuildBr(self.b, tail);
        }
        self.stats.guards += 1;
    }

    /// Moves everything of `inst`'s block before it into a new block
    /// placed before it, which takes over the block's predecessors; returns
    /// the new block (without a terminator), or `None` when the block is
    /// used other than as a branch target.
    fn split_before(&self, inst: LLVMValueRef) -> Option<LLVMBasicBlockRef> {
        // SAFETY: `inst` is a live instruction; the block's users are
        // checked to be terminators before anything changes.
        unsafe {
            let block = LLVMGetInstructionParent(inst);
            let as_value = LLVMBasicBlockAsValue(block);
            let mut users = Vec::new();
            let mut u = LLVMGetFirstUse(as_value);
            while !u.is_null() {
                let user = LLVMGetUser(u);
                if LLVMIsATerminatorInst(user).is_null() {
                    return None;
                }
                users.push(user);
                u = LLVMGetNextUse(u);
            }
            let head = LLVMInsertBasicBlockInContext(self.ctx, block, c"".as_ptr());
            for user in users {
                for k in 0..LLVMGetNumSuccessors(user) {
                    if LLVMGetSuccessor(user, k) == block {
                        LLVMSetSuccessor(user, k, head);
                    }
                }
            }
            let mut moved = Vec::new();
            let mut i = LLVMGetFirstInstruction(block);
            while i != inst {
                moved.push(i);
                i = LLVMGetNextInstruction(i);
            }
            LLVMPositionBuilderAtEnd(self.b, head);
            for i in moved {
                LLVMInstructionRemoveFromParent(i);
                LLVMInsertIntoBuilder(self.b, i);
            }
            Some(head)
        }
    }
}
