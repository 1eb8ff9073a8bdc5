//! Atomic boxes: how the protocol creates and reads them.
//!
//! The protocol never touches box memory itself. Reading goes through
//! [`BoxRead`] and creating through [`BoxAlloc`], so the runtime can use GC
//! objects laid out as [`gimso_abi::AtomicBoxPayload`] ([`AbiBoxReader`]),
//! while the loom models use [`LeakBoxes`], whose fields are loom-checked
//! cells: a read of a box that does not happen-after its initialisation is a
//! loom failure, which is exactly the bug the shadow word's Release/Acquire
//! pairing exists to prevent.

use core::sync::atomic::Ordering;

use gimso_abi::AtomicBoxPayload;

use crate::Ptr;
use crate::primitive::UnsafeCell;

/// Reads the contents of an atomic box.
pub trait BoxRead {
    /// Returns the pointer stored in the box at `addr`.
    ///
    /// # Safety
    ///
    /// `addr` must be the address of a box created by this type's
    /// [`BoxAlloc::new_box`] (or, for [`AbiBoxReader`], of a live, initialised
    /// [`AtomicBoxPayload`]) that has not been reclaimed, and the box's
    /// initialisation must happen-before this call. The slot operations obtain
    /// `addr` only from an Acquire load or RMW of a shadow word that a Release
    /// store or RMW published it through, which provides that ordering.
    unsafe fn read_box(addr: usize) -> Ptr;
}

/// Creates atomic boxes.
///
/// # Safety
///
/// Implementors promise that [`new_box`](BoxAlloc::new_box) returns the
/// address of a fresh box holding exactly `v`, with bit 0 clear (it becomes
/// `box | SHADOW_BOX_TAG`), that `Self::read_box` accepts, and that the box
/// stays readable for as long as any shadow word or any thread may still hold
/// its address (the runtime keeps boxes alive through the collector; the test
/// allocator leaks them). The slot operations are safe functions and rely on
/// this promise.
pub unsafe trait BoxAlloc: BoxRead {
    /// Allocates and initialises a box holding `v`; returns its address.
    fn new_box(&mut self, v: Ptr) -> usize;
}

/// Reads boxes laid out as [`gimso_abi::AtomicBoxPayload`]: the runtime's
/// reader.
#[derive(Debug, Clone, Copy, Default)]
pub struct AbiBoxReader;

impl BoxRead for AbiBoxReader {
    #[inline]
    unsafe fn read_box(addr: usize) -> Ptr {
        // SAFETY: the caller guarantees `addr` is a live, initialised
        // `AtomicBoxPayload`.
        let b = unsafe { &*(addr as *const AtomicBoxPayload) };
        // Relaxed is enough: boxes are immutable once published, and the
        // Acquire on the shadow word that produced `addr` already orders their
        // initialisation before us.
        Ptr {
            intval: b.intval.load(Ordering::Relaxed),
            lower: b.lower.load(Ordering::Relaxed),
        }
    }
}

/// A box whose fields are plain (loom-checked under `cfg(loom)`) cells.
#[derive(Debug)]
struct LeakBox {
    intval: UnsafeCell<u64>,
    lower: UnsafeCell<usize>,
}

/// A [`BoxAlloc`] that leaks every box (`Box::leak`), for the loom models and
/// the stress tests. Not for the runtime: nothing is ever freed.
#[derive(Debug, Default)]
pub struct LeakBoxes {
    /// How many boxes this allocator has created, so tests can check that an
    /// operation allocates at most once.
    pub allocated: usize,
}

impl BoxRead for LeakBoxes {
    unsafe fn read_box(addr: usize) -> Ptr {
        // SAFETY: the caller guarantees `addr` came from `LeakBoxes::new_box`;
        // leaked boxes are never freed.
        let b = unsafe { &*(addr as *const LeakBox) };
        // SAFETY: boxes are never written after `new_box`, and the caller
        // guarantees that initialisation happens-before this read (loom checks
        // exactly this on these cells).
        let intval = b.intval.with(|p| unsafe { *p });
        // SAFETY: as above.
        let lower = b.lower.with(|p| unsafe { *p });
        Ptr { intval, lower }
    }
}

// SAFETY: boxes are fresh, hold `v`, are at least 8-aligned (so bit 0 is
// clear), are read back by `LeakBoxes::read_box`, and are never freed.
unsafe impl BoxAlloc for LeakBoxes {
    fn new_box(&mut self, v: Ptr) -> usize {
        self.allocated += 1;
        let b: &'static LeakBox = Box::leak(Box::new(LeakBox {
            intval: UnsafeCell::new(v.intval),
            lower: UnsafeCell::new(v.lower),
        }));
        b as *const LeakBox as usize
    }
}
