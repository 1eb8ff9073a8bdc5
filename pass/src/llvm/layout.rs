//! [`DataLayout`]: sizes, alignments and field offsets of a module's types.

use std::marker::PhantomData;

use inkwell::llvm_sys::core::LLVMGetDataLayoutStr;
use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::llvm_sys::target::*;

use super::{Type, TypeKind, Value};

/// A module's data layout (owned copy, freed on drop).
pub struct DataLayout<'m> {
    td: LLVMTargetDataRef,
    _m: PhantomData<&'m ()>,
}

impl Drop for DataLayout<'_> {
    fn drop(&mut self) {
        // SAFETY: created by `of_module` and owned here.
        unsafe { LLVMDisposeTargetData(self.td) }
    }
}

impl<'m> DataLayout<'m> {
    /// # Safety
    /// `module` is a module alive for `'m`.
    pub(super) unsafe fn of_module(module: LLVMModuleRef) -> DataLayout<'m> {
        // SAFETY: a live module (contract); the layout string is copied.
        let td = unsafe { LLVMCreateTargetData(LLVMGetDataLayoutStr(module)) };
        DataLayout {
            td,
            _m: PhantomData,
        }
    }
    /// The module's layout, for code that has no [`super::Ll`].
    #[track_caller]
    pub fn new<'ctx>(module: &'m inkwell::module::Module<'ctx>) -> DataLayout<'m> {
        // SAFETY: the module is borrowed for `'m`.
        unsafe { DataLayout::of_module(module.as_mut_ptr()) }
    }

    /// The bytes an object of `ty` takes, padding to its alignment included.
    #[track_caller]
    pub fn size_of(&self, ty: Type<'m>) -> u64 {
        assert!(ty.is_sized(), "size_of unsized {ty:?}");
        // SAFETY: a sized type (checked).
        unsafe { LLVMABISizeOfType(self.td, ty.raw()) }
    }
    /// The bytes a load or store of `ty` touches: [`DataLayout::size_of`]
    /// without the padding to the type's alignment (an `i24` is 3 bytes,
    /// an `x86_fp80` 10), which the access must not be checked for.
    #[track_caller]
    pub fn store_size_of(&self, ty: Type<'m>) -> u64 {
        assert!(ty.is_sized(), "store_size_of unsized {ty:?}");
        // SAFETY: a sized type (checked).
        unsafe { LLVMStoreSizeOfType(self.td, ty.raw()) }
    }
    #[track_caller]
    pub fn align_of(&self, ty: Type<'m>) -> u64 {
        assert!(ty.is_sized(), "align_of unsized {ty:?}");
        // SAFETY: a sized type (checked).
        u64::from(unsafe { LLVMABIAlignmentOfType(self.td, ty.raw()) })
    }
    /// The offset of field `i` of struct type `sty`.
    #[track_caller]
    pub fn field_offset(&self, sty: Type<'m>, i: u32) -> u64 {
        assert!(
            sty.is_struct() && !sty.is_opaque_struct() && (i as usize) < sty.struct_fields().len(),
            "field_offset {i} of {sty:?}"
        );
        // SAFETY: a struct type with field `i` (checked).
        unsafe { LLVMOffsetOfElement(self.td, sty.raw(), i) }
    }
    /// The byte offset of a GEP over `src` with constant indices `idx`
    /// (`None` if one is not a constant, a type is unsized, or the sum
    /// overflows).
    #[track_caller]
    pub fn const_gep_offset(&self, src: Type<'m>, idx: &[Value<'m>]) -> Option<i64> {
        let (first, rest) = idx.split_first()?;
        let scaled = |i: i64, ty: Type<'m>| {
            if !ty.is_sized() {
                return None;
            }
            i.checked_mul(i64::try_from(self.size_of(ty)).ok()?)
        };
        let mut off = scaled(first.const_int_svalue()?, src)?;
        let mut ty = src;
        for &i in rest {
            let i = i.const_int_svalue()?;
            match ty.kind() {
                TypeKind::LLVMStructTypeKind => {
                    let f = u32::try_from(i).ok()?;
                    let field = *ty.struct_fields().get(f as usize)?;
                    off = off.checked_add(i64::try_from(self.field_offset(ty, f)).ok()?)?;
                    ty = field;
                }
                TypeKind::LLVMArrayTypeKind | TypeKind::LLVMVectorTypeKind => {
                    ty = ty.element_type();
                    off = off.checked_add(scaled(i, ty)?)?;
                }
                _ => return None,
            }
        }
        Some(off)
    }
}
