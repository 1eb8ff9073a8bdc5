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
//! selected, indexed with a variable, a pointer at rest inside it, a
//! dynamic size) makes it a heap object. At `-O2`, `mem2reg` and SROA have
//! already removed most allocas of the first kind; what remains is mostly
//! the second.

use std::collections::HashMap;

use inkwell::llvm_sys::core::{
    LLVMGetAllocatedType, LLVMGetCalledValue, LLVMGetFirstUse, LLVMGetGEPSourceElementType,
    LLVMGetInstructionOpcode, LLVMGetNextUse, LLVMGetNumOperands, LLVMGetOperand, LLVMGetOrdering,
    LLVMGetUser, LLVMGetVolatile, LLVMIsAConstantInt, LLVMIsAFunction, LLVMIsAInstruction,
    LLVMTypeOf,
};
use inkwell::llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
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
    /// A capability object on the GC heap, and why.
    Heap(&'static str),
}

/// Classifies every alloca of `function`.
pub fn classify_allocas<'ctx>(
    module: &Module<'ctx>,
    function: FunctionValue<'ctx>,
) -> HashMap<InstructionValue<'ctx>, AllocaHome> {
    let layout = Layout::new(module);
    let mut out = HashMap::new();
    for block in function.get_basic_block_iter() {
        for inst in block.get_instructions() {
            if inst.get_opcode() == InstructionOpcode::Alloca {
                out.insert(inst, layout.home(inst));
            }
        }
    }
    out
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

    fn home(&self, alloca: InstructionValue<'_>) -> AllocaHome {
        let raw = alloca.as_value_ref();
        // SAFETY: `raw` is a live alloca; operand 0 is its element count.
        let (ty, count) = unsafe { (LLVMGetAllocatedType(raw), LLVMGetOperand(raw, 0)) };
        let Some(n) = const_int(count) else {
            return AllocaHome::Heap("its size is not a constant");
        };
        let size = self.size(ty).saturating_mul(n);
        match self.uses_ok(raw, 0, size) {
            Ok(()) => AllocaHome::Stack,
            Err(why) => AllocaHome::Heap(why),
        }
    }

    /// Whether every use of `value`, which points `offset` bytes into an
    /// allocation of `size` bytes, keeps the allocation private and in
    /// bounds.
    fn uses_ok(&self, value: LLVMValueRef, offset: u64, size: u64) -> Result<(), &'static str> {
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
                        self.access_ok(LLVMTypeOf(user), offset, size)?;
                    }
                    LLVMOpcode::LLVMStore => {
                        let (stored, address) = (LLVMGetOperand(user, 0), LLVMGetOperand(user, 1));
                        if stored == value || address != value {
                            return Err("its address is stored to memory");
                        }
                        plain_access(user)?;
                        self.access_ok(LLVMTypeOf(stored), offset, size)?;
                    }
                    LLVMOpcode::LLVMGetElementPtr => {
                        let extra = self
                            .gep_offset(user)
                            .ok_or("it is indexed with a variable")?;
                        let inner = offset.checked_add(extra).ok_or("an index overflows")?;
                        self.uses_ok(user, inner, size)?;
                    }
                    LLVMOpcode::LLVMCall if is_lifetime_marker(user) => {}
                    _ => return Err("its address escapes (passed, cast, compared or merged)"),
                }
            }
        }
        Ok(())
    }

    /// A load or store of `ty` at `offset` must hold no pointer and fit.
    fn access_ok(&self, ty: LLVMTypeRef, offset: u64, size: u64) -> Result<(), &'static str> {
        // SAFETY: `ty` is a live type of the module's context.
        if has_pointer(unsafe { AnyTypeEnum::new(ty) }) {
            return Err("a pointer is stored in it (pointers at rest need shadow storage)");
        }
        let bytes = self.size(ty);
        match offset.checked_add(bytes) {
            Some(end) if end <= size => Ok(()),
            _ => Err("an access may fall outside it"),
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
