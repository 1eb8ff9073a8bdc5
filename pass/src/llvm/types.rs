//! [`Type`]: a type of a live module's context.

use std::marker::PhantomData;
use std::ptr::NonNull;

use inkwell::llvm_sys::LLVMType;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::LLVMTypeRef;

use super::{TypeKind, take_message};

/// A type (see the [module docs](super) for the invariant). Types are
/// uniqued per context, so equality is type equality.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Type<'m> {
    raw: NonNull<LLVMType>,
    _m: PhantomData<&'m ()>,
}

impl std::fmt::Debug for Type<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Type({})", self.print())
    }
}

impl<'m> Type<'m> {
    /// # Safety
    /// `raw` is null or a type of a context alive for `'m`.
    pub(super) unsafe fn from_raw(raw: LLVMTypeRef) -> Option<Type<'m>> {
        NonNull::new(raw).map(|raw| Type {
            raw,
            _m: PhantomData,
        })
    }
    pub(super) fn raw(self) -> LLVMTypeRef {
        self.raw.as_ptr()
    }
    /// The handle of an inkwell type.
    #[track_caller]
    pub fn of<T: inkwell::types::AsTypeRef + 'm>(t: T) -> Type<'m> {
        // SAFETY: inkwell only makes types of live contexts.
        unsafe { Type::from_raw(t.as_type_ref()) }.expect("inkwell type is null")
    }

    #[track_caller]
    pub fn kind(self) -> TypeKind {
        // SAFETY: live type.
        unsafe { LLVMGetTypeKind(self.raw()) }
    }
    #[track_caller]
    pub fn is_ptr(self) -> bool {
        self.kind() == TypeKind::LLVMPointerTypeKind
    }
    #[track_caller]
    pub fn is_int(self) -> bool {
        self.kind() == TypeKind::LLVMIntegerTypeKind
    }
    #[track_caller]
    pub fn is_struct(self) -> bool {
        self.kind() == TypeKind::LLVMStructTypeKind
    }
    #[track_caller]
    pub fn is_array(self) -> bool {
        self.kind() == TypeKind::LLVMArrayTypeKind
    }
    #[track_caller]
    pub fn is_function(self) -> bool {
        self.kind() == TypeKind::LLVMFunctionTypeKind
    }
    #[track_caller]
    pub fn is_void(self) -> bool {
        self.kind() == TypeKind::LLVMVoidTypeKind
    }
    #[track_caller]
    pub fn is_vector(self) -> bool {
        matches!(
            self.kind(),
            TypeKind::LLVMVectorTypeKind | TypeKind::LLVMScalableVectorTypeKind
        )
    }
    #[track_caller]
    pub fn is_sized(self) -> bool {
        // SAFETY: live type.
        unsafe { LLVMTypeIsSized(self.raw()) != 0 }
    }
    /// The textual form (`i32 (ptr, i64)`).
    #[track_caller]
    pub fn print(self) -> String {
        // SAFETY: live type; the message is copied and freed.
        unsafe { take_message(LLVMPrintTypeToString(self.raw())) }
    }

    /// The width of an integer type.
    ///
    /// # Panics
    /// If this is not an integer type.
    #[track_caller]
    pub fn int_width(self) -> u32 {
        assert!(self.is_int(), "int_width of {self:?}");
        // SAFETY: an integer type (checked).
        unsafe { LLVMGetIntTypeWidth(self.raw()) }
    }
    /// The address space of a pointer type.
    #[track_caller]
    pub fn address_space(self) -> u32 {
        assert!(self.is_ptr(), "address_space of {self:?}");
        // SAFETY: a pointer type (checked).
        unsafe { LLVMGetPointerAddressSpace(self.raw()) }
    }
    /// The element type of an array or vector type.
    #[track_caller]
    pub fn element_type(self) -> Type<'m> {
        assert!(
            self.is_array() || self.is_vector(),
            "element_type of {self:?}"
        );
        // SAFETY: a sequential type (checked).
        unsafe { Type::from_raw(LLVMGetElementType(self.raw())) }.expect("element type")
    }
    #[track_caller]
    pub fn array_len(self) -> u64 {
        assert!(self.is_array(), "array_len of {self:?}");
        // SAFETY: an array type (checked).
        unsafe { u64::from(LLVMGetArrayLength(self.raw())) }
    }
    #[track_caller]
    pub fn vector_len(self) -> u32 {
        assert!(self.is_vector(), "vector_len of {self:?}");
        // SAFETY: a vector type (checked).
        unsafe { LLVMGetVectorSize(self.raw()) }
    }
    /// Whether this is a struct type declared without a body.
    #[track_caller]
    pub fn is_opaque_struct(self) -> bool {
        // SAFETY: a struct type (checked first).
        self.is_struct() && unsafe { LLVMIsOpaqueStruct(self.raw()) != 0 }
    }
    /// The field types of a struct type (none for an opaque one).
    #[track_caller]
    pub fn struct_fields(self) -> Vec<Type<'m>> {
        assert!(self.is_struct(), "struct_fields of {self:?}");
        // SAFETY: a struct type (checked); the buffer has room for every field.
        unsafe {
            let n = LLVMCountStructElementTypes(self.raw()) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetStructElementTypes(self.raw(), v.as_mut_ptr());
            v.into_iter().filter_map(|t| Type::from_raw(t)).collect()
        }
    }
    /// The parameter types of a function type.
    #[track_caller]
    pub fn fn_params(self) -> Vec<Type<'m>> {
        assert!(self.is_function(), "fn_params of {self:?}");
        // SAFETY: a function type (checked); the buffer has room for every
        // parameter.
        unsafe {
            let n = LLVMCountParamTypes(self.raw()) as usize;
            let mut v = vec![std::ptr::null_mut(); n];
            LLVMGetParamTypes(self.raw(), v.as_mut_ptr());
            v.into_iter().filter_map(|t| Type::from_raw(t)).collect()
        }
    }
    #[track_caller]
    pub fn fn_ret(self) -> Type<'m> {
        assert!(self.is_function(), "fn_ret of {self:?}");
        // SAFETY: a function type (checked).
        unsafe { Type::from_raw(LLVMGetReturnType(self.raw())) }.expect("return type")
    }
    #[track_caller]
    pub fn is_vararg(self) -> bool {
        assert!(self.is_function(), "is_vararg of {self:?}");
        // SAFETY: a function type (checked).
        unsafe { LLVMIsFunctionVarArg(self.raw()) != 0 }
    }
}
