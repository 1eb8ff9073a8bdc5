//! One thread sweeps repeatedly while others allocate, write, look up and
//! keep some objects alive by marking them: no crash, no corruption, and
//! every kept object survives with its contents.

use core::ptr::NonNull;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use gimso_heap::{Heap, LocalHeap, MAX_SMALL_SLOT, lookup, mark};

const THREADS: usize = 3;

fn byte_for(addr: usize) -> u8 {
    ((addr >> 4) as u8) | 1
}

/// Checks the first and last 32 bytes of a kept object.
fn check(addr: usize, size: usize) {
    let b = byte_for(addr);
    let n = size.min(32);
    // SAFETY: the object is kept alive (registered and marked before every
    // sweep), so it stays mapped and allocated.
    let head = unsafe { core::slice::from_raw_parts(addr as *const u8, n) };
    // SAFETY: as above.
    let tail = unsafe { core::slice::from_raw_parts((addr + size - n) as *const u8, n) };
    assert!(
        head.iter().chain(tail).all(|&x| x == b),
        "kept object {addr:#x} corrupted"
    );
}

fn write(addr: usize, size: usize) {
    // SAFETY: fresh slot of >= size bytes, zeroed.
    let s = unsafe { core::slice::from_raw_parts_mut(addr as *mut u8, size) };
    assert!(
        s[..size.min(64)].iter().all(|&x| x == 0),
        "fresh slot {addr:#x} not zeroed"
    );
    s.fill(byte_for(addr));
}

#[test]
fn sweeping_while_allocating() {
    let heap = Heap::new();
    heap.set_retain_bytes(8 * 65_536);
    // Per thread: the objects it keeps alive. The sweeper marks them all
    // under this lock right before sweeping, playing the collector.
    let registry: Mutex<Vec<Vec<(usize, usize)>>> = Mutex::new(vec![Vec::new(); THREADS]);
    let stop = AtomicBool::new(false);
    let deadline = Instant::now() + Duration::from_secs(3);
    std::thread::scope(|s| {
        let sweeper = s.spawn(|| {
            let mut sweeps = 0;
            let mut freed = 0;
            while !stop.load(Ordering::Relaxed) {
                {
                    let reg = registry.lock().unwrap();
                    for &(addr, _) in reg.iter().flatten() {
                        // SAFETY: registered objects are live slot starts.
                        unsafe { mark(NonNull::new(addr as *mut u8).unwrap()) };
                    }
                    freed += heap.sweep().freed_slots;
                    for &(addr, size) in reg.iter().flatten() {
                        assert_eq!(
                            lookup(addr + size - 1).map(|s| s.start.as_ptr() as usize),
                            Some(addr),
                            "kept object lost by sweep"
                        );
                    }
                }
                sweeps += 1;
                if sweeps % 8 == 0 {
                    heap.trim();
                }
                std::thread::yield_now();
            }
            (sweeps, freed)
        });
        for t in 0..THREADS {
            let registry = &registry;
            s.spawn(move || {
                let mut local = LocalHeap::new(heap);
                let mut rng = 0x9E37_79B9_7F4A_7C15u64 ^ (t as u64 + 1);
                let mut next = move || {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    rng
                };
                let mut i = 0u64;
                while Instant::now() < deadline {
                    i += 1;
                    let r = next();
                    let size = if r % 500 == 0 {
                        9_000 + (r >> 20) as usize % 100_000
                    } else {
                        16 + (r >> 8) as usize % 2000
                    };
                    let large = size > MAX_SMALL_SLOT;
                    // Large objects are in the heap's list from birth, so they
                    // are allocated "black": under the registry lock, marked
                    // before any sweep can see them.
                    let guard = if large {
                        Some(registry.lock().unwrap())
                    } else {
                        None
                    };
                    let addr = local.alloc(size).as_ptr() as usize;
                    write(addr, size);
                    let keep = r % 7 == 0 || large;
                    if keep {
                        let mut reg = guard.unwrap_or_else(|| registry.lock().unwrap());
                        // SAFETY: fresh slot start; its page is still owned
                        // by `local`, so no sweep has seen it yet.
                        unsafe { mark(NonNull::new(addr as *mut u8).unwrap()) };
                        reg[t].push((addr, size));
                    } else {
                        drop(guard);
                    }
                    // Look up own kept objects and some random addresses.
                    let mine = registry.lock().unwrap()[t].clone();
                    if !mine.is_empty() {
                        let (a, sz) = mine[(r >> 32) as usize % mine.len()];
                        let off = (r >> 40) as usize % sz;
                        assert_eq!(lookup(a + off).map(|s| s.start.as_ptr() as usize), Some(a));
                        check(a, sz);
                    }
                    let _ = lookup(
                        addr.wrapping_add((r as usize) % (1 << 24))
                            .wrapping_sub(1 << 23),
                    );
                    let _ = lookup(r as usize);
                    // Drop some kept objects so sweeps have garbage with
                    // survivors on the same pages.
                    if i & 63 == 0 {
                        let mut reg = registry.lock().unwrap();
                        let n = reg[t].len();
                        if n > 200 {
                            reg[t].drain(..n / 2);
                        }
                    }
                }
                // Final check of everything still kept.
                for &(a, sz) in registry.lock().unwrap()[t].iter() {
                    check(a, sz);
                }
                drop(local);
            });
        }
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
        let (sweeps, freed) = sweeper.join().unwrap();
        assert!(sweeps > 3, "sweeper starved: {sweeps}");
        assert!(freed > 0, "nothing was ever freed");
    });
    // Everything kept survives a final collection; the rest goes.
    let reg = registry.into_inner().unwrap();
    for &(addr, _) in reg.iter().flatten() {
        // SAFETY: kept objects are live slot starts.
        unsafe { mark(NonNull::new(addr as *mut u8).unwrap()) };
    }
    heap.sweep();
    for &(addr, size) in reg.iter().flatten() {
        check(addr, size);
        assert!(lookup(addr).is_some());
    }
}
