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

use inkwell::module::Module;

use crate::llvm::{
    Block, DataLayout, Func, IntPredicate, Linkage, Ll, Opcode, Type, TypeKind, Value,
};
use crate::param_reach::{ParamReach, const_gep_offset};

/// Constraints of the empty inline asm that hands a guard's failing path
/// its object's address: one register output tied to the one input. The
/// translation gives the output the input's capability, and the escape
/// analysis ([`is_launder`]) looks through it.
const LAUNDER_CONSTRAINTS: &str = "=r,0";

/// Whether `call` (a call instruction) is a guard's launder of `value`
/// ([`LAUNDER_CONSTRAINTS`], empty template).
pub(crate) fn is_launder(call: Value<'_>, value: Value<'_>) -> bool {
    let callee = call.called_value();
    if !callee.is_inline_asm() || call.num_arg_operands() != 1 {
        return false;
    }
    if call.operand(0) != value {
        return false;
    }
    let (template, constraints, _) = callee.inline_asm_parts();
    template.is_empty() && constraints == LAUNDER_CONSTRAINTS
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
    let mut g = Guards {
        ll: Ll::new(module),
        stats: GuardStats::default(),
        reach: ParamReach::default(),
    };
    for f in module.get_functions() {
        if f.count_basic_blocks() > 0 {
            g.function(Func::of(f));
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
struct Place<'m> {
    root: Value<'m>,
    /// The object's size in bytes.
    size: u64,
    /// Whether the object is a constant global.
    constant: bool,
    offset: Offset<'m>,
}

enum Offset<'m> {
    Const(i128),
    /// An `i64` value built before the access.
    Var(Value<'m>),
}

struct Guards<'m> {
    ll: Ll<'m>,
    stats: GuardStats,
    reach: ParamReach<'m>,
}

/// The accesses of `f` in program order, and whether `f` can be split.
fn accesses(f: Func<'_>) -> Option<Vec<(Value<'_>, Access)>> {
    let mut out = Vec::new();
    for i in f.instructions() {
        match i.opcode() {
            Opcode::LLVMIndirectBr | Opcode::LLVMCallBr => return None,
            Opcode::LLVMLoad => out.push((i, Access::Load)),
            Opcode::LLVMStore => out.push((i, Access::Store)),
            Opcode::LLVMCall | Opcode::LLVMInvoke => {
                let callee = i.called_value();
                let name = callee.name();
                if name.starts_with("llvm.memset.") {
                    out.push((i, Access::Set));
                } else if name.starts_with("llvm.memcpy.") || name.starts_with("llvm.memmove.") {
                    out.push((i, Access::Copy));
                } else if !name.starts_with("llvm.") && !callee.is_inline_asm() {
                    out.push((i, Access::Call));
                }
            }
            _ => {}
        }
    }
    Some(out)
}

/// The value of `v` when it is a constant integer (sign-extended).
pub(crate) fn const_int(v: Value<'_>) -> Option<i128> {
    v.const_int_low_svalue().map(i128::from)
}

/// Whether `v` is a constant, or an `alloca` plus constant indices: the
/// guards use only its root and those constants (an `alloca` is defined in
/// the entry block, so it is available wherever `v` is read back).
fn fixed_address(mut v: Value<'_>) -> bool {
    for _ in 0..16 {
        if v.is_constant_kind() || v.is_alloca() {
            return true;
        }
        if !v.is_gep_inst() {
            return false;
        }
        let n = v.num_operands();
        if (1..n).any(|k| const_int(v.operand(k)).is_none()) {
            return false;
        }
        v = v.operand(0);
    }
    false
}

/// Whether address `v` points into a local array: an `alloca` of an array
/// type or of a variable count (a VLA), reached through `getelementptr`s
/// and locals that only hold it ([`only_value_held`]).
fn local_array(mut v: Value<'_>) -> bool {
    for _ in 0..16 {
        if v.is_alloca() {
            return v.allocated_type().is_array() || const_int(v.operand(0)).is_none();
        }
        if let Some(held) = only_value_held(v) {
            v = held;
        } else if v.is_gep_inst() {
            v = v.operand(0);
        } else {
            return false;
        }
    }
    false
}

/// The local an address points into, when it is one: its `alloca`
/// (reached through `getelementptr`s and locals that only hold it,
/// [`only_value_held`]) and the constant offset into it (`None` when an
/// index is not a constant).
fn local_root<'m>(dl: &DataLayout<'m>, mut v: Value<'m>) -> Option<(Value<'m>, Option<i128>)> {
    let mut offset = Some(0i128);
    for _ in 0..16 {
        if v.is_alloca() {
            return Some((v, offset));
        }
        if let Some(held) = only_value_held(v) {
            v = held;
        } else if v.is_gep_inst() {
            let step = const_gep_offset(dl, v);
            offset = offset.zip(step).map(|(a, b)| a + b);
            v = v.operand(0);
        } else {
            return None;
        }
    }
    None
}

/// The value a `load` reads when it reads a local that only ever holds
/// that value, a [`fixed_address`] (`char *s = "x";`, or the parameter of
/// an inlined `always_inline` helper, before allocas are promoted): every
/// use of the local is a load, a lifetime marker or a store of that value
/// (or of the null that zero-initialisation stores just before it).
fn only_value_held(load: Value<'_>) -> Option<Value<'_>> {
    if !load.is_load() || load.is_volatile() {
        return None;
    }
    let slot = load.operand(0);
    if !slot.is_alloca() {
        return None;
    }
    let mut held = None;
    for user in slot.users() {
        match user.inst_opcode() {
            Some(Opcode::LLVMLoad) if user.operand(0) == slot => {}
            Some(Opcode::LLVMStore) if user.operand(1) == slot => {
                let value = user.operand(0);
                if !fixed_address(value) {
                    return None;
                }
                // `-ftrivial-auto-var-init=zero`'s null, overwritten at
                // once by the declaration's initialiser.
                let overwritten = value.is_null_constant()
                    && user
                        .next_instruction()
                        .is_some_and(|next| next.is_store() && next.operand(1) == slot);
                if overwritten {
                    continue;
                }
                if held.is_some_and(|h| h != value) {
                    return None;
                }
                held = Some(value);
            }
            Some(Opcode::LLVMCall) if user.called_value().name().starts_with("llvm.lifetime.") => {}
            _ => return None,
        }
    }
    held
}

impl<'m> Guards<'m> {
    fn i64c(&self, v: u64) -> Value<'m> {
        self.ll.i64c(v)
    }

    fn abi_size(&self, ty: Type<'m>) -> u64 {
        self.ll.size_of(ty)
    }

    fn function(&mut self, f: Func<'m>) {
        let Some(list) = accesses(f) else { return };
        for (inst, kind) in list {
            self.access(inst, kind);
        }
    }

    fn access(&mut self, inst: Value<'m>, kind: Access) {
        // Built values carry the access's line, so the report of the
        // volatile copy names it.
        self.ll.position_before(inst);
        self.ll.set_debug_loc(inst.debug_loc());
        match kind {
            Access::Load | Access::Store => {
                if matches!(kind, Access::Store) {
                    self.local_array_stored(inst);
                }
                let (ptr, ty) = match kind {
                    Access::Load => (inst.operand(0), inst.type_of()),
                    _ => (inst.operand(1), inst.operand(0).type_of()),
                };
                if inst.is_volatile() || !ty.is_sized() {
                    return;
                }
                let bytes = self.ll.store_size_of(ty);
                let unused = matches!(kind, Access::Load) && !inst.has_uses();
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
                            } else if unused && !p.root.is_alloca() {
                                self.keep(inst, &[]);
                            }
                        }
                        Offset::Var(_) if bytes > p.size => self.keep(inst, &[addr]),
                        Offset::Var(off) => {
                            let bad = self.icmp_ugt(off, self.i64c(p.size - bytes));
                            self.guard(inst, bad, |g| {
                                let at = g.byte_address(p.root, off);
                                let copy = if write {
                                    g.ll.store(inst.operand(0), at, 1)
                                } else {
                                    g.ll.load(ty, at, 1)
                                };
                                copy.set_volatile(true);
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

    /// `memset` / `memcpy` / `memmove`: each pointer operand checked for
    /// the length.
    fn mem_intrinsic(&mut self, inst: Value<'m>, kind: Access) {
        // Operands: dst, src or value, len, volatile flag, callee.
        let volatile = inst.operand(3);
        if const_int(volatile) != Some(0) {
            return;
        }
        let len = inst.operand(2);
        if const_int(len) == Some(0) {
            return;
        }
        let ptrs: &[(u32, bool)] = match kind {
            Access::Copy => &[(0, true), (1, false)],
            _ => &[(0, true)],
        };
        let mut bad: Vec<Value<'m>> = Vec::new();
        let mut places = Vec::new();
        let mut always = false;
        for &(op, write) in ptrs {
            let Some(p) = self.place(inst.operand(op)) else {
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
                    let len64 = self.ll.int_cast(len, self.ll.i64());
                    let past = self.icmp_ugt(off, size);
                    let room = self.ll.sub(size, off);
                    let long = self.icmp_ugt(len64, room);
                    bad.push(self.ll.or(past, long));
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
        let cond = bad[1..].iter().fold(first, |a, &c| self.ll.or(a, c));
        self.guard(inst, cond, |g| {
            let addresses: Vec<(u32, Value<'m>)> = places
                .iter()
                .map(|&(op, root, off)| (op, g.byte_address(root, off)))
                .collect();
            let copy = inst.clone_inst();
            g.ll.insert(copy);
            for (op, at) in addresses {
                copy.set_operand(op, at);
            }
            copy.set_operand(3, g.ll.const_int(volatile.type_of(), 1));
        });
    }

    /// A call of a known function through a type that is not the
    /// function's (a function pointer cast to fewer parameters, a prototype
    /// that lies): the callee is laundered, so the optimiser cannot make it
    /// a direct call with the missing arguments filled in; the translation's
    /// call check then compares the argument bytes with the callee's and
    /// reports a mismatch, as at `-O0`.
    fn mistyped_call(&mut self, inst: Value<'m>) {
        // The called value is a call's or invoke's last operand.
        let at = inst.num_operands() - 1;
        let callee = inst.operand(at);
        let target = if callee.is_function() {
            callee
        } else {
            match only_value_held(callee) {
                Some(f) if f.is_function() => f,
                _ => return,
            }
        };
        if target.global_value_type() == inst.called_fn_type() {
            return;
        }
        let laundered = self.launder(callee);
        inst.set_operand(at, laundered);
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
    fn locals_passed(&mut self, inst: Value<'m>) {
        // `inst` is a call or invoke (not an intrinsic or inline asm:
        // `accesses`); its argument operands come first.
        let callee = inst.called_value();
        let Some(f) = callee.as_func() else {
            return;
        };
        if f.count_blocks() == 0 {
            return;
        }
        // A variadic argument is read with `va_arg`, in a function the
        // optimiser does not inline (it calls `va_start`).
        let fixed = f.params().len() as u32;
        for i in 0..inst.num_arg_operands().min(fixed) {
            let arg = inst.operand(i);
            if !arg.type_of().is_ptr() {
                continue;
            }
            let Some((root, offset)) = local_root(self.ll.layout(), arg) else {
                continue;
            };
            let size = const_int(root.operand(0))
                .and_then(|n| u64::try_from(n).ok())
                .and_then(|n| n.checked_mul(self.abi_size(root.allocated_type())));
            let reach = self.reach.param(self.ll.layout(), callee, i);
            let inside = match size {
                Some(size) => reach.inside(offset, size),
                None => reach.inside(None, 0),
            };
            if inside {
                continue;
            }
            let laundered = self.launder(arg);
            inst.set_operand(i, laundered);
            self.stats.kept += 1;
        }
    }

    /// A local array's address stored anywhere but in a pointer variable
    /// (a struct's field: `struct buf b = { arr, n };`) is stored
    /// laundered: a function that reads it back there and indexes it may
    /// be inlined, and its accesses would otherwise be to the array itself.
    fn local_array_stored(&mut self, inst: Value<'m>) {
        // A store: operand 0 the value, 1 the address.
        let value = inst.operand(0);
        if !value.type_of().is_ptr() || inst.is_volatile() || !local_array(value) {
            return;
        }
        let dest = inst.operand(1);
        let variable = dest.is_alloca() && dest.allocated_type().is_ptr();
        if variable {
            return;
        }
        let laundered = self.launder(value);
        inst.set_operand(0, laundered);
        self.stats.kept += 1;
    }

    /// Makes `inst` (a load, a store or a memory intrinsic) volatile, its
    /// address operands `ops` laundered ([`Guards::launder`]: the
    /// optimiser no longer sees which object, so it neither narrows the
    /// access to the object nor deletes a store into constant memory).
    fn keep(&mut self, inst: Value<'m>, ops: &[u32]) {
        for &op in ops {
            let laundered = self.launder(inst.operand(op));
            inst.set_operand(op, laundered);
        }
        if inst.opcode() == Opcode::LLVMCall {
            // A memory intrinsic's volatile flag is operand 3.
            let flag = inst.operand(3);
            inst.set_operand(3, self.ll.const_int(flag.type_of(), 1));
        } else {
            inst.set_volatile(true);
        }
        self.stats.kept += 1;
    }

    fn icmp_ugt(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.ll.icmp(IntPredicate::LLVMIntUGT, a, b)
    }

    /// `root + off` without `inbounds`, from `root` passed through
    /// [`launder`] (built at the builder's position).
    ///
    /// SROA deletes an access it sees wholly outside an `alloca` (volatile
    /// or not), and an index the optimiser folds to a constant would show
    /// it one; through the laundered address it sees none.
    fn byte_address(&self, root: Value<'m>, off: Value<'m>) -> Value<'m> {
        let laundered = self.launder(root);
        self.ll.gep_i8(laundered, off)
    }

    /// `p` (a pointer) passed through the empty asm of
    /// [`LAUNDER_CONSTRAINTS`] (built at the builder's position): the same
    /// address, from which the optimiser can tell nothing.
    fn launder(&self, p: Value<'m>) -> Value<'m> {
        let ptr = p.type_of();
        let fnty = self.ll.fn_ty(ptr, &[ptr], false);
        let asm = self.ll.inline_asm(fnty, "", LAUNDER_CONSTRAINTS, true);
        self.ll.call(fnty, asm, &[p])
    }

    /// The object and offset `ptr` is known to point at: a chain of
    /// `getelementptr`s from an `alloca` of constant size or a global
    /// defined here with its final size. Variable offsets are built as
    /// `i64` values at the builder's position.
    fn place(&self, ptr: Value<'m>) -> Option<Place<'m>> {
        let mut geps = Vec::new();
        let mut v = ptr;
        let (root, size, constant) = loop {
            if v.is_alloca() {
                let n = const_int(v.operand(0))?;
                let ty = v.allocated_type();
                if !ty.is_sized() || n < 0 {
                    return None;
                }
                break (v, self.abi_size(ty).checked_mul(n as u64)?, false);
            }
            if v.is_global_variable() {
                let final_size = !v.is_declaration()
                    && matches!(
                        v.linkage(),
                        Linkage::LLVMExternalLinkage
                            | Linkage::LLVMInternalLinkage
                            | Linkage::LLVMPrivateLinkage
                    )
                    && !v.is_thread_local();
                if !final_size {
                    return None;
                }
                let ty = v.global_value_type();
                break (v, self.abi_size(ty), v.is_global_constant());
            }
            if geps.len() == 16 {
                return None;
            }
            if let Some(c) = only_value_held(v) {
                v = c;
                geps.push(None);
                continue;
            }
            let is_gep = v.is_gep_inst() || v.const_opcode() == Some(Opcode::LLVMGetElementPtr);
            if !is_gep {
                return None;
            }
            geps.push(Some(v));
            v = v.operand(0);
        };
        let mut konst: i128 = 0;
        let mut var: Option<Value<'m>> = None;
        for &gep in geps.iter().rev().flatten() {
            // Operand 0 is the base, then the indices.
            let n = gep.num_operands();
            let mut ty = gep.gep_source_type();
            for k in 1..n {
                let idx = gep.operand(k);
                if !idx.type_of().is_int() {
                    return None; // a vector of addresses
                }
                let stride = if k == 1 {
                    self.abi_size(ty)
                } else {
                    match ty.kind() {
                        TypeKind::LLVMStructTypeKind => {
                            let field = const_int(idx)? as u32;
                            konst += i128::from(self.ll.field_offset(ty, field));
                            ty = ty.struct_fields()[field as usize];
                            continue;
                        }
                        TypeKind::LLVMArrayTypeKind => {
                            ty = ty.element_type();
                            self.abi_size(ty)
                        }
                        _ => return None,
                    }
                };
                match const_int(idx) {
                    Some(c) => konst += c * i128::from(stride),
                    None => {
                        let wide = self.ll.int_cast_signed(idx, self.ll.i64());
                        let term = self.ll.mul(wide, self.i64c(stride));
                        var = Some(match var {
                            Some(sum) => self.ll.add_i64(sum, term),
                            None => term,
                        });
                    }
                }
            }
        }
        let offset = match var {
            None => Offset::Const(konst),
            Some(v) => Offset::Var(self.ll.add_i64(v, self.i64c(konst as u64))),
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
    fn guard(&mut self, inst: Value<'m>, bad: Value<'m>, cold: impl FnOnce(&Self)) {
        if bad.const_int_value() == Some(0) {
            return;
        }
        let Some(head) = self.split_before(inst) else {
            return;
        };
        let ll = &self.ll;
        let tail = inst.block();
        let fail = ll.insert_block_before(tail, "");
        ll.position_at_end(head);
        let br = ll.cond_br(bad, fail, tail);
        // Cold: the failing path ends the program.
        let weights = [ll.value_md(ll.i32c(1)), ll.value_md(ll.i32c(1 << 20))];
        let node = ll.md_node(&[ll.md_string("branch_weights"), weights[0], weights[1]]);
        ll.attach(br, "prof", node);
        ll.position_at_end(fail);
        cold(self);
        self.ll.br(tail);
        self.stats.guards += 1;
    }

    /// Moves everything of `inst`'s block before it into a new block
    /// placed before it, which takes over the block's predecessors; returns
    /// the new block (without a terminator), or `None` when the block is
    /// used other than as a branch target.
    fn split_before(&self, inst: Value<'m>) -> Option<Block<'m>> {
        let block = inst.block();
        // Every user is checked before anything changes, so a block that
        // cannot be split is left as it was.
        let users = block.as_value().users();
        if users.iter().any(|u| !u.is_terminator()) {
            return None;
        }
        let head = self.ll.insert_block_before(block, "");
        for user in users {
            for (k, succ) in user.successors().into_iter().enumerate() {
                if succ == block {
                    user.set_successor(k as u32, head);
                }
            }
        }
        let moved: Vec<Value<'m>> = block
            .instructions()
            .into_iter()
            .take_while(|&i| i != inst)
            .collect();
        self.ll.position_at_end(head);
        for i in moved {
            i.remove_from_parent();
            self.ll.insert(i);
        }
        Some(head)
    }
}
