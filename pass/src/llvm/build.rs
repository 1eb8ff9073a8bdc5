//! [`Ll`]: one module's context, instruction builder and data layout, with
//! everything that makes new IR: types, constants, globals, functions,
//! blocks and instructions.

use std::marker::PhantomData;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::LLVMDIBuilderCreateDebugLocation;
use inkwell::llvm_sys::prelude::{
    LLVMBuilderRef, LLVMContextRef, LLVMModuleRef, LLVMTypeRef, LLVMValueRef,
};

use super::{
    Block, DataLayout, Func, IntPredicate, Linkage, Meta, Opcode, RealPredicate, Type, Value,
    cstring,
};

/// Builder, context and data layout of one module, borrowed for `'m`.
pub struct Ll<'m> {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    builder: LLVMBuilderRef,
    layout: DataLayout<'m>,
    _m: PhantomData<&'m ()>,
}

impl Drop for Ll<'_> {
    fn drop(&mut self) {
        // SAFETY: the builder was created by `Ll::new` and is owned here.
        unsafe { LLVMDisposeBuilder(self.builder) }
    }
}

/// The handle of a value LLVM just made or returned (never null).
///
/// # Safety
/// `raw` is a value of a module alive for `'m`.
pub(super) unsafe fn made<'m>(raw: LLVMValueRef) -> Value<'m> {
    // SAFETY: contract.
    unsafe { Value::from_raw(raw) }.expect("LLVM returned no value")
}

pub(super) fn raws<'m>(vals: &[Value<'m>]) -> Vec<LLVMValueRef> {
    vals.iter().map(|v| v.raw()).collect()
}

impl<'m> Ll<'m> {
    #[track_caller]
    pub fn new<'ctx>(module: &'m inkwell::module::Module<'ctx>) -> Ll<'m> {
        let raw = module.as_mut_ptr();
        // SAFETY: the module is borrowed for `'m`, so it and its context
        // outlive every handle made here.
        unsafe {
            let ctx = LLVMGetModuleContext(raw);
            Ll {
                ctx,
                module: raw,
                builder: LLVMCreateBuilderInContext(ctx),
                layout: DataLayout::of_module(raw),
                _m: PhantomData,
            }
        }
    }

    /// The module's data layout.
    #[track_caller]
    pub fn layout(&self) -> &DataLayout<'m> {
        &self.layout
    }
    pub(super) fn builder(&self) -> LLVMBuilderRef {
        self.builder
    }
    #[track_caller]
    pub fn size_of(&self, ty: Type<'m>) -> u64 {
        self.layout.size_of(ty)
    }
    #[track_caller]
    pub fn store_size_of(&self, ty: Type<'m>) -> u64 {
        self.layout.store_size_of(ty)
    }
    #[track_caller]
    pub fn align_of(&self, ty: Type<'m>) -> u64 {
        self.layout.align_of(ty)
    }
    #[track_caller]
    pub fn field_offset(&self, sty: Type<'m>, i: u32) -> u64 {
        self.layout.field_offset(sty, i)
    }
    #[track_caller]
    pub fn const_gep_offset(&self, src: Type<'m>, idx: &[Value<'m>]) -> Option<i64> {
        self.layout.const_gep_offset(src, idx)
    }

    // ---- types --------------------------------------------------------------

    fn ty(&self, raw: inkwell::llvm_sys::prelude::LLVMTypeRef) -> Type<'m> {
        // SAFETY: a type LLVM just made in this module's context.
        unsafe { Type::from_raw(raw) }.expect("LLVM returned no type")
    }
    #[track_caller]
    pub fn i8(&self) -> Type<'m> {
        // SAFETY: a live context.
        self.ty(unsafe { LLVMInt8TypeInContext(self.ctx) })
    }
    #[track_caller]
    pub fn i32(&self) -> Type<'m> {
        // SAFETY: a live context.
        self.ty(unsafe { LLVMInt32TypeInContext(self.ctx) })
    }
    #[track_caller]
    pub fn i64(&self) -> Type<'m> {
        // SAFETY: a live context.
        self.ty(unsafe { LLVMInt64TypeInContext(self.ctx) })
    }
    #[track_caller]
    pub fn i1_ty(&self) -> Type<'m> {
        // SAFETY: a live context.
        self.ty(unsafe { LLVMInt1TypeInContext(self.ctx) })
    }
    #[track_caller]
    pub fn int_ty(&self, bits: u32) -> Type<'m> {
        // SAFETY: a live context.
        self.ty(unsafe { LLVMIntTypeInContext(self.ctx, bits) })
    }
    #[track_caller]
    pub fn ptr(&self) -> Type<'m> {
        // SAFETY: a live context.
        self.ty(unsafe { LLVMPointerTypeInContext(self.ctx, 0) })
    }
    #[track_caller]
    pub fn void(&self) -> Type<'m> {
        // SAFETY: a live context.
        self.ty(unsafe { LLVMVoidTypeInContext(self.ctx) })
    }
    fn struct_of(&self, fields: &[Type<'m>], packed: bool) -> Type<'m> {
        let mut f: Vec<_> = fields.iter().map(|t| t.raw()).collect();
        // SAFETY: field types of this context.
        self.ty(unsafe {
            LLVMStructTypeInContext(self.ctx, f.as_mut_ptr(), f.len() as u32, packed as i32)
        })
    }
    #[track_caller]
    pub fn struct_ty(&self, fields: &[Type<'m>]) -> Type<'m> {
        self.struct_of(fields, false)
    }
    /// A packed struct: fields at consecutive offsets, no padding.
    #[track_caller]
    pub fn struct_ty_packed(&self, fields: &[Type<'m>]) -> Type<'m> {
        self.struct_of(fields, true)
    }
    #[track_caller]
    pub fn array_ty(&self, elem: Type<'m>, n: u64) -> Type<'m> {
        let n = u32::try_from(n).expect("array type too long");
        // SAFETY: a live element type.
        self.ty(unsafe { LLVMArrayType(elem.raw(), n) })
    }
    #[track_caller]
    pub fn fn_ty(&self, ret: Type<'m>, params: &[Type<'m>], vararg: bool) -> Type<'m> {
        let mut p: Vec<_> = params.iter().map(|t| t.raw()).collect();
        // SAFETY: types of this context.
        self.ty(unsafe {
            LLVMFunctionType(ret.raw(), p.as_mut_ptr(), p.len() as u32, vararg as i32)
        })
    }

    // ---- constants ----------------------------------------------------------

    #[track_caller]
    pub fn const_int(&self, ty: Type<'m>, v: u64) -> Value<'m> {
        assert!(ty.is_int(), "const_int of {ty:?}");
        // SAFETY: an integer type (checked).
        unsafe { made(LLVMConstInt(ty.raw(), v, 0)) }
    }
    #[track_caller]
    pub fn i64c(&self, v: u64) -> Value<'m> {
        self.const_int(self.i64(), v)
    }
    #[track_caller]
    pub fn i32c(&self, v: u64) -> Value<'m> {
        self.const_int(self.i32(), v)
    }
    /// The all-zero constant of `ty`.
    #[track_caller]
    pub fn zero(&self, ty: Type<'m>) -> Value<'m> {
        // SAFETY: a live type; LLVM makes null of any first-class type.
        unsafe { made(LLVMConstNull(ty.raw())) }
    }
    #[track_caller]
    pub fn null_ptr(&self) -> Value<'m> {
        self.zero(self.ptr())
    }
    #[track_caller]
    pub fn undef(&self, ty: Type<'m>) -> Value<'m> {
        // SAFETY: a live type.
        unsafe { made(LLVMGetUndef(ty.raw())) }
    }
    #[track_caller]
    pub fn poison(&self, ty: Type<'m>) -> Value<'m> {
        // SAFETY: a live type.
        unsafe { made(LLVMGetPoison(ty.raw())) }
    }
    fn const_struct_of(&self, vals: &[Value<'m>], packed: bool) -> Value<'m> {
        let mut v = raws(vals);
        // SAFETY: constants of this context.
        unsafe {
            made(LLVMConstStructInContext(
                self.ctx,
                v.as_mut_ptr(),
                v.len() as u32,
                packed as i32,
            ))
        }
    }
    #[track_caller]
    pub fn const_struct(&self, vals: &[Value<'m>]) -> Value<'m> {
        self.const_struct_of(vals, false)
    }
    /// A constant of a packed struct type ([`Ll::struct_ty_packed`]).
    #[track_caller]
    pub fn const_struct_packed(&self, vals: &[Value<'m>]) -> Value<'m> {
        self.const_struct_of(vals, true)
    }
    #[track_caller]
    pub fn const_named_struct(&self, ty: Type<'m>, vals: &[Value<'m>]) -> Value<'m> {
        let mut v = raws(vals);
        // SAFETY: constants matching `ty`'s fields.
        unsafe {
            made(LLVMConstNamedStruct(
                ty.raw(),
                v.as_mut_ptr(),
                v.len() as u32,
            ))
        }
    }
    #[track_caller]
    pub fn const_array(&self, elem: Type<'m>, vals: &[Value<'m>]) -> Value<'m> {
        let mut v = raws(vals);
        // SAFETY: constants of type `elem`.
        unsafe { made(LLVMConstArray(elem.raw(), v.as_mut_ptr(), v.len() as u32)) }
    }
    #[track_caller]
    pub fn const_vector(&self, vals: &[Value<'m>]) -> Value<'m> {
        let mut v = raws(vals);
        // SAFETY: scalar constants of one type.
        unsafe { made(LLVMConstVector(v.as_mut_ptr(), v.len() as u32)) }
    }
    /// `getelementptr i8, ptr base, i64 off` as a constant.
    #[track_caller]
    pub fn const_gep_i8(&self, base: Value<'m>, off: u64) -> Value<'m> {
        self.const_gep(self.i8(), base, &[self.i64c(off)])
    }
    /// `base + off` as a pointer constant, or null when `base` is null (a
    /// weak symbol left undefined at link time).
    #[track_caller]
    pub fn const_gep_i8_or_null(&self, base: Value<'m>, off: u64) -> Value<'m> {
        let null = self.null_ptr();
        // SAFETY: both are pointer constants; LLVM 16 still folds `icmp`
        // and `select` constant expressions.
        unsafe {
            let is_null = LLVMConstICmp(IntPredicate::LLVMIntEQ, base.raw(), null.raw());
            made(LLVMConstSelect(
                is_null,
                null.raw(),
                self.const_gep_i8(base, off).raw(),
            ))
        }
    }
    #[track_caller]
    pub fn const_gep(&self, ty: Type<'m>, base: Value<'m>, idx: &[Value<'m>]) -> Value<'m> {
        let mut i = raws(idx);
        // SAFETY: `ty` is the source element type and `idx` its indices.
        unsafe {
            made(LLVMConstGEP2(
                ty.raw(),
                base.raw(),
                i.as_mut_ptr(),
                i.len() as u32,
            ))
        }
    }
    #[track_caller]
    pub fn const_ptrtoint(&self, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        // SAFETY: pointer constant to integer type.
        unsafe { made(LLVMConstPtrToInt(v.raw(), ty.raw())) }
    }
    #[track_caller]
    pub fn const_inttoptr(&self, v: Value<'m>, ty: Type<'m>) -> Value<'m> {
        // SAFETY: integer constant to pointer type.
        unsafe { made(LLVMConstIntToPtr(v.raw(), ty.raw())) }
    }
    /// The constant expression `a op b` of an integer binary operator
    /// (`None` for another opcode).
    #[track_caller]
    pub fn const_binop(&self, op: Opcode, a: Value<'m>, b: Value<'m>) -> Option<Value<'m>> {
        let f: unsafe extern "C" fn(LLVMValueRef, LLVMValueRef) -> LLVMValueRef = match op {
            Opcode::LLVMAdd => LLVMConstAdd,
            Opcode::LLVMSub => LLVMConstSub,
            Opcode::LLVMMul => LLVMConstMul,
            Opcode::LLVMXor => LLVMConstXor,
            Opcode::LLVMShl => LLVMConstShl,
            Opcode::LLVMAnd => LLVMConstAnd,
            Opcode::LLVMOr => LLVMConstOr,
            Opcode::LLVMLShr => LLVMConstLShr,
            Opcode::LLVMAShr => LLVMConstAShr,
            _ => return None,
        };
        assert!(
            a.is_constant() && b.is_constant(),
            "const_binop of non-constants"
        );
        // SAFETY: two constants (checked); LLVM asserts their types agree.
        Some(unsafe { made(f(a.raw(), b.raw())) })
    }
    /// The constant expression `v` cast by `op` to `ty` (`None` for an
    /// opcode that is not one of the integer casts kept as expressions).
    #[track_caller]
    pub fn const_cast(&self, op: Opcode, v: Value<'m>, ty: Type<'m>) -> Option<Value<'m>> {
        let f: unsafe extern "C" fn(LLVMValueRef, LLVMTypeRef) -> LLVMValueRef = match op {
            Opcode::LLVMTrunc => LLVMConstTrunc,
            Opcode::LLVMZExt => LLVMConstZExt,
            Opcode::LLVMSExt => LLVMConstSExt,
            Opcode::LLVMSIToFP => LLVMConstSIToFP,
            Opcode::LLVMUIToFP => LLVMConstUIToFP,
            Opcode::LLVMPtrToInt => LLVMConstPtrToInt,
            Opcode::LLVMIntToPtr => LLVMConstIntToPtr,
            _ => return None,
        };
        assert!(v.is_constant(), "const_cast of a non-constant");
        // SAFETY: a constant (checked); LLVM asserts the cast is valid.
        Some(unsafe { made(f(v.raw(), ty.raw())) })
    }
    #[track_caller]
    pub fn const_icmp(&self, p: IntPredicate, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        assert!(
            a.is_constant() && b.is_constant(),
            "const_icmp of non-constants"
        );
        // SAFETY: two constants (checked).
        unsafe { made(LLVMConstICmp(p, a.raw(), b.raw())) }
    }
    #[track_caller]
    pub fn const_fcmp(&self, p: RealPredicate, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        assert!(
            a.is_constant() && b.is_constant(),
            "const_fcmp of non-constants"
        );
        // SAFETY: two constants (checked).
        unsafe { made(LLVMConstFCmp(p, a.raw(), b.raw())) }
    }
    /// The constant expression `select c, a, b`.
    #[track_caller]
    pub fn const_select(&self, c: Value<'m>, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        assert!(
            c.is_constant() && a.is_constant() && b.is_constant(),
            "const_select of non-constants"
        );
        // SAFETY: three constants (checked); LLVM 16 still folds `select`
        // constant expressions, and asserts the types.
        unsafe { made(LLVMConstSelect(c.raw(), a.raw(), b.raw())) }
    }
    /// The `blockaddress` constant of block `b` of function `f`.
    #[track_caller]
    pub fn block_address(&self, f: impl Into<Value<'m>>, b: Block<'m>) -> Value<'m> {
        let f: Value<'m> = f.into();
        // SAFETY: `b` is a block; LLVM asserts it belongs to `f`.
        unsafe { made(LLVMBlockAddress(f.raw(), b.raw())) }
    }

    // ---- metadata -----------------------------------------------------------

    #[track_caller]
    pub fn md_kind(&self, name: &str) -> u32 {
        // SAFETY: a live context; the name is read for its length.
        unsafe { LLVMGetMDKindIDInContext(self.ctx, name.as_ptr().cast(), name.len() as u32) }
    }
    #[track_caller]
    pub fn md_string(&self, s: &str) -> Meta<'m> {
        // SAFETY: a live context; the string is copied.
        unsafe { Meta::from_raw(LLVMMDStringInContext2(self.ctx, s.as_ptr().cast(), s.len())) }
            .expect("MDString")
    }
    #[track_caller]
    pub fn md_node(&self, ops: &[Meta<'m>]) -> Meta<'m> {
        let mut o: Vec<_> = ops.iter().map(|m| m.raw()).collect();
        // SAFETY: metadata of this context.
        unsafe { Meta::from_raw(LLVMMDNodeInContext2(self.ctx, o.as_mut_ptr(), o.len())) }
            .expect("MDNode")
    }
    /// Constant `v` as metadata (`i32 7` in a `!prof` node).
    #[track_caller]
    pub fn value_md(&self, v: Value<'m>) -> Meta<'m> {
        // SAFETY: a live value.
        unsafe { Meta::from_raw(LLVMValueAsMetadata(v.raw())) }.expect("value metadata")
    }
    /// Metadata as a value, to attach to an instruction.
    #[track_caller]
    pub fn md_value(&self, m: Meta<'m>) -> Value<'m> {
        // SAFETY: metadata of this context.
        unsafe { made(LLVMMetadataAsValue(self.ctx, m.raw())) }
    }
    /// Attaches node `m` as metadata `kind` of `inst`.
    #[track_caller]
    pub fn attach(&self, inst: Value<'m>, kind: &str, m: Meta<'m>) {
        inst.set_metadata(self.md_kind(kind), Some(self.md_value(m)));
    }
    /// A `line:0` location in `scope` (for code with no source position in
    /// a function that has debug info).
    #[track_caller]
    pub fn line_loc(&self, line: u32, scope: Meta<'m>) -> Meta<'m> {
        // SAFETY: `scope` is a scope of this context.
        unsafe {
            Meta::from_raw(LLVMDIBuilderCreateDebugLocation(
                self.ctx,
                line,
                0,
                scope.raw(),
                std::ptr::null_mut(),
            ))
        }
        .expect("DILocation")
    }

    // ---- module -------------------------------------------------------------

    fn list(
        first: LLVMValueRef,
        next: unsafe extern "C" fn(LLVMValueRef) -> LLVMValueRef,
    ) -> Vec<Value<'m>> {
        // SAFETY: `first` heads one of a live module's lists and `next`
        // walks it; null ends it.
        std::iter::successors(unsafe { Value::from_raw(first) }, |v| unsafe {
            Value::from_raw(next(v.raw()))
        })
        .collect()
    }
    /// The module's functions (a snapshot).
    #[track_caller]
    pub fn functions(&self) -> Vec<Func<'m>> {
        // SAFETY: a live module.
        Self::list(
            unsafe { LLVMGetFirstFunction(self.module) },
            LLVMGetNextFunction,
        )
        .into_iter()
        .filter_map(Value::as_func)
        .collect()
    }
    #[track_caller]
    pub fn globals(&self) -> Vec<Value<'m>> {
        // SAFETY: a live module.
        Self::list(
            unsafe { LLVMGetFirstGlobal(self.module) },
            LLVMGetNextGlobal,
        )
    }
    #[track_caller]
    pub fn aliases(&self) -> Vec<Value<'m>> {
        // SAFETY: a live module.
        Self::list(
            unsafe { LLVMGetFirstGlobalAlias(self.module) },
            LLVMGetNextGlobalAlias,
        )
    }
    #[track_caller]
    pub fn ifuncs(&self) -> Vec<Value<'m>> {
        // SAFETY: a live module.
        Self::list(
            unsafe { LLVMGetFirstGlobalIFunc(self.module) },
            LLVMGetNextGlobalIFunc,
        )
    }
    /// The module's top-level inline asm.
    #[track_caller]
    pub fn module_asm(&self) -> String {
        let mut len = 0usize;
        // SAFETY: a live module; the text is LLVM's, `len` bytes, copied.
        unsafe {
            let p = LLVMGetModuleInlineAsm(self.module, &mut len);
            if p.is_null() {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len)).into_owned()
        }
    }
    #[track_caller]
    pub fn get_function(&self, name: &str) -> Option<Func<'m>> {
        let c = cstring(name);
        // SAFETY: a live module; the name is copied.
        unsafe { Value::from_raw(LLVMGetNamedFunction(self.module, c.as_ptr())) }
            .and_then(Value::as_func)
    }
    #[track_caller]
    pub fn get_global(&self, name: &str) -> Option<Value<'m>> {
        let c = cstring(name);
        // SAFETY: a live module; the name is copied.
        unsafe { Value::from_raw(LLVMGetNamedGlobal(self.module, c.as_ptr())) }
    }
    #[track_caller]
    pub fn add_function(&self, name: &str, fnty: Type<'m>) -> Func<'m> {
        assert!(fnty.is_function(), "add_function of {fnty:?}");
        let c = cstring(name);
        // SAFETY: a live module; a function type (checked); name copied.
        unsafe { made(LLVMAddFunction(self.module, c.as_ptr(), fnty.raw())) }
            .as_func()
            .expect("function")
    }
    /// The declaration of function `name`, added on first use.
    #[track_caller]
    pub fn runtime_fn(&self, name: &str, fnty: Type<'m>) -> Func<'m> {
        self.get_function(name)
            .unwrap_or_else(|| self.add_function(name, fnty))
    }
    #[track_caller]
    pub fn add_global(&self, ty: Type<'m>, name: &str) -> Value<'m> {
        let c = cstring(name);
        // SAFETY: a live module; name copied.
        unsafe { made(LLVMAddGlobal(self.module, ty.raw(), c.as_ptr())) }
    }
    #[track_caller]
    pub fn add_alias(&self, ty: Type<'m>, aliasee: Value<'m>, name: &str) -> Value<'m> {
        let c = cstring(name);
        // SAFETY: a live module; `aliasee` is a pointer constant.
        unsafe {
            made(LLVMAddAlias2(
                self.module,
                ty.raw(),
                0,
                aliasee.raw(),
                c.as_ptr(),
            ))
        }
    }
    /// Retires an alias (the C API cannot delete one): nameless, private,
    /// and aimed at `target` so it stays valid; unused, it is dropped at
    /// code generation.
    #[track_caller]
    pub fn retire_alias(&self, a: Value<'m>, target: Value<'m>) {
        a.set_name("");
        a.set_linkage(Linkage::LLVMPrivateLinkage);
        a.set_aliasee(target);
    }

    // ---- blocks and the insertion point -------------------------------------

    #[track_caller]
    pub fn append_block(&self, f: impl Into<Value<'m>>, name: &str) -> Block<'m> {
        let f: Value<'m> = f.into();
        assert!(f.is_function(), "append_block to a non-function");
        let c = cstring(name);
        // SAFETY: a function of this context (checked).
        unsafe { Block::from_raw(LLVMAppendBasicBlockInContext(self.ctx, f.raw(), c.as_ptr())) }
            .expect("block")
    }
    /// A new block placed before `before` in its function.
    #[track_caller]
    pub fn insert_block_before(&self, before: Block<'m>, name: &str) -> Block<'m> {
        let c = cstring(name);
        // SAFETY: a live block of this context.
        unsafe {
            Block::from_raw(LLVMInsertBasicBlockInContext(
                self.ctx,
                before.raw(),
                c.as_ptr(),
            ))
        }
        .expect("block")
    }
    /// Moves an unparented block to the end of function `f`.
    #[track_caller]
    pub fn append_existing_block(&self, f: impl Into<Value<'m>>, b: Block<'m>) {
        let f: Value<'m> = f.into();
        assert!(f.is_function(), "append_existing_block to a non-function");
        // SAFETY: a function (checked) and a block of its context.
        unsafe { LLVMAppendExistingBasicBlock(f.raw(), b.raw()) }
    }
    /// The block the builder is in (`None` before it is positioned).
    #[track_caller]
    pub fn insert_block(&self) -> Option<Block<'m>> {
        // SAFETY: a live builder.
        unsafe { Block::from_raw(LLVMGetInsertBlock(self.builder)) }
    }
    /// The block the builder is in.
    ///
    /// # Panics
    /// If the builder has not been positioned.
    #[track_caller]
    pub fn current_block(&self) -> Block<'m> {
        self.insert_block().expect("builder not positioned")
    }
    #[track_caller]
    pub fn position_at_end(&self, b: Block<'m>) {
        // SAFETY: a block of this context.
        unsafe { LLVMPositionBuilderAtEnd(self.builder, b.raw()) }
    }
    #[track_caller]
    pub fn position_before(&self, inst: Value<'m>) {
        assert!(inst.is_instruction(), "position_before a non-instruction");
        // SAFETY: an instruction of this context (checked).
        unsafe { LLVMPositionBuilderBefore(self.builder, inst.raw()) }
    }
    /// Positions before the first instruction of `b` (at its end if empty).
    #[track_caller]
    pub fn position_at_start(&self, b: Block<'m>) {
        match b.first_instruction() {
            Some(i) => self.position_before(i),
            None => self.position_at_end(b),
        }
    }
    /// The debug location given to what is built next (`None`: none).
    #[track_caller]
    pub fn set_debug_loc(&self, loc: Option<Meta<'m>>) {
        // SAFETY: `loc` is null or a DILocation of this context.
        unsafe {
            LLVMSetCurrentDebugLocation2(self.builder, loc.map_or(std::ptr::null_mut(), Meta::raw))
        }
    }
    /// The debug location given to what is built next.
    #[track_caller]
    pub fn debug_loc_now(&self) -> Option<Meta<'m>> {
        // SAFETY: a live builder.
        unsafe { Meta::from_raw(LLVMGetCurrentDebugLocation2(self.builder)) }
    }
    /// Inserts an unparented instruction at the insertion point.
    #[track_caller]
    pub fn insert(&self, inst: Value<'m>) {
        assert!(
            inst.is_instruction() && inst.parent_block().is_none(),
            "insert of a parented instruction"
        );
        // SAFETY: an unparented instruction (checked).
        unsafe { LLVMInsertIntoBuilder(self.builder, inst.raw()) }
    }

    // ---- inline asm ---------------------------------------------------------

    /// An inline asm of function type `fnty` in AT&T syntax that does not
    /// unwind and keeps the stack as it finds it; `side_effects` marks it
    /// `sideeffect`, so the optimiser neither deletes nor merges its calls.
    #[track_caller]
    pub fn inline_asm(
        &self,
        fnty: Type<'m>,
        template: &str,
        constraints: &str,
        side_effects: bool,
    ) -> Value<'m> {
        assert!(fnty.is_function(), "inline_asm of {fnty:?}");
        // SAFETY: a function type (checked); both strings are read for
        // their lengths only and copied.
        unsafe {
            made(LLVMGetInlineAsm(
                fnty.raw(),
                template.as_ptr().cast_mut().cast(),
                template.len(),
                constraints.as_ptr().cast_mut().cast(),
                constraints.len(),
                side_effects as i32,
                0,
                inkwell::llvm_sys::LLVMInlineAsmDialect::LLVMInlineAsmDialectATT,
                0,
            ))
        }
    }
    /// The constant `[N x i8]` holding `bytes` and a terminating NUL.
    #[track_caller]
    pub fn const_cstring(&self, bytes: &[u8]) -> Value<'m> {
        let len = u32::try_from(bytes.len()).expect("string constant too long");
        // SAFETY: a live context; the bytes are read for `len` and copied.
        unsafe {
            made(LLVMConstStringInContext(
                self.ctx,
                bytes.as_ptr().cast(),
                len,
                0,
            ))
        }
    }
}
