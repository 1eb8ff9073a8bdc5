//! Where pointers sit inside types, and the CC buffer layout of a call.

use crate::llvm::TypeKind;

use super::ll::{Ll, T};

/// Whether values of `ty` contain pointers (and so carry capabilities).
pub fn has_ptr<'m>(ty: T<'m>) -> bool {
    match ty.kind() {
        TypeKind::LLVMPointerTypeKind => true,
        TypeKind::LLVMStructTypeKind => ty.struct_fields().iter().any(|&f| has_ptr(f)),
        TypeKind::LLVMArrayTypeKind => has_ptr(ty.element_type()),
        TypeKind::LLVMVectorTypeKind | TypeKind::LLVMScalableVectorTypeKind => {
            ty.element_type().is_ptr()
        }
        _ => false,
    }
}

/// Whether `ty` is a 64-bit integer: the type clang's x86-64 calling
/// convention gives a union or small struct holding a pointer (QuickJS's
/// `JSValue`), so across calls it travels with a capability word.
pub fn is_word_int<'m>(ty: T<'m>) -> bool {
    ty.kind() == TypeKind::LLVMIntegerTypeKind && ty.int_width() == 64
}

/// Whether values of `ty` pass capability words across calls (CC buffers
/// and direct entries): they hold pointers or 64-bit integers (directly,
/// or as fields of structs and elements of arrays).
pub fn cc_carries<'m>(ty: T<'m>) -> bool {
    match ty.kind() {
        TypeKind::LLVMStructTypeKind => ty.struct_fields().iter().any(|&f| cc_carries(f)),
        TypeKind::LLVMArrayTypeKind => cc_carries(ty.element_type()),
        _ => has_ptr(ty) || is_word_int(ty),
    }
}

/// Whether `ty` is a struct or array that [`cc_carries`]: its values carry
/// a capability value of their own type through the translation (phis,
/// selects, `insertvalue`), the fields that are 64-bit integers holding
/// their capabilities as integers.
pub fn aggregate_carries<'m>(ty: T<'m>) -> bool {
    matches!(
        ty.kind(),
        TypeKind::LLVMStructTypeKind | TypeKind::LLVMArrayTypeKind
    ) && cc_carries(ty)
}

/// Whether an access of `ty` must be aligned (pointers and vectors; an
/// aggregate if any member must be), and to what.
pub fn required_align<'m>(ty: T<'m>, ir_align: u32) -> u64 {
    match ty.kind() {
        TypeKind::LLVMPointerTypeKind => 8,
        TypeKind::LLVMVectorTypeKind => {
            if ty.element_type().is_ptr() {
                8
            } else {
                u64::from(ir_align.max(1))
            }
        }
        TypeKind::LLVMStructTypeKind => ty
            .struct_fields()
            .iter()
            .map(|&f| required_align(f, 1))
            .max()
            .unwrap_or(1),
        TypeKind::LLVMArrayTypeKind => required_align(ty.element_type(), 1),
        _ => 1,
    }
}

/// The CC buffer placement of a list of value types.
pub struct CcLayout {
    pub offsets: Vec<u64>,
    pub bytes: u64,
}

pub fn cc_layout<'m>(ll: &Ll<'m>, types: &[T<'m>]) -> CcLayout {
    let mut end = 0;
    let mut offsets = Vec::with_capacity(types.len());
    for &t in types {
        let (size, align) = if t.is_sized() {
            (ll.size_of(t), ll.align_of(t))
        } else {
            (0, 8)
        };
        let (off, next) = gimso_abi::cc_place(end, size, align);
        offsets.push(off);
        end = next;
    }
    CcLayout {
        offsets,
        bytes: end,
    }
}

/// Bytes a return value of `ty` takes in the CC buffers.
pub fn ret_bytes<'m>(ll: &Ll<'m>, ty: T<'m>) -> u64 {
    if ty.kind() == TypeKind::LLVMVoidTypeKind || !ty.is_sized() {
        0
    } else {
        ll.size_of(ty).div_ceil(8) * 8
    }
}
