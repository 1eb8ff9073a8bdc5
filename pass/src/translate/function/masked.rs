//! Masked vector memory accesses (spec "Intrinsics"): `llvm.masked.load`
//! and `store` access lane `i` at `p + i * size` when mask bit `i` is set;
//! `expandload` and `compressstore` access as many consecutive lanes from
//! `p` as the mask has bits set. Clang emits them for AVX-512 masked
//! loads (`_mm_maskz_loadu_epi8`), typically for a buffer's tail. The x86
//! intrinsics of SSE2's `maskmovdqu` (`_mm_maskmoveu_si128`) and AVX's
//! `vmaskmov`/`vpmaskmov` (`_mm256_maskload_ps`, ...) enable lane `i` when
//! the sign bit of mask element `i` is set.
//!
//! The runtime checks the span of the enabled lanes
//! (`gimso_check_lanes_at`), then the access runs as written. Lanes
//! holding pointers would need a capability each: refused.

use crate::llvm::IntPredicate;

use gimso_abi::{ACCESS_READ, ACCESS_WRITE};

use super::super::layout::has_ptr;
use super::super::runtime::call;
use super::{FnTx, V};

/// Which masked access an intrinsic is, by name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Masked {
    Load,
    Store,
    ExpandLoad,
    CompressStore,
    /// `llvm.x86.sse2.maskmov.dqu(data, mask, ptr)`: a byte-masked store.
    MaskMovDqu,
    /// `llvm.x86.avx{,2}.maskload.*(ptr, mask)`.
    X86MaskLoad,
    /// `llvm.x86.avx{,2}.maskstore.*(ptr, mask, data)`.
    X86MaskStore,
}

impl Masked {
    pub(super) fn of(name: &str) -> Option<Masked> {
        [
            ("llvm.masked.load.", Masked::Load),
            ("llvm.masked.store.", Masked::Store),
            ("llvm.masked.expandload.", Masked::ExpandLoad),
            ("llvm.masked.compressstore.", Masked::CompressStore),
            ("llvm.x86.sse2.maskmov.dqu", Masked::MaskMovDqu),
            ("llvm.x86.avx.maskload.", Masked::X86MaskLoad),
            ("llvm.x86.avx2.maskload.", Masked::X86MaskLoad),
            ("llvm.x86.avx.maskstore.", Masked::X86MaskStore),
            ("llvm.x86.avx2.maskstore.", Masked::X86MaskStore),
        ]
        .into_iter()
        .find(|(p, _)| name.starts_with(p))
        .map(|(_, k)| k)
    }

    fn writes(self) -> bool {
        matches!(
            self,
            Masked::Store | Masked::CompressStore | Masked::MaskMovDqu | Masked::X86MaskStore
        )
    }

    /// Whether the mask is a vector of integers enabling the lanes whose
    /// sign bit is set (the x86 intrinsics), not a vector of `i1`.
    fn sign_mask(self) -> bool {
        matches!(
            self,
            Masked::MaskMovDqu | Masked::X86MaskLoad | Masked::X86MaskStore
        )
    }

    /// Operand indices of the pointer and the mask.
    fn operands(self) -> (u32, u32) {
        match self {
            Masked::Load => (0, 2),
            Masked::Store => (1, 3),
            Masked::ExpandLoad => (0, 1),
            Masked::CompressStore => (1, 2),
            Masked::MaskMovDqu => (2, 1),
            Masked::X86MaskLoad | Masked::X86MaskStore => (0, 1),
        }
    }

    /// The operand holding the data of a store (else the result's type
    /// gives the lanes).
    fn data(self) -> Option<u32> {
        match self {
            Masked::Store | Masked::CompressStore | Masked::MaskMovDqu => Some(0),
            Masked::X86MaskStore => Some(2),
            _ => None,
        }
    }
}

/// The most lanes one check covers: one bit each in a 64-bit word.
const MAX_LANES: u32 = 64;

impl<'m> FnTx<'_, 'm> {
    /// Translates a call of a masked access intrinsic `kind`.
    pub(super) fn tx_masked(&mut self, inst: V<'m>, kind: Masked) {
        let (pi, mi) = kind.operands();
        let mask = inst.operand(mi);
        let vty = (match kind.data() {
            Some(i) => inst.operand(i),
            None => inst,
        })
        .type_of();
        let lanes = vty.vector_len();
        if has_ptr(vty) {
            self.error(
                "a masked vector access of pointers",
                "each lane would need its own capability; gimso has no checked form of it",
            );
        } else if lanes > MAX_LANES {
            self.error(
                &format!("a masked vector access of {lanes} lanes"),
                "gimso checks masked accesses of at most 64 lanes",
            );
        } else {
            let p = self.tx(inst.operand(pi));
            let m = self.tx(mask).int;
            let site = self.site();
            let ll = &self.m.ll;
            let elem = ll.size_of(vty.element_type());
            let m = if kind.sign_mask() {
                let mty = m.type_of();
                ll.icmp(IntPredicate::LLVMIntSLT, m, ll.zero(mty))
            } else {
                m
            };
            let bits = ll.bitcast(m, ll.int_ty(lanes));
            let mut bits = ll.int_cast(bits, ll.i64());
            if matches!(kind, Masked::ExpandLoad | Masked::CompressStore) {
                bits = self.packed_lanes(bits);
            }
            let ll = &self.m.ll;
            let access = if kind.writes() {
                ACCESS_WRITE
            } else {
                ACCESS_READ
            };
            let cap = p.cap.unwrap_or_else(|| ll.null_ptr());
            call(
                ll,
                "gimso_check_lanes_at",
                &[
                    p.int,
                    cap,
                    bits,
                    ll.i64c(elem),
                    ll.i32c(u64::from(access)),
                    site,
                ],
            );
        }
        self.tx_generic(inst);
    }

    /// The lanes an expanding load or compressing store touches: the first
    /// `popcount(bits)`.
    fn packed_lanes(&mut self, bits: V<'m>) -> V<'m> {
        let ll = &self.m.ll;
        let fnty = ll.fn_ty(ll.i64(), &[ll.i64()], false);
        let n = ll.intrinsic("llvm.ctpop.i64", fnty, &[bits]);
        let all = ll.const_int(ll.i64(), u64::MAX);
        let full = ll.icmp(IntPredicate::LLVMIntEQ, n, ll.i64c(64));
        // `all >> (64 - n)` would shift by 64 for n == 0: shift by `63 - n`,
        // then by one more. (For n == 64 the select takes `all`.)
        let shift = ll.sub(ll.i64c(63), n);
        let some = ll.lshr(ll.lshr(all, shift), ll.i64c(1));
        ll.select(full, all, some)
    }
}
