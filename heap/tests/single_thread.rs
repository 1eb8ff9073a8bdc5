//! Single-threaded allocation of every size class and of large sizes: slots
//! are zeroed, 16-aligned, big enough, distinct, non-overlapping, writable,
//! and `lookup` finds them.

use gimso_heap::{
    Heap, LocalHeap, MAX_SMALL_SLOT, NUM_CLASSES, class_slot_size, lookup, size_class_of,
};

fn check_zero_and_fill(p: *mut u8, len: usize, byte: u8) {
    // SAFETY: `p` is a fresh slot of at least `len` bytes owned by this test.
    let s = unsafe { core::slice::from_raw_parts_mut(p, len) };
    assert!(s.iter().all(|&b| b == 0), "slot at {p:p} not zeroed");
    s.fill(byte);
}

#[test]
fn every_class_and_large_sizes() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let mut ranges: Vec<(usize, usize, u8)> = Vec::new();
    let mut sizes: Vec<usize> = vec![0, 1, 15, 16, 17, 31, 32, 33];
    for c in 0..NUM_CLASSES {
        let s = class_slot_size(c);
        sizes.extend([s - 1, s, s + 1]);
    }
    sizes.extend([
        MAX_SMALL_SLOT + 1,
        20_000,
        65_536,
        1 << 20,
        (4 << 20) + 3,
        9 << 20,
    ]);
    for (n, &size) in sizes.iter().enumerate() {
        // Enough of each to span several pages for the small classes.
        let count = if size <= MAX_SMALL_SLOT {
            3 * 65_536 / size.max(32) + 3
        } else {
            2
        };
        for k in 0..count {
            let p = local.alloc(size).as_ptr();
            let addr = p as usize;
            assert_eq!(addr % 16, 0, "size {size}: {p:p} not 16-aligned");
            let slot = lookup(addr).expect("fresh slot not found by lookup");
            assert_eq!(slot.start.as_ptr(), p);
            assert!(
                slot.size >= size.max(32),
                "size {size}: slot of {} bytes",
                slot.size
            );
            if let Some(c) = size_class_of(size) {
                assert_eq!(slot.size, class_slot_size(c));
            }
            let byte = (n as u8).wrapping_mul(31).wrapping_add(k as u8) | 1;
            check_zero_and_fill(p, slot.size, byte);
            ranges.push((addr, slot.size, byte));
        }
    }
    ranges.sort_unstable();
    for w in ranges.windows(2) {
        assert!(
            w[0].0 + w[0].1 <= w[1].0,
            "slots {:#x}+{} and {:#x} overlap",
            w[0].0,
            w[0].1,
            w[1].0
        );
    }
    for &(addr, len, byte) in &ranges {
        // SAFETY: the slot is still allocated (nothing was swept).
        let s = unsafe { core::slice::from_raw_parts(addr as *const u8, len) };
        assert!(
            s.iter().all(|&b| b == byte),
            "slot {addr:#x} was overwritten"
        );
    }
    let stats = heap.stats();
    assert!(stats.chunks >= 1);
    let large = sizes.iter().filter(|&&s| s > MAX_SMALL_SLOT).count() * 2;
    assert_eq!(stats.large_objects, large);
}

#[test]
fn size_class_table() {
    assert_eq!(NUM_CLASSES, 40);
    assert_eq!(class_slot_size(0), 32);
    assert_eq!(class_slot_size(15), 272);
    assert_eq!(class_slot_size(16), 336);
    assert_eq!(class_slot_size(NUM_CLASSES - 1), 16400);
    assert_eq!(size_class_of(0), Some(0));
    assert_eq!(size_class_of(16400), Some(NUM_CLASSES - 1));
    assert_eq!(size_class_of(16401), None);
    assert_eq!(size_class_of(usize::MAX), None);
    for size in 0..=MAX_SMALL_SLOT {
        let c = size_class_of(size).unwrap();
        assert!(class_slot_size(c) >= size);
        assert!(
            c == 0 || class_slot_size(c - 1) < size,
            "size {size} not in smallest class"
        );
    }
    let payloads: Vec<usize> = (0..NUM_CLASSES).map(|c| class_slot_size(c) - 16).collect();
    let expected: Vec<usize> = (1..=16)
        .map(|i| i * 16)
        .chain([
            320, 384, 448, 512, 640, 768, 896, 1024, 1280, 1536, 1792, 2048,
        ])
        .chain([2560, 3072, 3584, 4096, 5120, 6144, 7168, 8192])
        .chain([10240, 12288, 14336, 16384])
        .collect();
    assert_eq!(payloads, expected);
}
