//! Reading and writing values in the thread's CC buffers (docs/architecture.md, "The calling convention"): the
//! generic entry convention's arguments and return values. Used by
//! translated bodies, by the generic entry in front of a direct body and by
//! the thunks that take a direct call to the generic entry ([`super::direct`]).

use crate::llvm::{IntPredicate, TypeKind};

use gimso_abi::{
    CC_INLINE_BYTES, THREAD_CC_CAPS_OFFSET, THREAD_CC_OUTLINE_CAPS_OFFSET,
    THREAD_CC_OUTLINE_PAYLOAD_OFFSET, THREAD_CC_PAYLOAD_OFFSET,
};

use super::consts::Tx;
use super::layout::{cc_carries, is_word_int};
use super::ll::{Ll, T, V};
use super::runtime::call;

/// The CC buffers (payload, capabilities) of `thread` holding `bytes` of
/// arguments or return value: the inline ones, or the outline ones when
/// `bytes` is larger.
pub fn arg_buffers<'m>(ll: &Ll<'m>, thread: V<'m>, bytes: V<'m>) -> (V<'m>, V<'m>) {
    let inline_p = ll.gep_i8c(thread, THREAD_CC_PAYLOAD_OFFSET as u64);
    let inline_c = ll.gep_i8c(thread, THREAD_CC_CAPS_OFFSET as u64);
    if let Some(n) = bytes.const_int_value() {
        if n <= CC_INLINE_BYTES as u64 {
            return (inline_p, inline_c);
        }
    }
    let out_p = ll.load(
        ll.ptr(),
        ll.gep_i8c(thread, THREAD_CC_OUTLINE_PAYLOAD_OFFSET as u64),
        8,
    );
    let out_c = ll.load(
        ll.ptr(),
        ll.gep_i8c(thread, THREAD_CC_OUTLINE_CAPS_OFFSET as u64),
        8,
    );
    let small = ll.icmp(
        IntPredicate::LLVMIntULE,
        bytes,
        ll.i64c(CC_INLINE_BYTES as u64),
    );
    (
        ll.select(small, inline_p, out_p),
        ll.select(small, inline_c, out_c),
    )
}

/// Buffers for writing `bytes` (known statically): the outline ones are
/// grown first when needed.
pub fn write_buffers<'m>(ll: &Ll<'m>, thread: V<'m>, bytes: u64) -> (V<'m>, V<'m>) {
    if bytes > CC_INLINE_BYTES as u64 {
        call(ll, "gimso_cc_outline", &[thread, ll.i64c(bytes)]);
    }
    arg_buffers(ll, thread, ll.i64c(bytes))
}

/// Reads a value of `ty` from CC buffer offset `off`.
/// A value of a type [`cc_carries`] comes with its capability words: a
/// 64-bit integer's as an integer (the capability's address), so the
/// capability value always has the value's own type.
pub fn read_value<'m>(ll: &Ll<'m>, ty: T<'m>, payload: V<'m>, caps: V<'m>, off: u64) -> Tx<'m> {
    let int = ll.load(ty, ll.gep_i8c(payload, off), 8);
    if !cc_carries(ty) {
        return Tx::plain(int);
    }
    Tx {
        int,
        cap: Some(read_caps(ll, ty, caps, off)),
    }
}

fn read_caps<'m>(ll: &Ll<'m>, ty: T<'m>, caps: V<'m>, off: u64) -> V<'m> {
    match ty.kind() {
        TypeKind::LLVMPointerTypeKind => ll.load(ll.ptr(), ll.gep_i8c(caps, off), 8),
        _ if is_word_int(ty) => ll.load(ty, ll.gep_i8c(caps, off), 8),
        TypeKind::LLVMStructTypeKind => {
            let mut acc = ll.zero(ty);
            for (i, f) in ty.struct_fields().into_iter().enumerate() {
                if !cc_carries(f) {
                    continue;
                }
                let fo = ll.field_offset(ty, i as u32);
                let c = read_caps(ll, f, caps, off + fo);
                acc = ll.insert_value(acc, c, i as u32);
            }
            acc
        }
        TypeKind::LLVMArrayTypeKind => {
            let e = ty.element_type();
            let stride = ll.size_of(e);
            let mut acc = ll.zero(ty);
            for i in 0..ty.array_len() {
                let c = read_caps(ll, e, caps, off + i * stride);
                acc = ll.insert_value(acc, c, i as u32);
            }
            acc
        }
        _ => {
            let mut acc = ll.zero(ty);
            for i in 0..u64::from(ty.vector_len()) {
                let c = ll.load(ll.ptr(), ll.gep_i8c(caps, off + i * 8), 8);
                acc = ll.insert_element(acc, c, ll.i32c(i));
            }
            acc
        }
    }
}

/// Writes `v` of `ty` at CC buffer offset `off` (the capability words of
/// its span must already be zero: [`zero_caps`]).
pub fn write_value<'m>(ll: &Ll<'m>, ty: T<'m>, v: Tx<'m>, payload: V<'m>, caps: V<'m>, off: u64) {
    ll.store(v.int, ll.gep_i8c(payload, off), 8);
    if let Some(c) = v.cap {
        write_caps(ll, ty, c, caps, off);
    }
}

fn write_caps<'m>(ll: &Ll<'m>, ty: T<'m>, c: V<'m>, caps: V<'m>, off: u64) {
    match ty.kind() {
        TypeKind::LLVMPointerTypeKind => {
            ll.store(c, ll.gep_i8c(caps, off), 8);
        }
        _ if is_word_int(ty) => {
            ll.store(c, ll.gep_i8c(caps, off), 8);
        }
        TypeKind::LLVMStructTypeKind => {
            for (i, f) in ty.struct_fields().into_iter().enumerate() {
                if !cc_carries(f) {
                    continue;
                }
                let fo = ll.field_offset(ty, i as u32);
                let e = ll.extract_value(c, i as u32);
                write_caps(ll, f, e, caps, off + fo);
            }
        }
        TypeKind::LLVMArrayTypeKind => {
            let e_ty = ty.element_type();
            let stride = ll.size_of(e_ty);
            for i in 0..ty.array_len() {
                let e = ll.extract_value(c, i as u32);
                write_caps(ll, e_ty, e, caps, off + i * stride);
            }
        }
        _ => {
            for i in 0..u64::from(ty.vector_len()) {
                let e = ll.extract_element(c, ll.i32c(i));
                ll.store(e, ll.gep_i8c(caps, off + i * 8), 8);
            }
        }
    }
}

/// Zeroes the capability words of the first `bytes` of the buffer.
pub fn zero_caps<'m>(ll: &Ll<'m>, caps: V<'m>, bytes: u64) {
    if bytes > 0 {
        ll.memset(caps, ll.const_int(ll.i8(), 0), ll.i64c(bytes), 8);
    }
}
