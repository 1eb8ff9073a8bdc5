//! Addresses `root + c + i * stride` whose variable index `i` is provably
//! non-negative and small: they lie at or above `root + c`, so where
//! `root + c >= lower` is already known ([`super::checked`]), their check
//! compares with `upper` only. Bytecode interpreters and table code index
//! with fields extracted by masks and shifts (`cl->upvals[GETARG_B(i)]`),
//! which are exactly such indices.

use inkwell::llvm_sys::core::{LLVMIsAConstantInt, LLVMIsAInstruction};
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};

use super::super::ll::{Ll, T, V};

/// Largest index bound (exclusive) and stride trusted: their product stays
/// far below 2^62, so `root + c + i * stride` cannot wrap.
const MAX_BOUND: u64 = 1 << 32;
const MAX_STRIDE: i64 = 1 << 20;

/// An exclusive upper bound of integer `v` read as a signed value of its
/// own width, when `v` is provably in `[0, bound)` with `bound <= 2^32`.
pub(super) fn nonneg_bound(ll: &Ll, v: V) -> Option<u64> {
    if ll.kind(ll.type_of(v)) != LLVMTypeKind::LLVMIntegerTypeKind {
        return None;
    }
    let width = ll.int_width(ll.type_of(v));
    if width == 0 || width > 64 {
        return None;
    }
    if ll.is_a(v, LLVMIsAConstantInt) {
        let c = ll.const_int_svalue(v)?;
        return (0..MAX_BOUND as i64).contains(&c).then_some(c as u64 + 1);
    }
    if !ll.is_a(v, LLVMIsAInstruction) {
        return None;
    }
    match ll.opcode(v) {
        // A zero-extended narrower value: non-negative in the wider type.
        LLVMOpcode::LLVMZExt => {
            let src = ll.type_of(ll.operand(v, 0));
            if ll.kind(src) != LLVMTypeKind::LLVMIntegerTypeKind {
                return None;
            }
            let from = ll.int_width(src);
            (from < width && from <= 32).then(|| 1u64 << from)
        }
        // A mask with a non-negative constant.
        LLVMOpcode::LLVMAnd => {
            let mask = [0, 1]
                .into_iter()
                .filter_map(|i| ll.const_int_svalue(ll.operand(v, i)))
                .find(|&m| (0..MAX_BOUND as i64).contains(&m))?;
            Some(mask as u64 + 1)
        }
        // A logical right shift leaves at most `width - k` bits.
        LLVMOpcode::LLVMLShr => {
            let k = ll.const_int_value(ll.operand(v, 1))?;
            let bits = u64::from(width).checked_sub(k)?;
            (bits <= 32 && bits < u64::from(width)).then(|| 1u64 << bits)
        }
        _ => None,
    }
}

/// For a GEP on `base` of source type `src` with (translated) indices
/// `idx`, of which exactly one, at position `at`, is variable and
/// non-negative: the constant byte offset with that index at zero.
pub(super) fn min_offset(ll: &Ll, src: T, idx: &[V], at: usize) -> Option<i64> {
    let ty = ll.type_of(idx[at]);
    let with = |n: u64| {
        let mut v = idx.to_vec();
        v[at] = ll.const_int(ty, n);
        ll.const_gep_offset(src, &v)
    };
    let (zero, one) = (with(0)?, with(1)?);
    let stride = one.checked_sub(zero)?;
    (0 < stride && stride <= MAX_STRIDE).then_some(zero)
}
