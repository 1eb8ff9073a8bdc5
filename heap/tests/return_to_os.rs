//! Empty pages go back to the OS: after a sweep with nothing marked, all but
//! the retained pages are decommitted, and `trim` decommits the rest. Checked
//! with `mincore` and with `stats().committed_bytes`.

use std::collections::BTreeSet;

use gimso_heap::{CHUNK_SIZE, Heap, LocalHeap, PAGE_SIZE, lookup};

/// Resident 4 KiB pages among the slot pages (1..) of the given chunks.
fn resident_pages(chunks: &BTreeSet<usize>) -> usize {
    let len = CHUNK_SIZE - PAGE_SIZE;
    let mut vec = vec![0u8; len / 4096];
    let mut total = 0;
    for &chunk in chunks {
        // SAFETY: chunks are mapped for the life of the process; mincore only
        // writes `vec`, which has one byte per 4 KiB page of the range.
        let r = unsafe {
            libc::mincore(
                (chunk + PAGE_SIZE) as *mut libc::c_void,
                len,
                vec.as_mut_ptr(),
            )
        };
        assert_eq!(r, 0, "mincore failed");
        total += vec.iter().filter(|&&b| b & 1 != 0).count();
    }
    total
}

#[test]
fn sweep_and_trim_release_memory() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let size = 1024;
    let mut chunks = BTreeSet::new();
    let mut objs = Vec::new();
    let target = 64 << 20;
    let mut bytes = 0;
    while bytes < target {
        let p = local.alloc(size).as_ptr();
        // SAFETY: fresh slot of >= size bytes; touching it makes it resident.
        unsafe { core::ptr::write_bytes(p, 0x11, size) };
        chunks.insert(p as usize & !(CHUNK_SIZE - 1));
        objs.push(p as usize);
        bytes += size;
    }
    drop(local);
    let full = heap.stats();
    assert!(full.committed_bytes >= target, "{full:?}");
    assert!(full.chunks >= 16);
    let resident_before = resident_pages(&chunks);
    assert!(
        resident_before * 4096 >= target,
        "pages were never resident: {resident_before}"
    );

    let st = heap.sweep();
    assert_eq!(st.freed_slots, objs.len());
    assert!(st.pages_released * PAGE_SIZE >= target);
    assert!(objs.iter().all(|&p| lookup(p).is_none()));
    let swept = heap.stats();
    assert!(swept.retained_bytes <= gimso_heap::DEFAULT_RETAIN_BYTES);
    assert_eq!(swept.committed_bytes, swept.retained_bytes);
    let resident_swept = resident_pages(&chunks);
    assert!(
        resident_swept * 4096 <= gimso_heap::DEFAULT_RETAIN_BYTES,
        "after sweep {resident_swept} pages still resident"
    );

    heap.trim();
    let trimmed = heap.stats();
    assert_eq!(trimmed.committed_bytes, 0, "{trimmed:?}");
    assert_eq!(trimmed.retained_bytes, 0);
    assert_eq!(resident_pages(&chunks), 0, "trim left pages resident");
}

#[test]
fn retain_limit_is_settable() {
    let heap = Heap::new();
    heap.set_retain_bytes(16 * PAGE_SIZE);
    let mut local = LocalHeap::new(heap);
    for _ in 0..(64 * PAGE_SIZE / 512) {
        local.alloc(500);
    }
    drop(local);
    heap.sweep();
    assert_eq!(heap.stats().retained_bytes, 16 * PAGE_SIZE);
    heap.set_retain_bytes(4 * PAGE_SIZE);
    assert_eq!(heap.stats().retained_bytes, 4 * PAGE_SIZE);
    assert_eq!(heap.stats().committed_bytes, 4 * PAGE_SIZE);
    heap.set_retain_bytes(0);
    assert_eq!(heap.stats().committed_bytes, 0);
}
