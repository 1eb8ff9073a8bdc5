//! Which `alloca`s may stay plain stack slots.
//!
//! Under gimso an `alloca` is a zero-initialised capability object on the
//! GC heap, because its address may be stored, passed, compared or indexed
//! out of bounds. An alloca whose address never leaves the function and
//! whose every access is provably inside it needs no capability: it stays a
//! (zeroed) stack slot and its accesses need no checks. That holds when
//! every use of the alloca is, directly or through `getelementptr` with
//! constant indices,
//!
//! - the address operand of a non-volatile, non-atomic `load` or `store` of
//!   a type without pointers, entirely inside the allocation, or
//! - an `llvm.lifetime.*` marker.
//!
//! Anything else (the address stored, passed to a call, cast, compared,
//! selected, indexed with a variable, a dynamic size) makes it a heap
//! object. At `-O2`, `mem2reg` and SROA have already removed most allocas of
//! the first kind; what remains is mostly the second.
//!
//! Two more shapes stay in the frame as [`AllocaHome::StackCaps`]: a slot
//! beside the alloca holds the capabilities of the pointers at rest in it.
//!
//! - `ptr` loads and stores at word-aligned offsets inside it, and constant
//!   `llvm.memset`s inside it (which clear the capabilities they cover);
//! - its address passed to calls in blocks that never return (every path
//!   from them ends in `unreachable`: an error raised with `longjmp`, an
//!   `abort`), with no other use reachable after such a call. There the
//!   translation copies the slot (values and capabilities) into a heap
//!   object the first time, and the calls get that object. Lua's
//!   `luaH_resize` keeps its 56-byte `Table newt` this way: it escapes only
//!   to `freehash` on the allocation-failure path before `luaD_throw`, and
//!   was a GC allocation on every table resize.

use std::collections::{HashMap, HashSet};

use inkwell::llvm_sys::core::{
    LLVMGetAllocatedType, LLVMGetCalledValue, LLVMGetFirstUse, LLVMGetGEPSourceElementType,
    LLVMGetInstructionOpcode, LLVMGetInstructionParent, LLVMGetNextInstruction, LLVMGetNextUse,
    LLVMGetNumOperands, LLVMGetNumSuccessors, LLVMGetOperand, LLVMGetOrdering, LLVMGetSuccessor,
    LLVMGetUser, LLVMGetVolatile, LLVMIsAConstantInt, LLVMIsAFunction, LLVMIsAInstruction,
    LLVMTypeOf,
};
use inkwell::llvm_sys::prelude::{LLVMBasicBlockRef, LLVMTypeRef, LLVMValueRef};
use inkwell::llvm_sys::target::{
    LLVMABISizeOfType, LLVMCreateTargetData, LLVMDisposeTargetData, LLVMOffsetOfElement,
    LLVMTargetDataRef,
};
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMOpcode};
use inkwell::module::Module;
use inkwell::types::{AnyType, AnyTypeEnum, AsTypeRef};
use inkwell::values::{AsValueRef, FunctionValue, InstructionOpcode, InstructionValue};

/// Where an alloca lives after translation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AllocaHome {
    /// A plain zeroed stack slot: no capability, no checks.
    Stack,
    /// A zeroed stack slot with a capability slot beside it (pointers at
    /// rest); `escapes`: its address is passed to calls on paths that never
    /// return, which get a heap copy made there.
    StackCaps {
        /// Whether some call on a never-returning path takes its address.
        escapes: bool,
    },
    /// A capability object on the GC heap, and why.
    Heap(&'static str),
}

/// Classifies every alloca of `function`.
pub fn classify_allocas<'ctx>(
    module: &Module<'ctx>,
    function: FunctionValue<'ctx>,
) -> HashMap<InstructionValue<'ctx>, AllocaHome> {
    let layout = Layout::new(module);
    let cfg = Cfg::new(function);
    let mut out = HashMap::new();
    for block in function.get_basic_block_iter() {
        for inst in block.get_instructions() {
            if inst.get_opcode() == InstructionOpcode::Alloca {
                out.insert(inst, layout.home(inst, &cfg));
            }
        }
    }
    out
}

/// The blocks of one function: successors, and which never return.
struct Cfg {
    succs: HashMap<LLVMBasicBlockRef, Vec<LLVMBasicBlockRef>>,
    /// Blocks every path from which ends in `unreachable`.
    doomed: HashSet<LLVMBasicBlockRef>,
}

impl Cfg {
    fn new(function: FunctionValue<'_>) -> Cfg {
        let mut succs = HashMap::new();
        let mut dead_end = HashSet::new();
        for block in function.get_basic_block_iter() {
            let raw = block.as_mut_ptr();
            let mut out = Vec::new();
            if let Some(term) = block.get_terminator() {
                let t = term.as_value_ref();
                // SAFETY: `t` is a live terminator; its successors are
                // blocks of the same function.
                unsafe {
                    if LLVMGetInstructionOpcode(t) == LLVMOpcode::LLVMUnreachable {
                        dead_end.insert(raw);
                    }
                    for i in 0..LLVMGetNumSuccessors(t) {
                        out.push(LLVMGetSuccessor(t, i));
                    }
                }
            }
            succs.insert(raw, out);
        }
        // Least fixpoint: a block is doomed when it ends in `unreachable`
        // or all its successors are doomed (a loop with no way out but
        // doomed blocks stays undoomed: that only costs an allocation).
        let mut doomed = dead_end;
        loop {
            let before = doomed.len();
            for (b, s) in &succs {
                if !s.is_empty() && s.iter().all(|x| doomed.contains(x)) {
                    doomed.insert(*b);
                }
            }
            if doomed.len() == before {
                break;
            }
        }
        Cfg { succs, doomed }
    }

    /// Blocks reachable from the successors of `from`.
    fn reachable_after(&self, from: LLVMBasicBlockRef) -> HashSet<LLVMBasicBlockRef> {
        let mut seen = HashSet::new();
        let mut work: Vec<_> = self.succs.get(&from).cloned().unwrap_or_default();
        while let Some(b) = work.pop() {
            if seen.insert(b) {
                work.extend(self.succs.get(&b).into_iter().flatten().copied());
            }
        }
        seen
    }
}

/// What the uses of one alloca need, beyond plain accesses.
#[derive(Default)]
struct Needs {
    /// A `ptr` is loaded from or stored in it.
    caps: bool,
    /// Calls in doomed blocks that take its address.
    escapes: Vec<LLVMValueRef>,
    /// Every other use (accesses, memsets).
    others: Vec<LLVMValueRef>,
    /// A word-sized integer is loaded or stored: it may be a pointer's
    /// `ptrtoint` carrying a capability (a union, a `memcpy` turned into
    /// an `i64` copy), which only shadow storage keeps.
    int_words: bool,
}

/// The module's data layout, for sizes and offsets.
struct Layout {
    td: LLVMTargetDataRef,
}

impl Drop for Layout {
    fn drop(&mut self) {
        // SAFETY: created in `new`, disposed once.
        unsafe { LLVMDisposeTargetData(self.td) };
    }
}

impl Layout {
    fn new(module: &Module<'_>) -> Layout {
        let dl = module.get_data_layout();
        // SAFETY: `dl` is a NUL-terminated layout string owned by us for
        // the call; the target data is disposed in Drop.
        let td = unsafe { LLVMCreateTargetData(dl.as_ptr()) };
        Layout { td }
    }

    fn size(&self, ty: LLVMTypeRef) -> u64 {
        // SAFETY: `ty` is a sized type of the module's context.
        unsafe { LLVMABISizeOfType(self.td, ty) }
    }

    fn home(&self, alloca: InstructionValue<'_>, cfg: &Cfg) -> AllocaHome {
        let raw = alloca.as_value_ref();
        // SAFETY: `raw` is a live alloca; operand 0 is its element count.
        let (ty, count) = unsafe { (LLVMGetAllocatedType(raw), LLVMGetOperand(raw, 0)) };
        let Some(n) = const_int(count) else {
            return AllocaHome::Heap("its size is not a constant");
        };
        let size = self.size(ty).saturating_mul(n);
        let mut needs = Needs::default();
        if let Err(why) = self.uses_ok(raw, 0, size, cfg, &mut needs) {
            return AllocaHome::Heap(why);
        }
        if let Err(why) = nothing_after_escapes(&needs, cfg) {
            return AllocaHome::Heap(why);
        }
        if (needs.caps || !needs.escapes.is_empty()) && needs.int_words {
            return AllocaHome::Heap("an integer word in it may carry a capability");
        }
        if needs.caps || !needs.escapes.is_empty() {
            AllocaHome::StackCaps {
                escapes: !needs.escapes.is_empty(),
            }
        } else {
            AllocaHome::Stack
        }
    }

    /// Whether every use of `value`, which points `offset` bytes into an
    /// allocation of `size` bytes, keeps the allocation private and in
    /// bounds (or lets it out only on doomed paths); what they need is
    /// added to `needs`.
    fn uses_ok(
        &self,
        value: LLVMValueRef,
        offset: u64,
        size: u64,
        cfg: &Cfg,
        needs: &mut Needs,
    ) -> Result<(), &'static str> {
        // SAFETY: `value` is a live alloca or GEP; its use list, users and
        // their operands are live values of the same function, and each
        // accessor is called only on the opcode it belongs to.
        unsafe {
            let mut use_ = LLVMGetFirstUse(value);
            while !use_.is_null() {
                let user = LLVMGetUser(use_);
                use_ = LLVMGetNextUse(use_);
                if LLVMIsAInstruction(user).is_null() {
                    return Err("its address is used by a constant");
                }
                match LLVMGetInstructionOpcode(user) {
                    LLVMOpcode::LLVMLoad => {
                        plain_access(user)?;
                        needs.caps |= self.access_ok(LLVMTypeOf(user), offset, size)?;
                        needs.int_words |= self.int_word(LLVMTypeOf(user));
                        needs.others.push(user);
                    }
                    LLVMOpcode::LLVMStore => {
                        let (stored, address) = (LLVMGetOperand(user, 0), LLVMGetOperand(user, 1));
                        if stored == value || address != value {
                            return Err("its address is stored to memory");
                        }
                        plain_access(user)?;
                        needs.caps |= self.access_ok(LLVMTypeOf(stored), offset, size)?;
                        needs.int_words |= self.int_word(LLVMTypeOf(stored));
                        needs.others.push(user);
                    }
                    LLVMOpcode::LLVMGetElementPtr => {
                        let extra = self
                            .gep_offset(user)
                            .ok_or("it is indexed with a variable")?;
                        let inner = offset.checked_add(extra).ok_or("an index overflows")?;
                        self.uses_ok(user, inner, size, cfg, needs)?;
                    }
                    LLVMOpcode::LLVMCall if is_lifetime_marker(user) => {}
                    LLVMOpcode::LLVMCall if is_memset_inside(user, value, offset, size) => {
                        needs.others.push(user);
                    }
                    LLVMOpcode::LLVMCall if escapes_to_doom(user, cfg) => {
                        needs.escapes.push(user);
                    }
                    _ => return Err("its address escapes (passed, cast, compared or merged)"),
                }
            }
        }
        Ok(())
    }

    /// A load or store of `ty` at `offset` must fit, and hold no pointer
    /// unless it is one `ptr` at a word-aligned offset; returns whether it
    /// is one.
    fn access_ok(&self, ty: LLVMTypeRef, offset: u64, size: u64) -> Result<bool, &'static str> {
        // SAFETY: `ty` is a live type of the module's context.
        let any = unsafe { AnyTypeEnum::new(ty) };
        // One `ptr`, or a vector of them (the SLP vectoriser pairs
        // neighbouring pointer fields).
        let word = match any {
            AnyTypeEnum::PointerType(_) => true,
            AnyTypeEnum::VectorType(v) => v.get_element_type().is_pointer_type(),
            _ => false,
        };
        if word && offset % 8 != 0 {
            return Err("a pointer in it is not word-aligned");
        }
        if !word && has_pointer(any) {
            return Err("an aggregate with pointers is loaded or stored whole");
        }
        let bytes = self.size(ty);
        match offset.checked_add(bytes) {
            Some(end) if end <= size => Ok(word),
            _ => Err("an access may fall outside it"),
        }
    }

    /// Whether `ty` is an integer (or a vector of them) with 8-byte
    /// elements or wider.
    fn int_word(&self, ty: LLVMTypeRef) -> bool {
        // SAFETY: `ty` is a live type of the module's context.
        match unsafe { AnyTypeEnum::new(ty) } {
            AnyTypeEnum::IntType(i) => i.get_bit_width() >= 64,
            AnyTypeEnum::VectorType(v) => match v.get_element_type() {
                inkwell::types::BasicTypeEnum::IntType(i) => i.get_bit_width() >= 64,
                _ => false,
            },
            AnyTypeEnum::ArrayType(_) | AnyTypeEnum::StructType(_) => true,
            _ => false,
        }
    }

    /// The constant byte offset a GEP adds, if all its indices are constant.
    fn gep_offset(&self, gep: LLVMValueRef) -> Option<u64> {
        // SAFETY: `gep` is a live getelementptr: operand 0 the base, then
        // the indices; the source element type describes the first index.
        unsafe {
            let mut ty = LLVMGetGEPSourceElementType(gep);
            let n = LLVMGetNumOperands(gep).max(0) as u32;
            let first = const_int(LLVMGetOperand(gep, 1))?;
            let mut offset = self.size(ty).checked_mul(first)?;
            for i in 2..n {
                let index = const_int(LLVMGetOperand(gep, i))?;
                match AnyTypeEnum::new(ty) {
                    AnyTypeEnum::StructType(s) => {
                        offset =
                            offset.checked_add(LLVMOffsetOfElement(self.td, ty, index as u32))?;
                        ty = s.get_field_type_at_index(index as u32)?.as_type_ref();
                    }
                    AnyTypeEnum::ArrayType(a) => {
                        ty = a.get_element_type().as_type_ref();
                        offset = offset.checked_add(self.size(ty).checked_mul(index)?)?;
                    }
                    _ => return None,
                }
            }
            Some(offset)
        }
    }
}

/// Loads and stores must be neither volatile nor atomic to stay unchecked.
///
/// # Safety
/// `inst` must be a live load or store.
unsafe fn plain_access(inst: LLVMValueRef) -> Result<(), &'static str> {
    // SAFETY: forwarded from the caller.
    let (volatile, ordering) = unsafe { (LLVMGetVolatile(inst), LLVMGetOrdering(inst)) };
    if volatile != 0 || ordering != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
        return Err("it is accessed atomically or volatilely");
    }
    Ok(())
}

/// The value of a constant integer that fits in a non-negative i64.
fn const_int(v: LLVMValueRef) -> Option<u64> {
    // SAFETY: `v` is a live value; the cast only succeeds for ConstantInt.
    if v.is_null() || unsafe { LLVMIsAConstantInt(v) }.is_null() {
        return None;
    }
    // SAFETY: `v` is a ConstantInt.
    let n = unsafe { inkwell::llvm_sys::core::LLVMConstIntGetSExtValue(v) };
    u64::try_from(n).ok()
}

/// No use of the alloca may be reachable after a call that gets its heap
/// copy: it would read the frame's stale slot.
fn nothing_after_escapes(needs: &Needs, cfg: &Cfg) -> Result<(), &'static str> {
    for &call in &needs.escapes {
        // SAFETY: `call` is a live instruction of the function.
        let block = unsafe { LLVMGetInstructionParent(call) };
        let after = cfg.reachable_after(block);
        for &other in &needs.others {
            // SAFETY: as above.
            let ob = unsafe { LLVMGetInstructionParent(other) };
            let later_here = ob == block && comes_after(other, call);
            if later_here || after.contains(&ob) {
                return Err("it is used after its address escapes");
            }
        }
    }
    Ok(())
}

/// Whether `inst` comes after `call` in their common block.
fn comes_after(inst: LLVMValueRef, call: LLVMValueRef) -> bool {
    // SAFETY: both are live instructions of one block; walking forward from
    // `call` ends at the block's end (null).
    unsafe {
        let mut i = LLVMGetNextInstruction(call);
        while !i.is_null() {
            if i == inst {
                return true;
            }
            i = LLVMGetNextInstruction(i);
        }
    }
    false
}

/// A non-volatile `llvm.memset` with a constant length, its destination
/// `value` (at `offset` into the alloca) and wholly inside the alloca.
fn is_memset_inside(call: LLVMValueRef, value: LLVMValueRef, offset: u64, size: u64) -> bool {
    if !callee_name(call).starts_with(b"llvm.memset.") {
        return false;
    }
    // SAFETY: `call` is a live call of `llvm.memset(dst, val, len, volatile)`.
    unsafe {
        if LLVMGetOperand(call, 0) != value || LLVMGetOperand(call, 1) == value {
            return false;
        }
        let (Some(len), Some(0)) = (
            const_int(LLVMGetOperand(call, 2)),
            const_int(LLVMGetOperand(call, 3)),
        ) else {
            return false;
        };
        offset.checked_add(len).is_some_and(|end| end <= size)
    }
}

/// A plain call (not an intrinsic, not `setjmp`) in a block that never
/// returns, taking the alloca as an argument (never as the callee).
fn escapes_to_doom(call: LLVMValueRef, cfg: &Cfg) -> bool {
    let name = callee_name(call);
    if name.is_empty() || name.starts_with(b"llvm.") || name.ends_with(b"setjmp") {
        return false;
    }
    // SAFETY: `call` is a live call instruction.
    let block = unsafe { LLVMGetInstructionParent(call) };
    cfg.doomed.contains(&block)
}

/// The name of a call's callee, empty for an indirect call.
fn callee_name(call: LLVMValueRef) -> &'static [u8] {
    // SAFETY: `call` is a live call; the callee cast only succeeds for
    // functions, whose names live as long as the module.
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() {
            return b"";
        }
        let mut len = 0usize;
        let name = inkwell::llvm_sys::core::LLVMGetValueName2(callee, &mut len);
        core::slice::from_raw_parts(name.cast::<u8>(), len)
    }
}

fn is_lifetime_marker(call: LLVMValueRef) -> bool {
    // SAFETY: `call` is a live call; the callee cast only succeeds for functions.
    unsafe {
        let callee = LLVMGetCalledValue(call);
        if callee.is_null() || LLVMIsAFunction(callee).is_null() {
            return false;
        }
        let mut len = 0usize;
        let name = inkwell::llvm_sys::core::LLVMGetValueName2(callee, &mut len);
        let name = core::slice::from_raw_parts(name.cast::<u8>(), len);
        name.starts_with(b"llvm.lifetime.")
    }
}

fn has_pointer(ty: AnyTypeEnum<'_>) -> bool {
    match ty {
        AnyTypeEnum::PointerType(_) => true,
        AnyTypeEnum::ArrayType(a) => has_pointer(a.get_element_type().as_any_type_enum()),
        AnyTypeEnum::VectorType(v) => has_pointer(v.get_element_type().as_any_type_enum()),
        AnyTypeEnum::StructType(s) => s
            .get_field_types()
            .iter()
            .any(|f| has_pointer(f.as_any_type_enum())),
        _ => false,
    }
}
