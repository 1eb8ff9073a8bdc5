//! A thin layer over the LLVM C API for the translation.
//!
//! The translation builds new functions instruction by instruction from
//! raw value handles; inkwell's typed wrappers would need a conversion at
//! every step. [`Ll`] owns the builder and the target data of one module
//! and exposes the few dozen operations the translation uses as safe
//! methods. Its invariant, established by [`Ll::new`] and relied on by
//! every method: every `V`, `T` and `B` handed to it belongs to the one
//! live module (and context) it was created for, and stays alive while it
//! is used; the translation only ever passes handles it got from that
//! module.

use std::ffi::CString;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::{
    LLVMDIBuilderCreateDebugLocation, LLVMGetSubprogram, LLVMInstructionGetDebugLoc,
    LLVMSetSubprogram,
};
use inkwell::llvm_sys::prelude::{
    LLVMBasicBlockRef, LLVMBuilderRef, LLVMContextRef, LLVMMetadataRef, LLVMModuleRef, LLVMTypeRef,
    LLVMValueRef,
};
use inkwell::llvm_sys::target::{
    LLVMABIAlignmentOfType, LLVMABISizeOfType, LLVMCreateTargetData, LLVMDisposeTargetData,
    LLVMOffsetOfElement, LLVMStoreSizeOfType, LLVMTargetDataRef,
};
use inkwell::llvm_sys::{
    LLVMAtomicOrdering, LLVMIntPredicate, LLVMLinkage, LLVMOpcode, LLVMTypeKind,
};

pub type V = LLVMValueRef;
pub type T = LLVMTypeRef;
pub type B = LLVMBasicBlockRef;
pub type M = LLVMMetadataRef;

/// Builder, context and data layout of one module (see the module docs for
/// the invariant every method relies on).
pub struct Ll {
    pub ctx: LLVMContextRef,
    pub module: LLVMModuleRef,
    builder: LLVMBuilderRef,
    td: LLVMTargetDataRef,
}

impl Drop for Ll {
    fn drop(&mut self) {
        // SAFETY: both were created by `Ll::new` and are owned by `self`.
        unsafe {
            LLVMDisposeBuilder(self.builder);
            LLVMDisposeTargetData(self.td);
        }
    }
}

fn cstring(s: &str) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

impl Ll {
    /// # Safety
    /// `module` is a live module that outlives the returned value, and only
    /// handles of that module are passed to the returned value's methods.
    pub unsafe fn new(module: LLVMModuleRef) -> Ll {
        // SAFETY: `module` is live (contract); the data layout string is
        // owned by the module and copied by LLVMCreateTargetData.
        unsafe {
            let ctx = LLVMGetModuleContext(module);
            let td = LLVMCreateTargetData(LLVMGetDataLayoutStr(module));
            Ll {
                ctx,
                module,
                builder: LLVMCreateBuilderInContext(ctx),
                td,
            }
        }
    }

    // ---- types ---------------------------------------------------------

    pub fn i8(&self) -> T {
        // SAFETY: as above.
        unsafe { LLVMInt8TypeInContext(self.ctx) }
    }
    pub fn i32(&self) -> T {
        // SAFETY: as above.
        unsafe { LLVMInt32TypeInContext(self.ctx) }
    }
    pub fn i64(&self) -> T {
        // SAFETY: as above.
        unsafe { LLVMInt64TypeInContext(self.ctx) }
    }
    pub fn ptr(&self) -> T {
        // SAFETY: as above.
        unsafe { LLVMPointerTypeInContext(self.ctx, 0) }
    }
    pub fn void(&self) -> T {
        // SAFETY: as above.
        unsafe { LLVMVoidTypeInContext(self.ctx) }
    }
    pub fn struct_ty(&self, fields: &[T]) -> T {
        let mut f = fields.to_vec();
        // SAFETY: field types belong to this context (invariant).
        unsafe { LLVMStructTypeInContext(self.ctx, f.as_mut_ptr(), f.len() as u32, 0) }
    }
    /// A packed struct: fields at consecutive offsets, no padding.
    pub fn struct_ty_packed(&self, fields: &[T]) -> T {
        let mut f = fields.to_vec();
        // SAFETY: field types belong to this context (invariant).
        unsafe { LLVMStructTypeInContext(self.ctx, f.as_mut_ptr(), f.len() as u32, 1) }
    }
    pub fn array_ty(&self, elem: T, n: u64) -> T {
        // SAFETY: `elem` is a live type (invariant).
        unsafe { LLVMArrayType(elem, n as u32) }
    }
    pub fn fn_ty(&self, ret: T, params: &[T], vararg: bool) -> T {
        let mut p = params.to_vec();
        // SAFETY: types of this context (invariant).
        unsafe { LLVMFunctionType(ret, p.as_mut_ptr(), p.len() as u32, vararg as i32) }
    }
    pub fn is_vararg(&self, fnty: T) -> bool {
        // SAFETY: `fnty` is a live function type (invariant).
        unsafe { LLVMIsFunctionVarArg(fnty) != 0 }
    }
    /// The textual form of `ty` (`i32 (ptr, i64)`).
    pub fn type_string(&self, ty: T) -> String {
        // SAFETY: live type; the returned message is copied, then freed.
        unsafe {
            let p = LLVMPrintTypeToString(ty);
            let s = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
            LLVMDisposeMessage(p);
            s
        }
    }
    pub fn fn_params(&self, fnty: T) -> Vec<T> {
        // SAFETY: `fnty` is a function type; the buffer has room for its params.
        unsafe {
            let n = LLVMCountParamTypes(fnty) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(fnty, v.as_mut_ptr());
            v
        }
    }
    pub fn kind(&self, ty: T) -> LLVMTypeKind {
        // SAFETY: live type (invariant).
        unsafe { LLVMGetTypeKind(ty) }
    }
    pub fn is_ptr(&self, ty: T) -> bool {
        self.kind(ty) == LLVMTypeKind::LLVMPointerTypeKind
    }
    pub fn is_vector(&self, ty: T) -> bool {
        matches!(
            self.kind(ty),
            LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind
        )
    }
    pub fn is_sized(&self, ty: T) -> bool {
        // SAFETY: live type (invariant).
        unsafe { LLVMTypeIsSized(ty) != 0 }
    }
    pub fn struct_fields(&self, ty: T) -> Vec<T> {
        // SAFETY: `ty` is a struct type (callers check the kind).
        unsafe {
            let n = LLVMCountStructElementTypes(ty);
            let mut v = vec![std::ptr::null_mut(); n as usize];
            LLVMGetStructElementTypes(ty, v.as_mut_ptr());
            v
        }
    }
    pub fn elem_ty(&self, ty: T) -> T {
        // SAFETY: `ty` is an array or vector type (callers check the kind).
        unsafe { LLVMGetElementType(ty) }
    }
    pub fn array_len(&self, ty: T) -> u64 {
        // SAFETY: `ty` is an array type (callers check the kind).
        unsafe { u64::from(LLVMGetArrayLength(ty)) }
    }
    pub fn vector_len(&self, ty: T) -> u32 {
        // SAFETY: `ty` is a vector type (callers check the kind).
        unsafe { LLVMGetVectorSize(ty) }
    }
    pub fn int_width(&self, ty: T) -> u32 {
        // SAFETY: `ty` is an integer type (callers check the kind).
        unsafe { LLVMGetIntTypeWidth(ty) }
    }
    pub fn fn_ret(&self, fnty: T) -> T {
        // SAFETY: `fnty` is a function type.
        unsafe { LLVMGetReturnType(fnty) }
    }
    pub fn size_of(&self, ty: T) -> u64 {
        // SAFETY: `ty` is a sized type of this module's context.
        unsafe { LLVMABISizeOfType(self.td, ty) }
    }
    /// The bytes a load or store of `ty` touches: [`Ll::size_of`] without
    /// the padding to the type's alignment (an `i24` is 3 bytes, an `i104`
    /// 13, an `x86_fp80` 10), which the access must not be checked for.
    pub fn store_size_of(&self, ty: T) -> u64 {
        // SAFETY: `ty` is a sized type of this module's context.
        unsafe { LLVMStoreSizeOfType(self.td, ty) }
    }
    pub fn align_of(&self, ty: T) -> u64 {
        // SAFETY: as above.
        unsafe { LLVMABIAlignmentOfType(self.td, ty) as u64 }
    }
    /// The byte offset of a GEP over `src` with constant indices `idx`
    /// (`None` if one is not a constant or the sum overflows).
    pub fn const_gep_offset(&self, src: T, idx: &[V]) -> Option<i64> {
        let (first, rest) = idx.split_first()?;
        let scaled = |i: i64, ty: T| i.checked_mul(i64::try_from(self.size_of(ty)).ok()?);
        let mut off = scaled(self.const_int_svalue(*first)?, src)?;
        let mut ty = src;
        for &i in rest {
            let i = self.const_int_svalue(i)?;
            match self.kind(ty) {
                LLVMTypeKind::LLVMStructTypeKind => {
                    let f = u32::try_from(i).ok()?;
                    off = off.checked_add(i64::try_from(self.field_offset(ty, f)).ok()?)?;
                    ty = *self.struct_fields(ty).get(f as usize)?;
                }
                LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                    ty = self.elem_ty(ty);
                    off = off.checked_add(scaled(i, ty)?)?;
                }
                _ => return None,
            }
        }
        Some(off)
    }
    pub fn field_offset(&self, sty: T, i: u32) -> u64 {
        // SAFETY: `sty` is a struct type with more than `i` fields.
        unsafe { LLVMOffsetOfElement(self.td, sty, i) }
    }
    pub fn type_of(&self, v: V) -> T {
        // SAFETY: live value (invariant).
        unsafe { LLVMTypeOf(v) }
    }

    // ---- constants ------------------------------------------------------

    pub fn const_int(&self, ty: T, v: u64) -> V {
        // SAFETY: `ty` is an integer type of this context.
        unsafe { LLVMConstInt(ty, v, 0) }
    }
    pub fn i64c(&self, v: u64) -> V {
        self.const_int(self.i64(), v)
    }
    pub fn i32c(&self, v: u64) -> V {
        self.const_int(self.i32(), v)
    }
    pub fn zero(&self, ty: T) -> V {
        // SAFETY: any first-class type has a null constant.
        unsafe { LLVMConstNull(ty) }
    }
    pub fn null_ptr(&self) -> V {
        self.zero(self.ptr())
    }
    pub fn const_struct(&self, vals: &[V]) -> V {
        let mut v = vals.to_vec();
        // SAFETY: constants of this context.
        unsafe { LLVMConstStructInContext(self.ctx, v.as_mut_ptr(), v.len() as u32, 0) }
    }
    /// A constant of a packed struct type ([`Ll::struct_ty_packed`]).
    pub fn const_struct_packed(&self, vals: &[V]) -> V {
        let mut v = vals.to_vec();
        // SAFETY: constants of this context.
        unsafe { LLVMConstStructInContext(self.ctx, v.as_mut_ptr(), v.len() as u32, 1) }
    }
    pub fn const_named_struct(&self, ty: T, vals: &[V]) -> V {
        let mut v = vals.to_vec();
        // SAFETY: constants matching `ty`'s fields.
        unsafe { LLVMConstNamedStruct(ty, v.as_mut_ptr(), v.len() as u32) }
    }
    pub fn const_array(&self, elem: T, vals: &[V]) -> V {
        let mut v = vals.to_vec();
        // SAFETY: constants of type `elem`.
        unsafe { LLVMConstArray(elem, v.as_mut_ptr(), v.len() as u32) }
    }
    pub fn const_vector(&self, vals: &[V]) -> V {
        let mut v = vals.to_vec();
        // SAFETY: scalar constants of one type.
        unsafe { LLVMConstVector(v.as_mut_ptr(), v.len() as u32) }
    }
    /// `getelementptr i8, ptr base, i64 off` as a constant.
    pub fn const_gep_i8(&self, base: V, off: u64) -> V {
        let mut idx = [self.i64c(off)];
        // SAFETY: `base` is a pointer constant.
        unsafe { LLVMConstGEP2(self.i8(), base, idx.as_mut_ptr(), 1) }
    }
    /// `base + off` as a pointer constant, or null when `base` is null (a
    /// weak symbol left undefined at link time).
    pub fn const_gep_i8_or_null(&self, base: V, off: u64) -> V {
        let null = self.null_ptr();
        // SAFETY: both are pointer constants; LLVM 16 still folds
        // `icmp` and `select` constant expressions.
        unsafe {
            let is_null = LLVMConstICmp(LLVMIntPredicate::LLVMIntEQ, base, null);
            LLVMConstSelect(is_null, null, self.const_gep_i8(base, off))
        }
    }
    pub fn const_gep(&self, ty: T, base: V, idx: &[V]) -> V {
        let mut i = idx.to_vec();
        // SAFETY: `ty` is the source element type and `idx` valid indices.
        unsafe { LLVMConstGEP2(ty, base, i.as_mut_ptr(), i.len() as u32) }
    }
    pub fn const_ptrtoint(&self, v: V, ty: T) -> V {
        // SAFETY: pointer constant to integer type.
        unsafe { LLVMConstPtrToInt(v, ty) }
    }
    pub fn const_inttoptr(&self, v: V, ty: T) -> V {
        // SAFETY: integer constant to pointer type.
        unsafe { LLVMConstIntToPtr(v, ty) }
    }
    pub fn const_opcode(&self, v: V) -> LLVMOpcode {
        // SAFETY: `v` is a constant expression (callers check).
        unsafe { LLVMGetConstOpcode(v) }
    }
    pub fn const_int_value(&self, v: V) -> Option<u64> {
        // SAFETY: live value; the value is only read when it is a ConstantInt.
        unsafe { (!LLVMIsAConstantInt(v).is_null()).then(|| LLVMConstIntGetZExtValue(v)) }
    }

    /// The sign-extended value of a ConstantInt.
    pub fn const_int_svalue(&self, v: V) -> Option<i64> {
        // SAFETY: live value; the value is only read when it is a ConstantInt.
        unsafe { (!LLVMIsAConstantInt(v).is_null()).then(|| LLVMConstIntGetSExtValue(v)) }
    }

    // ---- values -----------------------------------------------------------

    pub fn operand(&self, v: V, i: u32) -> V {
        // SAFETY: `v` is a user with more than `i` operands (callers check).
        unsafe { LLVMGetOperand(v, i) }
    }
    pub fn num_operands(&self, v: V) -> u32 {
        // SAFETY: live value.
        unsafe { LLVMGetNumOperands(v).max(0) as u32 }
    }
    pub fn set_operand(&self, v: V, i: u32, op: V) {
        // SAFETY: `v` has more than `i` operands and `op` has the operand's type.
        unsafe { LLVMSetOperand(v, i, op) }
    }
    pub fn opcode(&self, inst: V) -> LLVMOpcode {
        // SAFETY: `inst` is an instruction.
        unsafe { LLVMGetInstructionOpcode(inst) }
    }
    pub fn name(&self, v: V) -> String {
        // SAFETY: live value; the returned buffer is owned by LLVM.
        unsafe {
            let mut len = 0usize;
            let p = LLVMGetValueName2(v, &mut len);
            if p.is_null() {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
        }
    }
    pub fn is_a(&self, v: V, what: unsafe extern "C" fn(V) -> V) -> bool {
        // SAFETY: `LLVMIsA*` functions only inspect the value's kind.
        unsafe { !what(v).is_null() }
    }

    // ---- globals and functions ---------------------------------------------

    pub fn get_function(&self, name: &str) -> Option<V> {
        let c = cstring(name);
        // SAFETY: live module; name copied.
        let f = unsafe { LLVMGetNamedFunction(self.module, c.as_ptr()) };
        (!f.is_null()).then_some(f)
    }
    pub fn get_global(&self, name: &str) -> Option<V> {
        let c = cstring(name);
        // SAFETY: live module; name copied.
        let g = unsafe { LLVMGetNamedGlobal(self.module, c.as_ptr()) };
        (!g.is_null()).then_some(g)
    }
    pub fn add_function(&self, name: &str, fnty: T) -> V {
        let c = cstring(name);
        // SAFETY: live module; name copied.
        unsafe { LLVMAddFunction(self.module, c.as_ptr(), fnty) }
    }
    /// The declaration of runtime function `name`, added on first use.
    pub fn runtime_fn(&self, name: &str, fnty: T) -> V {
        self.get_function(name)
            .unwrap_or_else(|| self.add_function(name, fnty))
    }
    pub fn add_global(&self, ty: T, name: &str) -> V {
        let c = cstring(name);
        // SAFETY: live module; name copied.
        unsafe { LLVMAddGlobal(self.module, ty, c.as_ptr()) }
    }
    pub fn add_alias(&self, ty: T, aliasee: V, name: &str) -> V {
        let c = cstring(name);
        // SAFETY: live module; `aliasee` is a pointer constant.
        unsafe { LLVMAddAlias2(self.module, ty, 0, aliasee, c.as_ptr()) }
    }
    pub fn set_initializer(&self, g: V, init: V) {
        // SAFETY: `g` is a global variable and `init` a constant of its type.
        unsafe { LLVMSetInitializer(g, init) }
    }
    pub fn initializer(&self, g: V) -> Option<V> {
        // SAFETY: `g` is a global variable.
        let i = unsafe { LLVMGetInitializer(g) };
        (!i.is_null()).then_some(i)
    }
    pub fn linkage(&self, g: V) -> LLVMLinkage {
        // SAFETY: `g` is a global value.
        unsafe { LLVMGetLinkage(g) }
    }
    pub fn set_linkage(&self, g: V, l: LLVMLinkage) {
        // SAFETY: `g` is a global value.
        unsafe { LLVMSetLinkage(g, l) }
    }
    pub fn set_alignment(&self, v: V, a: u32) {
        // SAFETY: `v` is a global, alloca, load or store.
        unsafe { LLVMSetAlignment(v, a) }
    }
    pub fn alignment(&self, v: V) -> u32 {
        // SAFETY: `v` is a global, alloca, load or store.
        unsafe { LLVMGetAlignment(v) }
    }
    pub fn global_value_type(&self, g: V) -> T {
        // SAFETY: `g` is a global value.
        unsafe { LLVMGlobalGetValueType(g) }
    }
    pub fn is_declaration(&self, g: V) -> bool {
        // SAFETY: `g` is a global value.
        unsafe { LLVMIsDeclaration(g) != 0 }
    }
    /// The indices of an `extractvalue` or `insertvalue` instruction.
    pub fn indices(&self, inst: V) -> Vec<u32> {
        use inkwell::llvm_sys::core::{LLVMGetIndices, LLVMGetNumIndices};
        // SAFETY: `inst` is an extractvalue/insertvalue instruction, whose
        // index array holds LLVMGetNumIndices entries.
        unsafe {
            let n = LLVMGetNumIndices(inst) as usize;
            let p = LLVMGetIndices(inst);
            if n == 0 || p.is_null() {
                return Vec::new();
            }
            std::slice::from_raw_parts(p, n).to_vec()
        }
    }
    /// Whether `v` is a constant (a global's address included).
    pub fn is_constant(&self, v: V) -> bool {
        // SAFETY: live value.
        unsafe { LLVMIsConstant(v) != 0 }
    }
    /// Whether `v` is the constant null (or all-zero) value.
    pub fn is_null_constant(&self, v: V) -> bool {
        // SAFETY: live value.
        unsafe { LLVMIsConstant(v) != 0 && LLVMIsNull(v) != 0 }
    }
    pub fn is_constant_global(&self, g: V) -> bool {
        // SAFETY: `g` is a global variable.
        unsafe { LLVMIsGlobalConstant(g) != 0 }
    }
    pub fn is_thread_local(&self, g: V) -> bool {
        // SAFETY: `g` is a global variable.
        unsafe { LLVMIsThreadLocal(g) != 0 }
    }
    pub fn set_visibility(&self, g: V, v: inkwell::llvm_sys::LLVMVisibility) {
        // SAFETY: `g` is a global value.
        unsafe { LLVMSetVisibility(g, v) }
    }
    pub fn set_visibility_of(&self, to: V, from: V) {
        // SAFETY: both are global values.
        unsafe { LLVMSetVisibility(to, LLVMGetVisibility(from)) }
    }
    pub fn functions(&self) -> Vec<V> {
        let mut out = Vec::new();
        // SAFETY: live module; iteration only reads the function list.
        unsafe {
            let mut f = LLVMGetFirstFunction(self.module);
            while !f.is_null() {
                out.push(f);
                f = LLVMGetNextFunction(f);
            }
        }
        out
    }
    pub fn globals(&self) -> Vec<V> {
        let mut out = Vec::new();
        // SAFETY: live module; iteration only reads the global list.
        unsafe {
            let mut g = LLVMGetFirstGlobal(self.module);
            while !g.is_null() {
                out.push(g);
                g = LLVMGetNextGlobal(g);
            }
        }
        out
    }
    pub fn aliases(&self) -> Vec<V> {
        let mut out = Vec::new();
        // SAFETY: live module; iteration only reads the alias list.
        unsafe {
            let mut a = LLVMGetFirstGlobalAlias(self.module);
            while !a.is_null() {
                out.push(a);
                a = LLVMGetNextGlobalAlias(a);
            }
        }
        out
    }
    pub fn aliasee(&self, a: V) -> V {
        // SAFETY: `a` is an alias.
        unsafe { LLVMAliasGetAliasee(a) }
    }
    pub fn params(&self, f: V) -> Vec<V> {
        // SAFETY: `f` is a function.
        unsafe {
            let n = LLVMCountParams(f);
            let mut v = vec![std::ptr::null_mut(); n as usize];
            LLVMGetParams(f, v.as_mut_ptr());
            v
        }
    }
    pub fn param(&self, f: V, i: u32) -> V {
        // SAFETY: `f` is a function with more than `i` parameters.
        unsafe { LLVMGetParam(f, i) }
    }
    pub fn blocks(&self, f: V) -> Vec<B> {
        let mut out = Vec::new();
        // SAFETY: `f` is a function; iteration only reads its block list.
        unsafe {
            let mut b = LLVMGetFirstBasicBlock(f);
            while !b.is_null() {
                out.push(b);
                b = LLVMGetNextBasicBlock(b);
            }
        }
        out
    }
    pub fn instructions(&self, b: B) -> Vec<V> {
        let mut out = Vec::new();
        // SAFETY: `b` is a block; iteration only reads its instructions.
        unsafe {
            let mut i = LLVMGetFirstInstruction(b);
            while !i.is_null() {
                out.push(i);
                i = LLVMGetNextInstruction(i);
            }
        }
        out
    }
    /// The instruction after `inst` in its block, if any.
    pub fn next_instruction(&self, inst: V) -> Option<V> {
        // SAFETY: `inst` is an instruction; this only reads its block's list.
        let n = unsafe { LLVMGetNextInstruction(inst) };
        (!n.is_null()).then_some(n)
    }
    pub fn terminator(&self, b: B) -> Option<V> {
        // SAFETY: `b` is a block.
        let t = unsafe { LLVMGetBasicBlockTerminator(b) };
        (!t.is_null()).then_some(t)
    }
    pub fn successors(&self, term: V) -> Vec<B> {
        // SAFETY: `term` is a terminator.
        unsafe {
            let n = LLVMGetNumSuccessors(term);
            (0..n).map(|i| LLVMGetSuccessor(term, i)).collect()
        }
    }
    /// The instructions using `v` (one entry per use).
    pub fn users(&self, v: V) -> Vec<V> {
        let mut out = Vec::new();
        // SAFETY: `v` is a value; iteration only reads its use list.
        unsafe {
            let mut u = LLVMGetFirstUse(v);
            while !u.is_null() {
                out.push(LLVMGetUser(u));
                u = LLVMGetNextUse(u);
            }
        }
        out
    }
    /// The block holding instruction `inst`.
    pub fn inst_block(&self, inst: V) -> B {
        // SAFETY: `inst` is an instruction.
        unsafe { LLVMGetInstructionParent(inst) }
    }
    pub fn append_block(&self, f: V, name: &str) -> B {
        let c = cstring(name);
        // SAFETY: `f` is a function of this context.
        unsafe { LLVMAppendBasicBlockInContext(self.ctx, f, c.as_ptr()) }
    }
    pub fn block_parent(&self, b: B) -> V {
        // SAFETY: `b` is a block.
        unsafe { LLVMGetBasicBlockParent(b) }
    }
    pub fn value_as_block(&self, v: V) -> B {
        // SAFETY: `v` is a basic-block value (callers check).
        unsafe { LLVMValueAsBasicBlock(v) }
    }
    pub fn block_of_blockaddress(&self, v: V) -> B {
        // SAFETY: `v` is a BlockAddress constant (callers check); operand 1
        // is its block.
        unsafe { LLVMValueAsBasicBlock(LLVMGetOperand(v, 1)) }
    }
    pub fn incoming(&self, phi: V) -> Vec<(V, B)> {
        // SAFETY: `phi` is a phi node.
        unsafe {
            let n = LLVMCountIncoming(phi);
            (0..n)
                .map(|i| (LLVMGetIncomingValue(phi, i), LLVMGetIncomingBlock(phi, i)))
                .collect()
        }
    }
    pub fn add_incoming(&self, phi: V, v: V, b: B) {
        let mut vals = [v];
        let mut blocks = [b];
        // SAFETY: `phi` is a phi of `v`'s type; `b` a block of its function.
        unsafe { LLVMAddIncoming(phi, vals.as_mut_ptr(), blocks.as_mut_ptr(), 1) }
    }
    pub fn insert_block(&self) -> B {
        // SAFETY: the builder is live.
        unsafe { LLVMGetInsertBlock(self.builder) }
    }
    pub fn position_at_end(&self, b: B) {
        // SAFETY: `b` is a block of this context.
        unsafe { LLVMPositionBuilderAtEnd(self.builder, b) }
    }
    pub fn subprogram(&self, f: V) -> M {
        // SAFETY: `f` is a function.
        unsafe { LLVMGetSubprogram(f) }
    }
    pub fn set_subprogram(&self, f: V, sp: M) {
        // SAFETY: `f` is a function, `sp` a DISubprogram of this context.
        unsafe { LLVMSetSubprogram(f, sp) }
    }
    pub fn debug_loc(&self, inst: V) -> M {
        // SAFETY: `inst` is an instruction.
        unsafe { LLVMInstructionGetDebugLoc(inst) }
    }
    /// A `line:0` location in `scope` (for code with no source position in
    /// a function that has debug info).
    pub fn line_loc(&self, line: u32, scope: M) -> M {
        // SAFETY: `scope` is a DISubprogram of this context.
        unsafe { LLVMDIBuilderCreateDebugLocation(self.ctx, line, 0, scope, std::ptr::null_mut()) }
    }
    pub fn set_debug_loc(&self, loc: M) {
        // SAFETY: `loc` is null or a DILocation of this context.
        unsafe { LLVMSetCurrentDebugLocation2(self.builder, loc) }
    }
    pub fn called_fn_type(&self, call: V) -> T {
        // SAFETY: `call` is a call or invoke.
        unsafe { LLVMGetCalledFunctionType(call) }
    }
    pub fn called_value(&self, call: V) -> V {
        // SAFETY: `call` is a call or invoke.
        unsafe { LLVMGetCalledValue(call) }
    }
    pub fn num_arg_operands(&self, call: V) -> u32 {
        // SAFETY: `call` is a call or invoke.
        unsafe { LLVMGetNumArgOperands(call) }
    }
    /// The type of a type attribute (`byval(T)`, `sret(T)`...) at call
    /// argument `i` (0-based), if present.
    pub fn call_type_attr(&self, call: V, i: u32, attr: &str) -> Option<T> {
        // SAFETY: `call` is a call or invoke; attribute kinds are looked up
        // by name; a present type attribute has a type value.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(attr.as_ptr().cast(), attr.len());
            let a = LLVMGetCallSiteEnumAttribute(call, i + 1, kind);
            if a.is_null() {
                None
            } else {
                let t = LLVMGetTypeAttributeValue(a);
                (!t.is_null()).then_some(t)
            }
        }
    }
    pub fn gep_source_type(&self, gep: V) -> T {
        // SAFETY: `gep` is a GEP instruction or constant expression.
        unsafe { LLVMGetGEPSourceElementType(gep) }
    }
    pub fn allocated_type(&self, alloca: V) -> T {
        // SAFETY: `alloca` is an alloca.
        unsafe { LLVMGetAllocatedType(alloca) }
    }
    pub fn ordering(&self, inst: V) -> LLVMAtomicOrdering {
        // SAFETY: `inst` is a load, store, fence or atomicrmw.
        unsafe { LLVMGetOrdering(inst) }
    }
    pub fn is_volatile(&self, inst: V) -> bool {
        // SAFETY: `inst` is a memory access instruction.
        unsafe { LLVMGetVolatile(inst) != 0 }
    }
    pub fn set_volatile(&self, inst: V, v: bool) {
        // SAFETY: `inst` is a memory access instruction.
        unsafe { LLVMSetVolatile(inst, v as i32) }
    }
    pub fn set_ordering(&self, inst: V, o: LLVMAtomicOrdering) {
        // SAFETY: `inst` is a load or store.
        unsafe { LLVMSetOrdering(inst, o) }
    }
    pub fn cmpxchg_weak(&self, inst: V) -> bool {
        // SAFETY: `inst` is a cmpxchg.
        unsafe { LLVMGetWeak(inst) != 0 }
    }
    pub fn function_type_of(&self, f: V) -> T {
        self.global_value_type(f)
    }
    pub fn delete_function(&self, f: V) {
        // SAFETY: `f` is a function without remaining uses.
        unsafe { LLVMDeleteFunction(f) }
    }
    pub fn delete_global(&self, g: V) {
        // SAFETY: `g` is a global variable without remaining uses.
        unsafe { LLVMDeleteGlobal(g) }
    }
    pub fn has_uses(&self, v: V) -> bool {
        // SAFETY: live value.
        unsafe { !LLVMGetFirstUse(v).is_null() }
    }
    pub fn replace_all_uses(&self, old: V, new: V) {
        // SAFETY: values of the same type.
        unsafe { LLVMReplaceAllUsesWith(old, new) }
    }

    // ---- instructions -------------------------------------------------------

    pub fn clone_inst(&self, inst: V) -> V {
        // SAFETY: `inst` is an instruction; the clone is unparented.
        unsafe { LLVMInstructionClone(inst) }
    }
    pub fn insert(&self, inst: V) {
        // SAFETY: `inst` is an unparented instruction of this context.
        unsafe { LLVMInsertIntoBuilder(self.builder, inst) }
    }
    /// An alloca at the start of `f`'s entry block, where `mem2reg` and
    /// code generation treat it as a static frame slot (an alloca in any
    /// other block is a dynamic stack allocation). The builder must be at
    /// the end of a block, and is put back there.
    pub fn entry_alloca(&self, f: V, ty: T) -> V {
        let back = self.insert_block();
        // SAFETY: `f` is a function with an entry block (the translation
        // made it before building anything); the builder is repositioned
        // at the end of the block it was at.
        unsafe {
            let entry = LLVMGetEntryBasicBlock(f);
            let first = LLVMGetFirstInstruction(entry);
            if first.is_null() {
                LLVMPositionBuilderAtEnd(self.builder, entry);
            } else {
                LLVMPositionBuilderBefore(self.builder, first);
            }
            let a = LLVMBuildAlloca(self.builder, ty, c"".as_ptr());
            LLVMPositionBuilderAtEnd(self.builder, back);
            a
        }
    }
    pub fn load(&self, ty: T, ptr: V, align: u32) -> V {
        // SAFETY: builder positioned; `ptr` is a pointer value.
        unsafe {
            let l = LLVMBuildLoad2(self.builder, ty, ptr, c"".as_ptr());
            LLVMSetAlignment(l, align);
            l
        }
    }
    pub fn load_relaxed(&self, ty: T, ptr: V, align: u32) -> V {
        let l = self.load(ty, ptr, align);
        self.set_ordering(l, LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic);
        l
    }
    pub fn store(&self, val: V, ptr: V, align: u32) -> V {
        // SAFETY: builder positioned; `ptr` is a pointer value.
        unsafe {
            let s = LLVMBuildStore(self.builder, val, ptr);
            LLVMSetAlignment(s, align);
            s
        }
    }
    pub fn gep(&self, ty: T, base: V, idx: &[V]) -> V {
        let mut i = idx.to_vec();
        // SAFETY: builder positioned; `ty` is the source element type.
        unsafe {
            LLVMBuildGEP2(
                self.builder,
                ty,
                base,
                i.as_mut_ptr(),
                i.len() as u32,
                c"".as_ptr(),
            )
        }
    }
    /// `base + off` bytes.
    pub fn gep_i8(&self, base: V, off: V) -> V {
        self.gep(self.i8(), base, &[off])
    }
    pub fn gep_i8c(&self, base: V, off: u64) -> V {
        if off == 0 {
            return base;
        }
        self.gep_i8(base, self.i64c(off))
    }
    /// A call of `f`; a direct call takes `f`'s calling convention (a call
    /// whose convention differs from its callee's is undefined behaviour).
    pub fn call(&self, fnty: T, f: V, args: &[V]) -> V {
        let mut a = args.to_vec();
        // SAFETY: builder positioned; args match `fnty`; the convention is
        // read from `f` only when it is a function.
        unsafe {
            let call = LLVMBuildCall2(
                self.builder,
                fnty,
                f,
                a.as_mut_ptr(),
                a.len() as u32,
                c"".as_ptr(),
            );
            if !LLVMIsAFunction(f).is_null() {
                LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f));
            }
            call
        }
    }
    /// Sets function `f`'s calling convention (LLVM's number).
    pub fn set_call_conv(&self, f: V, cc: u32) {
        // SAFETY: `f` is a function.
        unsafe { LLVMSetFunctionCallConv(f, cc) }
    }
    pub fn br(&self, b: B) -> V {
        // SAFETY: builder positioned.
        unsafe { LLVMBuildBr(self.builder, b) }
    }
    pub fn cond_br(&self, c: V, t: B, e: B) -> V {
        // SAFETY: builder positioned; `c` is an i1.
        unsafe { LLVMBuildCondBr(self.builder, c, t, e) }
    }
    pub fn switch(&self, v: V, default: B, cases: &[(V, B)]) -> V {
        // SAFETY: builder positioned; case values are constants of `v`'s type.
        unsafe {
            let s = LLVMBuildSwitch(self.builder, v, default, cases.len() as u32);
            for &(c, b) in cases {
                LLVMAddCase(s, c, b);
            }
            s
        }
    }
    /// `indirectbr addr, [dests]`.
    pub fn indirect_br(&self, addr: V, dests: &[B]) -> V {
        // SAFETY: builder positioned; `addr` is a pointer; the destinations
        // are blocks of the current function.
        unsafe {
            let br = LLVMBuildIndirectBr(self.builder, addr, dests.len() as u32);
            for &d in dests {
                LLVMAddDestination(br, d);
            }
            br
        }
    }
    /// The `blockaddress` constant of block `b` of function `f`.
    pub fn block_address(&self, f: V, b: B) -> V {
        // SAFETY: `b` is a block of function `f`.
        unsafe { LLVMBlockAddress(f, b) }
    }
    pub fn ret(&self, v: V) -> V {
        // SAFETY: builder positioned.
        unsafe { LLVMBuildRet(self.builder, v) }
    }
    pub fn ret_void(&self) -> V {
        // SAFETY: builder positioned.
        unsafe { LLVMBuildRetVoid(self.builder) }
    }
    pub fn unreachable(&self) -> V {
        // SAFETY: builder positioned.
        unsafe { LLVMBuildUnreachable(self.builder) }
    }
    pub fn phi(&self, ty: T) -> V {
        // SAFETY: builder positioned at the start of a block.
        unsafe { LLVMBuildPhi(self.builder, ty, c"".as_ptr()) }
    }
    pub fn select(&self, c: V, a: V, b: V) -> V {
        // SAFETY: builder positioned; `a` and `b` share a type.
        unsafe { LLVMBuildSelect(self.builder, c, a, b, c"".as_ptr()) }
    }
    pub fn extract_value(&self, agg: V, i: u32) -> V {
        // SAFETY: builder positioned; `agg` is an aggregate with field `i`.
        unsafe { LLVMBuildExtractValue(self.builder, agg, i, c"".as_ptr()) }
    }
    pub fn insert_value(&self, agg: V, v: V, i: u32) -> V {
        // SAFETY: builder positioned; `v` has field `i`'s type.
        unsafe { LLVMBuildInsertValue(self.builder, agg, v, i, c"".as_ptr()) }
    }
    pub fn extract_element(&self, vec: V, i: V) -> V {
        // SAFETY: builder positioned; `vec` is a vector.
        unsafe { LLVMBuildExtractElement(self.builder, vec, i, c"".as_ptr()) }
    }
    pub fn insert_element(&self, vec: V, v: V, i: V) -> V {
        // SAFETY: builder positioned; `v` has the element type.
        unsafe { LLVMBuildInsertElement(self.builder, vec, v, i, c"".as_ptr()) }
    }
    pub fn ptrtoint(&self, v: V, ty: T) -> V {
        // SAFETY: builder positioned; pointer (vector) to integer (vector).
        unsafe { LLVMBuildPtrToInt(self.builder, v, ty, c"".as_ptr()) }
    }
    pub fn inttoptr(&self, v: V, ty: T) -> V {
        // SAFETY: builder positioned; integer (vector) to pointer (vector).
        unsafe { LLVMBuildIntToPtr(self.builder, v, ty, c"".as_ptr()) }
    }
    pub fn lshr(&self, a: V, b: V) -> V {
        // SAFETY: builder positioned; same integer type.
        unsafe { LLVMBuildLShr(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn ashr(&self, a: V, b: V) -> V {
        // SAFETY: builder positioned; same integer type.
        unsafe { LLVMBuildAShr(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn bitcast(&self, v: V, ty: T) -> V {
        // SAFETY: builder positioned; `v` and `ty` have the same size.
        unsafe { LLVMBuildBitCast(self.builder, v, ty, c"".as_ptr()) }
    }
    /// A call of the LLVM intrinsic `name` (declared on first use) with
    /// function type `fnty`.
    pub fn intrinsic(&self, name: &str, fnty: T, args: &[V]) -> V {
        let f = self.runtime_fn(name, fnty);
        self.call(fnty, f, args)
    }
    pub fn int_cast(&self, v: V, ty: T) -> V {
        // SAFETY: builder positioned; integer to integer, zero-extending.
        unsafe { LLVMBuildIntCast2(self.builder, v, ty, 0, c"".as_ptr()) }
    }
    pub fn icmp(&self, p: LLVMIntPredicate, a: V, b: V) -> V {
        // SAFETY: builder positioned; operands of one integer/pointer type.
        unsafe { LLVMBuildICmp(self.builder, p, a, b, c"".as_ptr()) }
    }
    pub fn or(&self, a: V, b: V) -> V {
        // SAFETY: builder positioned; same integer type.
        unsafe { inkwell::llvm_sys::core::LLVMBuildOr(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn and(&self, a: V, b: V) -> V {
        // SAFETY: builder positioned; same integer type.
        unsafe { LLVMBuildAnd(self.builder, a, b, c"".as_ptr()) }
    }
    /// A load of an object header word (`upper` or `aux`). Plain, so the
    /// optimiser may merge and hoist repeated checks of one object, and in
    /// its own alias scope, which no access of the program's memory touches
    /// (headers lie outside every payload). A racing `free` may then go
    /// unnoticed for the rest of a loop: the memory stays valid (the
    /// collector keeps it while referenced), so nothing unsafe follows.
    pub fn load_header(&self, ptr: V) -> V {
        let l = self.load(self.i64(), ptr, 8);
        self.tag(l, "alias.scope");
        l
    }
    /// Loads one byte of an object header (a flag byte of the aux word).
    pub fn load_header_byte(&self, ptr: V) -> V {
        let l = self.load(self.i8(), ptr, 1);
        self.tag(l, "alias.scope");
        l
    }
    /// Marks a program access as not touching object headers.
    pub fn not_header(&self, inst: V) {
        self.tag(inst, "noalias");
    }
    fn tag(&self, inst: V, kind: &str) {
        // SAFETY: the context is live; metadata nodes are uniqued by
        // content, so the same scope list comes back on every call.
        unsafe {
            let dom_name = "gimso.header.domain";
            let scope_name = "gimso.header";
            let d = LLVMMDStringInContext2(self.ctx, dom_name.as_ptr().cast(), dom_name.len());
            let mut dops = [d];
            let domain = LLVMMDNodeInContext2(self.ctx, dops.as_mut_ptr(), 1);
            let sname =
                LLVMMDStringInContext2(self.ctx, scope_name.as_ptr().cast(), scope_name.len());
            let mut sops = [sname, domain];
            let scope = LLVMMDNodeInContext2(self.ctx, sops.as_mut_ptr(), 2);
            let mut lops = [scope];
            let list = LLVMMDNodeInContext2(self.ctx, lops.as_mut_ptr(), 1);
            let id = LLVMGetMDKindIDInContext(self.ctx, kind.as_ptr().cast(), kind.len() as u32);
            LLVMSetMetadata(inst, id, LLVMMetadataAsValue(self.ctx, list));
        }
    }
    /// A conditional branch whose true edge is rarely taken (a slow path
    /// that is not a failure): `!prof` branch weights 1 : 2000, so the
    /// code generator lays the slow block out of the hot path.
    pub fn cond_br_unlikely(&self, c: V, rare: B, usual: B) -> V {
        self.cond_br_weighted(c, rare, usual, 1, 2000)
    }
    /// A conditional branch whose true edge is the usual one.
    pub fn cond_br_likely(&self, c: V, usual: B, rare: B) -> V {
        self.cond_br_weighted(c, usual, rare, 2000, 1)
    }
    fn cond_br_weighted(&self, c: V, t: B, e: B, wt: u64, we: u64) -> V {
        let br = self.cond_br(c, t, e);
        // SAFETY: the context is live; `br` is the branch just built.
        unsafe {
            let name = "branch_weights";
            let tag = LLVMMDStringInContext2(self.ctx, name.as_ptr().cast(), name.len());
            let i32t = LLVMInt32TypeInContext(self.ctx);
            let w = |n: u64| LLVMValueAsMetadata(LLVMConstInt(i32t, n, 0));
            let mut ops = [tag, w(wt), w(we)];
            let node = LLVMMDNodeInContext2(self.ctx, ops.as_mut_ptr(), ops.len());
            let kind = "prof";
            let id = LLVMGetMDKindIDInContext(self.ctx, kind.as_ptr().cast(), kind.len() as u32);
            LLVMSetMetadata(br, id, LLVMMetadataAsValue(self.ctx, node));
        }
        br
    }
    /// Marks a null test's branch as one code generation may fold into
    /// the first memory access of its non-null successor (LLVM's implicit
    /// null checks): the access faults when the pointer is null and the
    /// runtime's fault handler resumes at the null successor.
    pub fn make_implicit(&self, br: V) {
        // SAFETY: the context is live; `br` is a branch instruction.
        unsafe {
            let node = LLVMMDNodeInContext2(self.ctx, std::ptr::null_mut(), 0);
            let kind = "make.implicit";
            let id = LLVMGetMDKindIDInContext(self.ctx, kind.as_ptr().cast(), kind.len() as u32);
            LLVMSetMetadata(br, id, LLVMMetadataAsValue(self.ctx, node));
        }
    }
    pub fn add_i64(&self, a: V, b: V) -> V {
        // SAFETY: builder positioned; same integer type.
        unsafe { LLVMBuildAdd(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn int_ty(&self, bits: u32) -> T {
        // SAFETY: the context is live (invariant).
        unsafe { LLVMIntTypeInContext(self.ctx, bits) }
    }
    pub fn i1_ty(&self) -> T {
        // SAFETY: the context is live (invariant).
        unsafe { LLVMInt1TypeInContext(self.ctx) }
    }
    pub fn sub(&self, a: V, b: V) -> V {
        // SAFETY: builder positioned; same integer type.
        unsafe { LLVMBuildSub(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn mul(&self, a: V, b: V) -> V {
        // SAFETY: builder positioned; same integer type.
        unsafe { LLVMBuildMul(self.builder, a, b, c"".as_ptr()) }
    }
    pub fn memset(&self, ptr: V, val: V, len: V, align: u32) -> V {
        // SAFETY: builder positioned; `ptr` a pointer, `val` an i8.
        unsafe { LLVMBuildMemSet(self.builder, ptr, val, len, align) }
    }
    pub fn value_kind(&self, v: V) -> inkwell::llvm_sys::LLVMValueKind {
        // SAFETY: live value.
        unsafe { LLVMGetValueKind(v) }
    }
    pub fn aggregate_element(&self, c: V, i: u32) -> V {
        // SAFETY: `c` is a constant aggregate (or zero/undef) with element `i`.
        unsafe { LLVMGetAggregateElement(c, i) }
    }
    /// The `byval(T)` type of parameter `i` of function `f`, if any.
    pub fn param_byval(&self, f: V, i: u32) -> Option<T> {
        // SAFETY: `f` is a function; a present byval attribute has a type.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(c"byval".as_ptr(), 5);
            let a = LLVMGetEnumAttributeAtIndex(f, i + 1, kind);
            if a.is_null() {
                None
            } else {
                let t = LLVMGetTypeAttributeValue(a);
                (!t.is_null()).then_some(t)
            }
        }
    }
    /// Copies the function attributes of `from` that stay true after the
    /// translation (target and code-generation settings) to `to`; promises
    /// about memory, returning or progress are dropped.
    pub fn copy_safe_fn_attrs(&self, from: V, to: V) {
        const KEEP: &[&str] = &[
            "noinline", "optnone", "cold", "hot", "minsize", "optsize", "uwtable", "nounwind",
        ];
        let idx = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        // SAFETY: both are functions of this context; attributes are only
        // read from `from` and added to `to`.
        unsafe {
            let n = LLVMGetAttributeCountAtIndex(from, idx);
            let mut attrs = vec![std::ptr::null_mut(); n as usize];
            LLVMGetAttributesAtIndex(from, idx, attrs.as_mut_ptr());
            for a in attrs {
                if LLVMIsStringAttribute(a) != 0 {
                    LLVMAddAttributeAtIndex(to, idx, a);
                    continue;
                }
                let kind = LLVMGetEnumAttributeKind(a);
                let keep = KEEP.iter().any(|name| {
                    LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len()) == kind
                });
                if keep {
                    LLVMAddAttributeAtIndex(to, idx, a);
                }
            }
        }
    }
    // ---- exception handling ---------------------------------------------------

    /// The personality of function `f`, if it has one.
    pub fn personality(&self, f: V) -> Option<V> {
        // SAFETY: `f` is a function.
        unsafe { (LLVMHasPersonalityFn(f) != 0).then(|| LLVMGetPersonalityFn(f)) }
    }
    /// The clauses of landingpad `lp`, and whether it has the cleanup flag.
    pub fn landingpad_clauses(&self, lp: V) -> (Vec<V>, bool) {
        // SAFETY: `lp` is a landingpad instruction with that many clauses.
        unsafe {
            let n = LLVMGetNumClauses(lp);
            let clauses = (0..n).map(|i| LLVMGetClause(lp, i)).collect();
            (clauses, LLVMIsCleanup(lp) != 0)
        }
    }
    pub fn set_constant_global(&self, g: V) {
        // SAFETY: `g` is a global variable.
        unsafe { LLVMSetGlobalConstant(g, 1) }
    }
    /// Whether function `f` or call `call` carries enum attribute `name` at
    /// function level.
    pub fn fn_has_attr(&self, f: V, name: &str) -> bool {
        let idx = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        // SAFETY: `f` is a function; the name is a valid attribute name.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
            !LLVMGetEnumAttributeAtIndex(f, idx, kind).is_null()
        }
    }
    pub fn call_has_attr(&self, call: V, name: &str) -> bool {
        let idx = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        // SAFETY: `call` is a call or invoke; the name is a valid attribute name.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
            !LLVMGetCallSiteEnumAttribute(call, idx, kind).is_null()
        }
    }

    /// Adds the enum attributes `names` to call `call` at function level.
    pub fn add_call_attrs(&self, call: V, names: &[&str]) {
        let idx = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        for name in names {
            // SAFETY: `call` is a call of this context; unknown names give
            // kind 0 and are skipped.
            unsafe {
                let kind = LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
                if kind == 0 {
                    continue;
                }
                let ctx = LLVMGetModuleContext(self.module);
                LLVMAddCallSiteAttribute(call, idx, LLVMCreateEnumAttribute(ctx, kind, 0));
            }
        }
    }
    pub fn set_name(&self, v: V, name: &str) {
        // SAFETY: live value; the name is copied.
        unsafe { LLVMSetValueName2(v, name.as_ptr().cast(), name.len()) }
    }

    /// Adds the enum attributes `names` (e.g. `noreturn`) to function `f`.
    pub fn add_fn_attrs(&self, f: V, names: &[&str]) {
        let idx = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
        for name in names {
            // SAFETY: `f` is a function of this context; the attribute is
            // created in the same context; unknown names give kind 0 and are
            // skipped.
            unsafe {
                let kind = LLVMGetEnumAttributeKindForName(name.as_ptr().cast(), name.len());
                if kind == 0 {
                    continue;
                }
                let ctx = LLVMGetModuleContext(self.module);
                LLVMAddAttributeAtIndex(f, idx, LLVMCreateEnumAttribute(ctx, kind, 0));
            }
        }
    }
    /// Retires an original alias (the C API cannot delete one): nameless,
    /// private, and aimed at `target` so it stays valid; unused, it is
    /// dropped at code generation.
    pub fn retire_alias(&self, a: V, target: V) {
        // SAFETY: `a` is an alias and `target` a pointer constant.
        unsafe {
            LLVMSetValueName2(a, c"".as_ptr(), 0);
            LLVMSetLinkage(a, LLVMLinkage::LLVMPrivateLinkage);
            LLVMAliasSetAliasee(a, target);
        }
    }
    pub fn clear_initializer(&self, g: V) {
        // SAFETY: `g` is a global variable; a null initializer makes it a
        // declaration.
        unsafe { LLVMSetInitializer(g, std::ptr::null_mut()) }
    }
    pub fn undef(&self, ty: T) -> V {
        // SAFETY: live type.
        unsafe { LLVMGetUndef(ty) }
    }
    pub fn builder_ref(&self) -> LLVMBuilderRef {
        self.builder
    }
    pub fn instructions_parent(&self, inst: V) -> B {
        // SAFETY: `inst` is an instruction in a block.
        unsafe { LLVMGetInstructionParent(inst) }
    }
}
