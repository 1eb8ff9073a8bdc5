//! Four threads allocate from one heap with their own caches and write
//! patterns; afterwards every pattern is intact and no two slots overlap.

use std::sync::Barrier;

use gimso_heap::{Heap, LocalHeap, lookup};

fn pattern(addr: usize, i: usize) -> u8 {
    ((addr >> 4) as u8) ^ (i as u8)
}

#[test]
fn four_threads_allocate_and_write() {
    let heap = Heap::new();
    let barrier = Barrier::new(4);
    let all: Vec<Vec<(usize, usize)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let barrier = &barrier;
                s.spawn(move || {
                    let mut local = LocalHeap::new(heap);
                    let mut mine = Vec::new();
                    barrier.wait();
                    for i in 0..40_000usize {
                        let size = match i % 97 {
                            0 if i % 3 == t => 20_000 + i,
                            _ => 16 + (i * 7 + t * 13) % 600,
                        };
                        let p = local.alloc(size).as_ptr();
                        // SAFETY: fresh slot of >= size bytes owned by this thread.
                        let s = unsafe { core::slice::from_raw_parts_mut(p, size) };
                        assert!(s.iter().all(|&b| b == 0));
                        for (k, b) in s.iter_mut().enumerate() {
                            *b = pattern(p as usize, k);
                        }
                        mine.push((p as usize, size));
                    }
                    // Verify before the cache is dropped, and again after.
                    mine
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut ranges: Vec<(usize, usize)> = all.into_iter().flatten().collect();
    for &(addr, size) in &ranges {
        // SAFETY: nothing was swept, so every slot is still allocated.
        let s = unsafe { core::slice::from_raw_parts(addr as *const u8, size) };
        for (k, &b) in s.iter().enumerate() {
            assert_eq!(b, pattern(addr, k), "slot {addr:#x} byte {k} corrupted");
        }
        assert_eq!(
            lookup(addr + size - 1).map(|s| s.start.as_ptr() as usize),
            Some(addr)
        );
    }
    ranges.sort_unstable();
    for w in ranges.windows(2) {
        assert!(
            w[0].0 + w[0].1 <= w[1].0,
            "slots {:#x} and {:#x} overlap",
            w[0].0,
            w[1].0
        );
    }
    assert_eq!(ranges.len(), 160_000);
}
