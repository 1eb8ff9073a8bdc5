//! Where pointers sit inside types, and the CC buffer layout of a call.

use inkwell::llvm_sys::LLVMTypeKind;

use super::ll::{Ll, T};

/// Whether values of `ty` contain pointers (and so carry capabilities).
pub fn has_ptr(ll: &Ll, ty: T) -> bool {
    match ll.kind(ty) {
        LLVMTypeKind::LLVMPointerTypeKind => true,
        LLVMTypeKind::LLVMStructTypeKind => ll.struct_fields(ty).iter().any(|&f| has_ptr(ll, f)),
        LLVMTypeKind::LLVMArrayTypeKind => has_ptr(ll, ll.elem_ty(ty)),
        LLVMTypeKind::LLVMVectorTypeKind | LLVMTypeKind::LLVMScalableVectorTypeKind => {
            ll.is_ptr(ll.elem_ty(ty))
        }
        _ => false,
    }
}

/// Whether `ty` is a 64-bit integer: the type clang's x86-64 calling
/// convention gives a union or small struct holding a pointer (QuickJS's
/// `JSValue`), so across calls it travels with a capability word.
pub fn is_word_int(ll: &Ll, ty: T) -> bool {
    ll.kind(ty) == LLVMTypeKind::LLVMIntegerTypeKind && ll.int_width(ty) == 64
}

/// Whether values of `ty` pass capability words across calls (CC buffers
/// and direct entries): they hold pointers or 64-bit integers (directly,
/// or as fields of structs and elements of arrays).
pub fn cc_carries(ll: &Ll, ty: T) -> bool {
    match ll.kind(ty) {
        LLVMTypeKind::LLVMStructTypeKind => ll.struct_fields(ty).iter().any(|&f| cc_carries(ll, f)),
        LLVMTypeKind::LLVMArrayTypeKind => cc_carries(ll, ll.elem_ty(ty)),
        _ => has_ptr(ll, ty) || is_word_int(ll, ty),
    }
}

/// Whether `ty` is a struct or array that [`cc_carries`]: its values carry
/// a capability value of their own type through the translation (phis,
/// selects, `insertvalue`), the fields that are 64-bit integers holding
/// their capabilities as integers.
pub fn aggregate_carries(ll: &Ll, ty: T) -> bool {
    matches!(
        ll.kind(ty),
        LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind
    ) && cc_carries(ll, ty)
}

/// Whether an access of `ty` must be aligned (pointers and vectors; an
/// aggregate if any member must be), and to what.
pub fn required_align(ll: &Ll, ty: T, ir_align: u32) -> u64 {
    match ll.kind(ty) {
        LLVMTypeKind::LLVMPointerTypeKind => 8,
        LLVMTypeKind::LLVMVectorTypeKind => {
            if ll.is_ptr(ll.elem_ty(ty)) {
                8
            } else {
                u64::from(ir_align.max(1))
            }
        }
        LLVMTypeKind::LLVMStructTypeKind => ll
            .struct_fields(ty)
            .iter()
            .map(|&f| required_align(ll, f, 1))
            .max()
            .unwrap_or(1),
        LLVMTypeKind::LLVMArrayTypeKind => required_align(ll, ll.elem_ty(ty), 1),
        _ => 1,
    }
}

/// The CC buffer placement of a list of value types.
pub struct CcLayout {
    pub offsets: Vec<u64>,
    pub bytes: u64,
}

pub fn cc_layout(ll: &Ll, types: &[T]) -> CcLayout {
    let mut end = 0;
    let mut offsets = Vec::with_capacity(types.len());
    for &t in types {
        let (size, align) = if ll.is_sized(t) {
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
pub fn ret_bytes(ll: &Ll, ty: T) -> u64 {
    if ll.kind(ty) == LLVMTypeKind::LLVMVoidTypeKind || !ll.is_sized(ty) {
        0
    } else {
        ll.size_of(ty).div_ceil(8) * 8
    }
}
