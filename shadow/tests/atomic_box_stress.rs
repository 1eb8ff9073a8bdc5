//! The atomic-box protocol through the runtime's own API (heap-allocated
//! boxes, bounds checks, lazy aux), hammered by 4 threads.
//!
//! Each writer stores values `V_k = (lower_k + 8k, lower_k)`, so a result's
//! intval tells which store it came from and can be matched to its lower.

mod common;

use std::sync::Barrier;

use common::*;
use gimso_abi::FlightPtr;
use gimso_heap::{Heap, LocalHeap};
use gimso_shadow::pointer::{atomic_load_ptr, atomic_store_ptr, cmpxchg_ptr, xchg_ptr};

const THREADS: usize = 4;
const ITERS: usize = 200_000;

struct Values(Vec<FlightPtr>);

impl Values {
    fn new(l: &mut LocalHeap) -> Values {
        Values(
            (0..=THREADS)
                .map(|k| alloc(l, 64).offset(8 * k as isize))
                .collect(),
        )
    }
    fn whole(&self, p: FlightPtr) -> bool {
        self.0.contains(&p)
    }
    fn real_cap(&self, p: FlightPtr) -> bool {
        self.0.iter().any(|v| v.lower() == p.lower())
    }
    fn real_intval(&self, p: FlightPtr) -> bool {
        self.0.iter().any(|v| v.intval() == p.intval())
    }
}

fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

fn hammer(with_plain_stores: bool) {
    let heap = Heap::new();
    let mut l = LocalHeap::new(heap);
    let vals = Values::new(&mut l);
    let slot = alloc(&mut l, 16).offset(8);
    store(&mut l, slot, vals.0[THREADS]);
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for k in 0..THREADS {
            let (vals, barrier) = (&vals, &barrier);
            s.spawn(move || {
                let mut l = LocalHeap::new(heap);
                let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ (k as u64 + 1);
                let mine = vals.0[k];
                barrier.wait();
                for _ in 0..ITERS {
                    match xorshift(&mut seed) % 6 {
                        0 => atomic_store_ptr(&mut l, slot, mine, HERE),
                        1 => {
                            let old = xchg_ptr(&mut l, slot, mine, HERE);
                            assert!(with_plain_stores || vals.whole(old), "xchg tore: {old:?}");
                            assert!(vals.real_cap(old) && vals.real_intval(old));
                        }
                        2 => {
                            let expected = vals.0[xorshift(&mut seed) as usize % (THREADS + 1)];
                            let r = cmpxchg_ptr(&mut l, slot, expected.intval(), mine, false, HERE);
                            assert_eq!(
                                r.success == 1,
                                r.old.intval() == expected.intval(),
                                "{r:?}"
                            );
                            assert!(
                                with_plain_stores || vals.whole(r.old),
                                "cmpxchg tore: {r:?}"
                            );
                        }
                        3 => {
                            let p = atomic_load_ptr(slot, HERE);
                            assert!(
                                with_plain_stores || vals.whole(p),
                                "atomic load tore: {p:?}"
                            );
                            assert!(vals.real_cap(p) && vals.real_intval(p), "{p:?}");
                        }
                        4 if with_plain_stores => store(&mut l, slot, mine),
                        _ => {
                            let p = load(slot);
                            assert!(vals.real_cap(p) && vals.real_intval(p), "plain load: {p:?}");
                        }
                    }
                }
            });
        }
    });
    assert!(vals.whole(atomic_load_ptr(slot, HERE)));
}

#[test]
fn atomic_ops_never_tear() {
    hammer(false);
}

#[test]
fn plain_stores_racing_atomics_only_yield_real_capabilities() {
    hammer(true);
}
