//! Large objects: own mapping, found by interior lookup, freed by sweep when
//! unmarked (after which lookup returns `None`), kept when marked.

use core::ptr::NonNull;

use gimso_heap::{Heap, LocalHeap, is_marked, lookup, mark};

#[test]
fn alloc_lookup_sweep() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    let sizes = [16_401, 20_345, 1 << 20, (4 << 20) + 1, 10 << 20];
    let mut objs = Vec::new();
    for &size in &sizes {
        let p = local.alloc(size).as_ptr();
        assert_eq!(p as usize % 4096, 0);
        let slot = lookup(p as usize).unwrap();
        assert!(slot.size >= size && slot.size & 4095 == 0);
        // SAFETY: fresh large slot of slot.size bytes.
        let s = unsafe { core::slice::from_raw_parts_mut(p, slot.size) };
        assert!(s.iter().all(|&b| b == 0));
        s.fill(0x5a);
        assert_eq!(lookup(p as usize + size - 1), Some(slot));
        assert_eq!(lookup(p as usize + size / 3), Some(slot));
        objs.push((p, slot));
    }
    let before = heap.stats();
    assert_eq!(before.large_objects, sizes.len());
    assert_eq!(
        before.large_bytes,
        objs.iter().map(|o| o.1.size).sum::<usize>()
    );
    assert!(before.committed_bytes >= before.large_bytes);

    // Keep the odd ones.
    for (i, &(p, _)) in objs.iter().enumerate() {
        if i % 2 == 1 {
            // SAFETY: `p` is a live slot start returned by alloc.
            assert!(unsafe { mark(NonNull::new(p).unwrap()) });
            // SAFETY: as above.
            let again = unsafe { mark(NonNull::new(p).unwrap()) };
            assert!(!again, "second mark is not new");
        }
    }
    let st = heap.sweep();
    assert_eq!(st.freed_slots, 3);
    assert_eq!(
        st.freed_bytes,
        objs[0].1.size + objs[2].1.size + objs[4].1.size
    );
    assert_eq!(st.live_bytes, objs[1].1.size + objs[3].1.size);
    for (i, &(p, slot)) in objs.iter().enumerate() {
        let a = p as usize;
        if i % 2 == 1 {
            assert_eq!(lookup(a + 100), Some(slot));
            // SAFETY: survived the sweep.
            let marked = unsafe { is_marked(NonNull::new(p).unwrap()) };
            assert!(!marked, "sweep clears marks");
            // SAFETY: survived the sweep, so still mapped.
            let s = unsafe { core::slice::from_raw_parts(p, slot.size) };
            assert!(s.iter().all(|&b| b == 0x5a));
        } else {
            assert_eq!(lookup(a), None);
            assert_eq!(lookup(a + slot.size - 1), None);
        }
    }
    let after = heap.stats();
    assert_eq!(after.large_objects, 2);
    assert_eq!(
        before.committed_bytes - after.committed_bytes,
        st.freed_bytes
    );

    // The second sweep frees the rest (marks were cleared).
    let st = heap.sweep();
    assert_eq!(st.freed_slots, 2);
    assert_eq!(heap.stats().large_objects, 0);
    assert_eq!(heap.stats().large_bytes, 0);
    for &(p, _) in &objs {
        assert_eq!(lookup(p as usize), None);
    }
}
