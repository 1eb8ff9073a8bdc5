//! Barrier epochs (`gimso_shadow::barrier`): a pointer store skips the
//! store barrier when the stored capability's header carries the current
//! marking epoch. That is only sound if no object carries a stale epoch that
//! a later cycle could take for its own, so the collector stamps every
//! object it traces: after each collection, every object that lived through
//! it carries that collection's epoch, whatever it carried before.

use gimso::capi::*;
use gimso_abi::FlightPtr;
use gimso_shadow::barrier::{epoch_of, last_epoch};

#[test]
fn every_object_that_lives_through_a_collection_carries_its_epoch() {
    const N: usize = 64;
    let holder = gimso_alloc(N * 8);
    let mut objs: Vec<FlightPtr> = Vec::new();
    for i in 0..N {
        // Small objects (inline shadow words) and larger ones (separate aux).
        let o = gimso_alloc(if i % 2 == 0 { 32 } else { 4096 });
        // SAFETY: `holder` has room for N pointers; `o` is runtime-issued.
        unsafe { gimso_store_ptr(holder.offset(8 * i as isize), o) };
        objs.push(o);
    }
    let all: Vec<usize> = objs
        .iter()
        .map(|o| o.lower())
        .chain([holder.lower()])
        .collect();
    let mut epochs = Vec::new();
    // More collections than there are epochs: each must restamp.
    for _ in 0..20 {
        gimso_gc_collect();
        let e = last_epoch();
        assert_ne!(e, 0);
        for &lower in &all {
            // SAFETY: every object is reachable from `holder` (on this stack).
            let got = unsafe { epoch_of(lower) };
            assert_eq!(
                got, e,
                "object {lower:#x} carries epoch {got}, the collection used {e}"
            );
        }
        epochs.push(e);
    }
    assert!(epochs.windows(2).all(|w| w[0] != w[1]), "epochs {epochs:?}");
    std::hint::black_box(&holder);
}
