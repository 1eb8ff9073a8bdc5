//! `free` racing pointer stores (which create aux allocations) and other
//! frees of the same objects: every object ends up freed with
//! `upper == lower`, and nothing crashes.

mod common;

use std::sync::Barrier;

use common::*;
use gimso_abi::FlightPtr;
use gimso_heap::{Heap, LocalHeap};
use std::sync::atomic::Ordering;

use gimso_shadow::ObjRef;
use gimso_shadow::alloc::ensure_aux;
use gimso_shadow::check::{Access, access_ok};
use gimso_shadow::free::{classify_free, free};

const OBJECTS: usize = 2000;

#[test]
fn free_racing_pointer_stores() {
    let heap = Heap::new();
    let mut l = LocalHeap::new(heap);
    let objs: Vec<FlightPtr> = (0..OBJECTS).map(|_| alloc(&mut l, 64)).collect();
    let target = alloc(&mut l, 8);
    let barrier = Barrier::new(3);
    std::thread::scope(|s| {
        // Two storers race the freer on every object's aux word.
        for t in 0..2 {
            let (objs, barrier) = (&objs, &barrier);
            s.spawn(move || {
                let mut l = LocalHeap::new(heap);
                barrier.wait();
                for (i, o) in objs.iter().enumerate() {
                    // SAFETY: runtime-issued capability.
                    let obj = unsafe { ObjRef::from_lower(o.lower()) };
                    // What a pointer store does after its check passed:
                    // create the aux allocation and write a shadow word.
                    if let Some(aux) = ensure_aux(&mut l, obj) {
                        // SAFETY: the aux has one word per payload word (8).
                        let word = unsafe { &*aux.add((i + t) % 8) };
                        word.store(target.lower(), Ordering::Release);
                    }
                }
            });
        }
        let (objs, barrier) = (&objs, &barrier);
        s.spawn(move || {
            barrier.wait();
            for o in objs {
                free(*o);
            }
        });
    });
    for o in &objs {
        // SAFETY: runtime-issued capability.
        let obj = unsafe { ObjRef::from_lower(o.lower()) };
        assert!(obj.is_free());
        assert_eq!(obj.upper(), obj.lower());
        assert!(!access_ok(*o, Access::read(1)));
        assert_eq!(
            classify_free(*o),
            Some(gimso_shadow::report::SafetyError::DoubleFree)
        );
    }
}
