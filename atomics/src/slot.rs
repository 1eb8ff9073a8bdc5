//! The six operations on one pointer slot (payload word + shadow word).
//!
//! The orderings are explained in the crate documentation; the comments here
//! only point at which pairing each one belongs to.

use core::marker::PhantomData;

use gimso_abi::SHADOW_BOX_TAG;

use crate::Ptr;
use crate::boxes::{BoxAlloc, BoxRead};
use crate::primitive::{AtomicU64, AtomicUsize, Ordering};

/// One pointer at rest: its payload word and its shadow word, whose boxes are
/// read (and, for the atomic writers, created) by `B`.
pub struct Slot<'a, B> {
    payload: &'a AtomicU64,
    shadow: &'a AtomicUsize,
    boxes: PhantomData<fn() -> B>,
}

impl<B> Clone for Slot<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B> Copy for Slot<'_, B> {}

impl<B> core::fmt::Debug for Slot<'_, B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Slot")
            .field("payload", &(self.payload as *const AtomicU64))
            .field("shadow", &(self.shadow as *const AtomicUsize))
            .finish()
    }
}

impl<'a, B: BoxRead> Slot<'a, B> {
    /// Views `payload` and `shadow` as one pointer slot.
    ///
    /// # Safety
    ///
    /// Whenever `shadow` holds a value with [`SHADOW_BOX_TAG`] set (now or
    /// later, through any `Slot` or otherwise), that value must be
    /// `addr | SHADOW_BOX_TAG` for an `addr` that `B::read_box` accepts and
    /// that stays live while any thread may read it, and it must have been
    /// published with Release (or stronger) ordering. Writing the shadow word
    /// only through these operations with the same `B` guarantees this; a
    /// zeroed shadow word (the null capability) is a valid starting state.
    #[inline]
    pub const unsafe fn new(payload: &'a AtomicU64, shadow: &'a AtomicUsize) -> Self {
        Self {
            payload,
            shadow,
            boxes: PhantomData,
        }
    }

    /// Returns the pointer the shadow word `w` and (if needed) the payload
    /// hold, without tearing against atomic writers, plus the shadow word that
    /// value belongs to (the expected value for a CAS).
    #[inline]
    fn resolve(self, mut w: usize) -> (usize, Ptr) {
        loop {
            if is_box(w) {
                // SAFETY: tagged shadow words are boxes readable by `B`
                // (`Slot::new`), and `w` came from an Acquire load or RMW.
                return (w, unsafe { B::read_box(w & !SHADOW_BOX_TAG) });
            }
            // Acquire pairs with the Release replication of atomic writers:
            // if we see their intval, their earlier box publication
            // happens-before the re-check, which then cannot still read `w`.
            let intval = self.payload.load(Ordering::Acquire);
            let again = self.shadow.load(Ordering::Acquire);
            if again == w {
                return (w, Ptr { intval, lower: w });
            }
            w = again;
        }
    }
}

/// Whether shadow word `w` holds an atomic box (atomic mode) rather than a
/// capability (non-atomic mode).
#[inline]
pub const fn is_box(w: usize) -> bool {
    w & SHADOW_BOX_TAG != 0
}

/// Non-atomic pointer store: puts the slot in non-atomic mode.
///
/// # Panics
///
/// If `v.lower` has bit 0 set: it would read back as an atomic box. Real
/// capabilities are 16-byte aligned.
#[inline]
pub fn plain_store<B: BoxRead>(slot: Slot<'_, B>, v: Ptr) {
    assert!(!is_box(v.lower), "capability with the box tag bit set");
    slot.payload.store(v.intval, Ordering::Relaxed);
    // Release publishes the capability's object (and orders the intval
    // before it) to loaders that acquire the shadow word.
    slot.shadow.store(v.lower, Ordering::Release);
}

/// Non-atomic pointer load. The result may pair the intval of one store with
/// the capability of another; the capability is always one really stored.
#[inline]
pub fn plain_load<B: BoxRead>(slot: Slot<'_, B>) -> Ptr {
    // Acquire pairs with the Release publication of boxes and capabilities.
    let w = slot.shadow.load(Ordering::Acquire);
    let lower = if is_box(w) {
        // SAFETY: tagged shadow words are boxes readable by `B` (`Slot::new`)
        // and `w` was loaded with Acquire.
        unsafe { B::read_box(w & !SHADOW_BOX_TAG) }.lower
    } else {
        w
    };
    // Relaxed: tearing is tolerated for non-atomic loads.
    let intval = slot.payload.load(Ordering::Relaxed);
    Ptr { intval, lower }
}

/// Atomic pointer store: puts the slot in atomic mode with a new box.
#[inline]
pub fn atomic_store<A: BoxAlloc>(slot: Slot<'_, A>, v: Ptr, boxes: &mut A) {
    let b = boxes.new_box(v);
    debug_assert!(!is_box(b), "box address with bit 0 set");
    // Release publishes the box's initialisation.
    slot.shadow.store(b | SHADOW_BOX_TAG, Ordering::Release);
    // Replicated for non-atomic loads; Release so that a reader seeing this
    // intval in `resolve` also sees the box store above.
    slot.payload.store(v.intval, Ordering::Release);
}

/// Atomic pointer load: never tears against atomic writers.
#[inline]
pub fn atomic_load<B: BoxRead>(slot: Slot<'_, B>) -> Ptr {
    // Acquire pairs with the Release publication of boxes and capabilities.
    let w = slot.shadow.load(Ordering::Acquire);
    slot.resolve(w).1
}

/// Pointer compare-and-exchange on the intval: if the current value's intval
/// is `expected`, replaces the value with `new`. Returns the value seen and
/// whether the exchange happened.
///
/// A strong exchange (`weak == false`) fails only when the current intval
/// differs from `expected`. A weak one also gives up when another writer
/// changes the slot between its read and its CAS; it then returns the value
/// that writer left (resolved from the failed CAS), whose intval may equal
/// `expected` (a spurious failure, as C allows for weak exchanges). At most
/// one box is allocated per call, and none when the intval does not match.
#[inline]
pub fn cmpxchg<A: BoxAlloc>(
    slot: Slot<'_, A>,
    expected: u64,
    new: Ptr,
    weak: bool,
    boxes: &mut A,
) -> (Ptr, bool) {
    let mut fresh: Option<usize> = None;
    // Acquire pairs with the Release publication of boxes and capabilities.
    let (mut w, mut cur) = slot.resolve(slot.shadow.load(Ordering::Acquire));
    loop {
        if cur.intval != expected {
            return (cur, false);
        }
        let b = *fresh.get_or_insert_with(|| boxes.new_box(new));
        debug_assert!(!is_box(b), "box address with bit 0 set");
        // Success: Release publishes our box, Acquire keeps the RMW chain
        // synchronising. Failure: Acquire so the box we fail on is readable.
        match slot.shadow.compare_exchange(
            w,
            b | SHADOW_BOX_TAG,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => {
                // Release: see `atomic_store`.
                slot.payload.store(new.intval, Ordering::Release);
                return (cur, true);
            }
            Err(actual) => {
                (w, cur) = slot.resolve(actual);
                if weak {
                    return (cur, false);
                }
            }
        }
    }
}

/// Pointer exchange: stores `new` and returns the value it replaced, never
/// torn against atomic writers. Wait-free: one box, one swap.
#[inline]
pub fn xchg<A: BoxAlloc>(slot: Slot<'_, A>, new: Ptr, boxes: &mut A) -> Ptr {
    let b = boxes.new_box(new);
    debug_assert!(!is_box(b), "box address with bit 0 set");
    // Read before the swap: if this is an atomic writer's replicated intval,
    // its box store happens-before our swap (Release/Acquire on the payload),
    // so the swap cannot return the older capability it would tear with.
    let intval = slot.payload.load(Ordering::Acquire);
    // Release publishes our box; Acquire makes the old box readable.
    let old = slot.shadow.swap(b | SHADOW_BOX_TAG, Ordering::AcqRel);
    let prev = if is_box(old) {
        // SAFETY: tagged shadow words are boxes readable by `A` (`Slot::new`)
        // and `old` came from an AcqRel RMW.
        unsafe { A::read_box(old & !SHADOW_BOX_TAG) }
    } else {
        Ptr { intval, lower: old }
    };
    // Release: see `atomic_store`.
    slot.payload.store(new.intval, Ordering::Release);
    prev
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::boxes::{AbiBoxReader, LeakBoxes};
    use gimso_abi::AtomicBoxPayload;

    /// Boxes laid out as the runtime's, read by `AbiBoxReader`: the shape the
    /// `shadow` crate's GC allocator has.
    #[derive(Default)]
    struct AbiLeak;

    impl BoxRead for AbiLeak {
        unsafe fn read_box(addr: usize) -> Ptr {
            // SAFETY: forwarded contract; `AbiLeak` boxes are `AtomicBoxPayload`s.
            unsafe { AbiBoxReader::read_box(addr) }
        }
    }

    // SAFETY: leaked, initialised, 8-aligned `AtomicBoxPayload`s.
    unsafe impl BoxAlloc for AbiLeak {
        fn new_box(&mut self, v: Ptr) -> usize {
            let b: &'static AtomicBoxPayload = Box::leak(Box::new(AtomicBoxPayload {
                intval: core::sync::atomic::AtomicU64::new(v.intval),
                lower: core::sync::atomic::AtomicUsize::new(v.lower),
            }));
            b as *const AtomicBoxPayload as usize
        }
    }

    const V: Ptr = Ptr {
        intval: 0x1008,
        lower: 0x1000,
    };
    const W: Ptr = Ptr {
        intval: 0x2008,
        lower: 0x2000,
    };

    fn with_slot<B: BoxAlloc>(f: impl FnOnce(Slot<'_, B>)) {
        let (p, s) = (AtomicU64::new(0), AtomicUsize::new(0));
        // SAFETY: the shadow word starts null and is written only through the
        // slot operations with `B`, whose boxes are leaked.
        f(unsafe { Slot::new(&p, &s) });
    }

    #[test]
    fn zeroed_slot_is_null() {
        with_slot::<LeakBoxes>(|s| {
            assert_eq!(plain_load(s), Ptr::default());
            assert_eq!(atomic_load(s), Ptr::default());
        });
    }

    #[test]
    fn modes() {
        with_slot::<AbiLeak>(|s| {
            plain_store(s, V);
            assert!(!is_box(s.shadow.load(Ordering::Relaxed)));
            assert_eq!((plain_load(s), atomic_load(s)), (V, V));
            atomic_store(s, W, &mut AbiLeak);
            assert!(is_box(s.shadow.load(Ordering::Relaxed)));
            assert_eq!((plain_load(s), atomic_load(s)), (W, W));
            plain_store(s, V);
            assert!(!is_box(s.shadow.load(Ordering::Relaxed)));
            assert_eq!(atomic_load(s), V);
        });
    }

    /// The spec's example: atomic store V, integer store W, then a pointer
    /// load sees V and an integer load sees W; a non-atomic pointer load
    /// pairs W's intval with V's capability.
    #[test]
    fn integer_store_over_atomic_mode() {
        with_slot::<AbiLeak>(|s| {
            atomic_store(s, V, &mut AbiLeak);
            s.payload.store(W.intval, Ordering::Relaxed);
            assert_eq!(atomic_load(s), V);
            assert_eq!(
                plain_load(s),
                Ptr {
                    intval: W.intval,
                    lower: V.lower
                }
            );
        });
    }

    #[test]
    fn cmpxchg_sequential() {
        with_slot::<LeakBoxes>(|s| {
            plain_store(s, V);
            let mut boxes = LeakBoxes::default();
            for weak in [false, true] {
                assert_eq!(cmpxchg(s, W.intval, W, weak, &mut boxes), (V, false));
            }
            assert_eq!(boxes.allocated, 0, "no box without a match");
            assert_eq!(cmpxchg(s, V.intval, W, false, &mut boxes), (V, true));
            assert_eq!(boxes.allocated, 1);
            assert_eq!((atomic_load(s), plain_load(s)), (W, W));
            assert_eq!(cmpxchg(s, W.intval, V, true, &mut boxes), (W, true));
            assert_eq!(atomic_load(s), V);
        });
    }

    #[test]
    fn xchg_sequential() {
        with_slot::<AbiLeak>(|s| {
            plain_store(s, V);
            assert_eq!(xchg(s, W, &mut AbiLeak), V);
            assert_eq!(xchg(s, V, &mut AbiLeak), W);
            assert_eq!((atomic_load(s), plain_load(s)), (V, V));
        });
    }

    #[test]
    #[should_panic(expected = "box tag")]
    fn plain_store_rejects_tagged_capability() {
        with_slot::<LeakBoxes>(|s| {
            plain_store(
                s,
                Ptr {
                    intval: 0,
                    lower: 1,
                },
            )
        });
    }

    #[test]
    fn flight_ptr_round_trip() {
        // SAFETY: the value is only compared, never dereferenced.
        let f = unsafe { V.into_flight() };
        assert_eq!(Ptr::from(f), V);
    }
}
