//! Marked slots survive a sweep with their contents; unmarked ones are
//! freed, disappear from lookup, and are handed out again zeroed.

use core::ptr::NonNull;
use std::collections::HashSet;

use gimso_heap::{Heap, LocalHeap, is_marked, lookup, mark};

fn fill(p: usize, len: usize, byte: u8) {
    // SAFETY: `p` is a live slot of at least `len` bytes owned by the test.
    unsafe { core::ptr::write_bytes(p as *mut u8, byte, len) };
}

fn all_eq(p: usize, len: usize, byte: u8) -> bool {
    // SAFETY: `p` is a mapped slot of at least `len` bytes.
    unsafe { core::slice::from_raw_parts(p as *const u8, len) }
        .iter()
        .all(|&b| b == byte)
}

#[test]
fn marked_survive_unmarked_are_freed_and_reused_zeroed() {
    let heap = Heap::new();
    let size = 80;
    let mut local = LocalHeap::new(heap);
    let objs: Vec<usize> = (0..10_000)
        .map(|_| local.alloc(size).as_ptr() as usize)
        .collect();
    let slot_size = lookup(objs[0]).unwrap().size;
    for (i, &p) in objs.iter().enumerate() {
        fill(p, slot_size, if i % 3 == 0 { 0xAA } else { 0xDD });
        if i % 3 == 0 {
            // SAFETY: live slot start.
            assert!(unsafe { mark(NonNull::new(p as *mut u8).unwrap()) });
        }
    }
    // SAFETY: live slot start.
    assert!(unsafe { is_marked(NonNull::new(objs[0] as *mut u8).unwrap()) });
    // SAFETY: live slot start.
    assert!(!unsafe { is_marked(NonNull::new(objs[1] as *mut u8).unwrap()) });
    local.flush();

    let st = heap.sweep();
    let kept = objs.len().div_ceil(3);
    assert_eq!(st.freed_slots, objs.len() - kept);
    assert_eq!(st.freed_bytes, (objs.len() - kept) * slot_size);
    assert_eq!(st.live_bytes, kept * slot_size);
    assert_eq!(st.pages_released, 0);

    let mut freed = HashSet::new();
    for (i, &p) in objs.iter().enumerate() {
        if i % 3 == 0 {
            assert!(lookup(p + 5).is_some());
            assert!(
                all_eq(p, slot_size, 0xAA),
                "survivor {p:#x} lost its contents"
            );
            // SAFETY: survivor.
            assert!(!unsafe { is_marked(NonNull::new(p as *mut u8).unwrap()) });
        } else {
            assert_eq!(lookup(p), None);
            assert_eq!(lookup(p + slot_size - 1), None);
            freed.insert(p);
        }
    }

    // New allocations of the class reuse the freed slots, zeroed.
    let mut local = LocalHeap::new(heap);
    let mut reused = 0;
    for _ in 0..(objs.len() - kept) {
        let p = local.alloc(size).as_ptr() as usize;
        assert!(all_eq(p, slot_size, 0), "reused slot {p:#x} not zeroed");
        if freed.contains(&p) {
            reused += 1;
        }
    }
    // Only the never-used tail of the last page may be taken instead.
    let per_page = 65_536 / slot_size;
    assert!(
        reused + per_page >= objs.len() - kept,
        "freed slots should be reused: {reused}"
    );
}

#[test]
fn empty_pages_are_reused_zeroed() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let objs: Vec<usize> = (0..5_000)
        .map(|_| local.alloc(200).as_ptr() as usize)
        .collect();
    let slot_size = lookup(objs[0]).unwrap().size;
    for &p in &objs {
        fill(p, slot_size, 0xEE);
    }
    drop(local);
    let st = heap.sweep();
    assert_eq!(st.freed_slots, objs.len());
    assert_eq!(st.live_bytes, 0);
    assert!(st.pages_released >= objs.len() * slot_size / 65_536);
    assert!(objs.iter().all(|&p| lookup(p).is_none()));

    // Retained pages come back (to any class) and must be zero.
    let before: HashSet<usize> = objs.iter().map(|&p| p & !0xFFFF).collect();
    let mut local = LocalHeap::new(heap);
    let mut hits = 0;
    for _ in 0..2_000 {
        let p = local.alloc(1000).as_ptr() as usize;
        let n = lookup(p).unwrap().size;
        assert!(all_eq(p, n, 0), "slot {p:#x} in a reused page is dirty");
        hits += before.contains(&(p & !0xFFFF)) as usize;
    }
    assert!(hits > 0, "empty pages were not reused");
}

#[test]
fn owned_pages_are_not_swept() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let p = local.alloc(32).as_ptr() as usize;
    let st = heap.sweep();
    assert_eq!(st.freed_slots, 0);
    assert!(lookup(p).is_some(), "slot in an owned page must survive");
    local.flush();
    assert_eq!(heap.sweep().freed_slots, 1);
    assert_eq!(lookup(p), None);
}

#[test]
fn freed_slots_are_zeroed_by_the_allocating_thread_even_across_caches() {
    let heap = Heap::new();
    let size = 48;
    let mut local = LocalHeap::new(heap);
    let objs: Vec<usize> = (0..4_000)
        .map(|_| local.alloc(size).as_ptr() as usize)
        .collect();
    let slot_size = lookup(objs[0]).unwrap().size;
    for &p in &objs {
        fill(p, slot_size, 0xDD);
    }
    local.flush();
    heap.sweep();
    // The sweep only marks the slots dirty: their memory is left alone
    // (it is zeroed on the allocating thread's core, when reused).
    assert!(objs.iter().all(|&p| all_eq(p, slot_size, 0xDD)));
    // A cache that takes a few slots of a word and gives the page back
    // must leave the rest dirty for the next cache: every slot handed out
    // is zero, whichever cache hands it out.
    for round in 0..50 {
        let mut local = LocalHeap::new(heap);
        for _ in 0..(round % 7 + 1) {
            let p = local.alloc(size).as_ptr() as usize;
            assert!(all_eq(p, slot_size, 0), "slot {p:#x} handed out dirty");
            fill(p, slot_size, 0xEE);
        }
        local.flush();
    }
}
