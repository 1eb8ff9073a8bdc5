//! Addresses `root + c + i * stride` whose variable index `i` is provably
//! non-negative and small: they lie at or above `root + c`, so where
//! `root + c >= lower` is already known ([`super::checked`]), their check
//! compares with `upper` only. Bytecode interpreters and table code index
//! with fields extracted by masks and shifts (`cl->upvals[GETARG_B(i)]`),
//! which are exactly such indices.

use crate::llvm::{Opcode, TypeKind};

use super::super::ll::{Ll, T, V};

/// Largest index bound (exclusive) and stride trusted: their product stays
/// far below 2^62, so `root + c + i * stride` cannot wrap.
const MAX_BOUND: u64 = 1 << 32;
const MAX_STRIDE: i64 = 1 << 20;

/// An exclusive upper bound of integer `v` read as a signed value of its
/// own width, when `v` is provably in `[0, bound)` with `bound <= 2^32`.
pub(super) fn nonneg_bound<'m>(v: V<'m>) -> Option<u64> {
    if v.type_of().kind() != TypeKind::LLVMIntegerTypeKind {
        return None;
    }
    let width = v.type_of().int_width();
    if width == 0 || width > 64 {
        return None;
    }
    if v.is_constant_int() {
        let c = v.const_int_svalue()?;
        return (0..MAX_BOUND as i64).contains(&c).then_some(c as u64 + 1);
    }
    if !v.is_instruction() {
        return None;
    }
    match v.opcode() {
        // A zero-extended narrower value: non-negative in the wider type.
        Opcode::LLVMZExt => {
            let src = v.operand(0).type_of();
            if src.kind() != TypeKind::LLVMIntegerTypeKind {
                return None;
            }
            let from = src.int_width();
            (from < width && from <= 32).then(|| 1u64 << from)
        }
        // A mask with a non-negative constant.
        Opcode::LLVMAnd => {
            let mask = [0, 1]
                .into_iter()
                .filter_map(|i| v.operand(i).const_int_svalue())
                .find(|&m| (0..MAX_BOUND as i64).contains(&m))?;
            Some(mask as u64 + 1)
        }
        // A logical right shift leaves at most `width - k` bits.
        Opcode::LLVMLShr => {
            let k = v.operand(1).const_int_value()?;
            let bits = u64::from(width).checked_sub(k)?;
            (bits <= 32 && bits < u64::from(width)).then(|| 1u64 << bits)
        }
        _ => None,
    }
}

/// For a GEP on `base` of source type `src` with (translated) indices
/// `idx`, of which exactly one, at position `at`, is variable and
/// non-negative: the constant byte offset with that index at zero.
pub(super) fn min_offset<'m>(ll: &Ll<'m>, src: T<'m>, idx: &[V<'m>], at: usize) -> Option<i64> {
    let ty = idx[at].type_of();
    let with = |n: u64| {
        let mut v = idx.to_vec();
        v[at] = ll.const_int(ty, n);
        ll.const_gep_offset(src, &v)
    };
    let (zero, one) = (with(0)?, with(1)?);
    let stride = one.checked_sub(zero)?;
    (0 < stride && stride <= MAX_STRIDE).then_some(zero)
}
