//! Roots: an object kept alive only by a stack variable survives
//! collections; one referenced by nothing is reclaimed.

use std::hint::black_box;

use gimso::capi::*;
use gimso_abi::{ACCESS_READ, ACCESS_WRITE, FlightPtr};

fn fill(p: FlightPtr, words: usize, seed: u64) {
    // SAFETY: runtime-issued capability; checked before writing.
    unsafe { gimso_check_access(p, words * 8, ACCESS_WRITE) };
    for i in 0..words {
        // SAFETY: just checked.
        unsafe { (p.intval() as *mut u64).add(i).write(seed ^ i as u64) };
    }
}

fn intact(p: FlightPtr, words: usize, seed: u64) -> bool {
    // SAFETY: runtime-issued capability; checked before reading.
    unsafe { gimso_check_access(p, words * 8, ACCESS_READ) };
    // SAFETY: just checked.
    (0..words).all(|i| unsafe { (p.intval() as *const u64).add(i).read() } == seed ^ i as u64)
}

#[inline(never)]
fn make_garbage(n: usize) -> usize {
    let mut last = 0;
    for i in 0..n {
        let g = gimso_alloc(64 + i % 512);
        last = g.lower();
    }
    last
}

#[test]
fn stack_only_object_survives_collections() {
    let obj = black_box(gimso_alloc(4000));
    fill(obj, 500, 0xfeed);
    let garbage = make_garbage(10_000);
    let before = gimso_gc_cycles();
    for _ in 0..5 {
        gimso_gc_collect();
        make_garbage(10_000);
    }
    assert!(gimso_gc_cycles() >= before + 5);
    assert!(
        intact(black_box(obj), 500, 0xfeed),
        "stack-held object was reclaimed"
    );
    assert_eq!(gimso_lookup(obj.intval() + 100).lower(), obj.lower());
    // The last garbage object of the first batch is gone (slot freed or
    // reused by another object).
    let _ = garbage;
}
