//! The zero region: read-only zero memory that the aux word of every data
//! object without shadow words leads to.
//!
//! Compiled code reads a pointer's capability at `p + (aux >> 16)` without
//! first asking whether the object has shadow words: for an object that
//! has none, the distance leads here, at the same offset from the region's
//! start as `p` from the object's, and the word read is a null capability.
//! That saves a compare and a branch on every pointer load, and the blocks
//! it split (measured: 3.7% of Lua's instructions).
//!
//! The region is one anonymous `PROT_READ` mapping made on first use. It
//! costs address space, not memory: a page is backed (by the kernel's
//! shared zero page) only once a load reads it, and it is never written
//! (`FLAG_SHADOW` is clear for such objects, so pointer stores take the
//! runtime's path and create real shadow words). A payload larger than the
//! region gets its shadow words at allocation instead.

use core::sync::atomic::{AtomicUsize, Ordering};

use gimso_abi::aux_with_zero_delta;

/// Sizes tried for the region, largest first: a smaller one when address
/// space is limited (`ulimit -v`, valgrind's address-space manager).
const SIZES: [usize; 5] = [1 << 40, 1 << 36, 1 << 32, 1 << 28, 1 << 24];

static BASE: AtomicUsize = AtomicUsize::new(0);
static SIZE: AtomicUsize = AtomicUsize::new(0);

/// The region's start and size, mapping it on first use.
#[inline(always)]
fn region() -> (usize, usize) {
    let base = BASE.load(Ordering::Acquire);
    if base != 0 {
        return (base, SIZE.load(Ordering::Relaxed));
    }
    map_region()
}

#[cold]
#[inline(never)]
fn map_region() -> (usize, usize) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for size in SIZES {
            // SAFETY: an anonymous private read-only mapping at a
            // kernel-chosen address touches no existing memory.
            let p = unsafe {
                libc::mmap(
                    core::ptr::null_mut(),
                    size,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                    -1,
                    0,
                )
            };
            if p != libc::MAP_FAILED {
                // Size first: a reader that sees the base sees its size.
                SIZE.store(size, Ordering::Relaxed);
                BASE.store(p as usize, Ordering::Release);
                return;
            }
        }
    });
    let base = BASE.load(Ordering::Acquire);
    if base == 0 {
        gimso_heap::fatal_oom(SIZES[SIZES.len() - 1]);
    }
    (base, SIZE.load(Ordering::Relaxed))
}

/// The aux word `aux` (flags) of a data object at `lower` with `payload`
/// bytes and no shadow words: its distance leads into the zero region.
/// `None` when the payload is larger than the region: such an object must
/// get real shadow words before compiled code sees it.
#[inline(always)]
pub fn aux_without_shadow(aux: u64, lower: usize, payload: usize) -> Option<u64> {
    let (base, size) = region();
    if payload > size {
        return None;
    }
    Some(aux_with_zero_delta(aux, base.wrapping_sub(lower) as isize))
}

/// Whether `addr` lies in the zero region (for tests and diagnostics).
pub fn contains(addr: usize) -> bool {
    let (base, size) = region();
    addr.wrapping_sub(base) < size
}
