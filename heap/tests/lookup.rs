//! `lookup` finds the allocated slot for every interior address, and `None`
//! for everything that is not an allocated slot.

use gimso_heap::{CHUNK_SIZE, Heap, LocalHeap, PAGE_SIZE, class_slot_size, lookup};

#[test]
fn interior_addresses_of_small_and_large_slots() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let small = [32, 48, 100, 272, 1000, 8208, 8209, 16_400];
    let large = [16_401, 100_000, 5 << 20];
    for size in small.into_iter().chain(large) {
        for _ in 0..5 {
            let p = local.alloc(size).as_ptr() as usize;
            let slot = lookup(p).unwrap();
            assert_eq!(slot.start.as_ptr() as usize, p);
            for off in [0, 1, 15, 16, size / 2, size - 1, slot.size - 1] {
                let got = lookup(p + off).unwrap_or_else(|| panic!("{p:#x}+{off} not found"));
                assert_eq!(got, slot, "interior {p:#x}+{off}");
            }
            // One past the end is either nothing or the next slot.
            if let Some(next) = lookup(p + slot.size) {
                assert_eq!(next.start.as_ptr() as usize, p + slot.size);
            }
        }
    }
}

#[test]
fn foreign_and_free_addresses() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let stack_var = 7u64;
    let boxed = Box::new([0u8; 64]);
    assert_eq!(lookup(&stack_var as *const u64 as usize), None);
    assert_eq!(lookup(boxed.as_ptr() as usize), None);
    assert_eq!(lookup(boxed.as_ptr() as usize + 63), None);
    for addr in [
        0,
        1,
        16,
        4096,
        usize::MAX,
        usize::MAX - 15,
        1 << 47,
        (1 << 47) - 1,
        1 << 63,
    ] {
        assert_eq!(lookup(addr), None, "{addr:#x}");
    }
    assert_eq!(lookup(lookup as fn(usize) -> _ as usize), None);

    // Free slots right after the last allocation in a fresh page.
    let p = local.alloc(64).as_ptr() as usize;
    let size = class_slot_size(gimso_heap::size_class_of(64).unwrap());
    assert_eq!(lookup(p + size), None, "next slot is free");
    assert_eq!(lookup(p + 5 * size + 3), None, "interior of a free slot");
    // The end of the page (past the last whole slot or in free slots).
    let page = p & !(PAGE_SIZE - 1);
    assert_eq!(lookup(page + PAGE_SIZE - 1), None);

    // Page 0 of the chunk holds metadata: never a slot.
    let chunk = p & !(CHUNK_SIZE - 1);
    for off in [0, 8, 64, 1000, PAGE_SIZE - 1] {
        assert_eq!(lookup(chunk + off), None, "metadata page offset {off}");
    }
    // Pages of the chunk not handed out yet.
    assert_eq!(lookup(chunk + CHUNK_SIZE - 16), None);

    // Past the end of a large object that is not a multiple of 4 MiB.
    let big = local.alloc(100_000).as_ptr() as usize;
    let slot = lookup(big).unwrap();
    assert_eq!(lookup(big + slot.size), None);
    assert_eq!(lookup(big + CHUNK_SIZE - 1), None);
    assert_eq!(lookup(big - 1), None);
    drop(boxed);
}
