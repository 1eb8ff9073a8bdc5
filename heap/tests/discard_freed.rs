//! `discard_freed_payload`: a freed large object's payload pages go back to
//! the OS at once (checked with `mincore`), its first page (the header's) and
//! the slot stay; small objects and payloads under `DISCARD_MIN` are left
//! alone, and so are their neighbours' bytes.

use gimso_heap::{DISCARD_MIN, HEADER_SIZE, Heap, LocalHeap, discard_freed_payload, lookup};

const PAGE: usize = 4096;

/// Resident pages in `[addr, addr + len)` (both page-aligned).
fn resident(addr: usize, len: usize) -> usize {
    let mut vec = vec![0u8; len / PAGE];
    // SAFETY: the range is mapped (a live slot); mincore only writes `vec`,
    // one byte per page of the range.
    let r = unsafe { libc::mincore(addr as *mut libc::c_void, len, vec.as_mut_ptr()) };
    assert_eq!(r, 0, "mincore failed");
    vec.iter().filter(|&&b| b & 1 != 0).count()
}

#[test]
fn large_payload_pages_return_and_the_header_page_stays() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let size = 4 << 20;
    let start = local.alloc(HEADER_SIZE + size).as_ptr() as usize;
    let lower = start + HEADER_SIZE;
    // SAFETY: a fresh slot of at least HEADER_SIZE + size bytes.
    unsafe { core::ptr::write_bytes(start as *mut u8, 0x5a, HEADER_SIZE + size) };
    let pages = (HEADER_SIZE + size).div_ceil(PAGE);
    assert_eq!(resident(start, pages * PAGE), pages);

    // SAFETY: nothing reads the payload as data after this point; the slot
    // stays allocated (nothing sweeps).
    unsafe { discard_freed_payload(lower, lower + size) };
    // The header's page (shared with the payload's first bytes) stays, and
    // so does the last, partly covered, page; the rest is gone.
    assert_eq!(resident(start, pages * PAGE), 2);
    // SAFETY: the header is in the slot's first page, which was kept.
    assert_eq!(unsafe { *(start as *const u8) }, 0x5a);
    assert!(lookup(lower).is_some(), "the slot stays allocated");
}

#[test]
fn small_objects_and_short_payloads_are_left_alone() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);

    // A small object: its slot shares pages with neighbours.
    let small = local.alloc(4096).as_ptr() as usize;
    let neighbour = local.alloc(4096).as_ptr() as usize;
    // SAFETY: fresh slots of at least 4096 bytes each.
    unsafe {
        core::ptr::write_bytes(small as *mut u8, 1, 4096);
        core::ptr::write_bytes(neighbour as *mut u8, 2, 4096);
    }
    // SAFETY: the small object is taken as freed; its bytes are unused.
    unsafe { discard_freed_payload(small + HEADER_SIZE, small + 4096) };
    // SAFETY: both slots are still allocated and mapped.
    unsafe {
        assert_eq!(*((small + 2048) as *const u8), 1);
        assert_eq!(*((neighbour + 2048) as *const u8), 2);
    }

    // A large object whose payload is under the threshold.
    let len = DISCARD_MIN - PAGE;
    let start = local.alloc(HEADER_SIZE + len).as_ptr() as usize;
    // SAFETY: a fresh slot of at least HEADER_SIZE + len bytes.
    unsafe { core::ptr::write_bytes(start as *mut u8, 3, HEADER_SIZE + len) };
    let pages = (HEADER_SIZE + len).div_ceil(PAGE);
    // SAFETY: as above, for the short payload.
    unsafe { discard_freed_payload(start + HEADER_SIZE, start + HEADER_SIZE + len) };
    assert_eq!(resident(start, pages * PAGE), pages);
}
