//! `marked_at`: the mark of the slot holding any address inside it, small
//! or large, from the heap's own tables; false outside the heap.

use gimso_heap::{Heap, LocalHeap, mark, marked_at};

#[test]
fn marked_at_follows_the_mark_of_the_slot() {
    let heap = Heap::new();
    let mut local = LocalHeap::new(heap);
    for size in [48, 4096, 1 << 20] {
        let a = local.alloc(size);
        let b = local.alloc(size);
        let (a_addr, b_addr) = (a.as_ptr() as usize, b.as_ptr() as usize);
        assert!(
            !marked_at(a_addr) && !marked_at(a_addr + size / 2),
            "{size}"
        );
        // SAFETY: both slots were just allocated and not swept.
        assert!(unsafe { mark(a) });
        assert!(marked_at(a_addr), "{size}");
        assert!(marked_at(a_addr + size - 1), "interior address, {size}");
        assert!(
            !marked_at(b_addr),
            "the neighbour keeps its own mark, {size}"
        );
    }
    let on_stack = 0u64;
    assert!(!marked_at(&on_stack as *const u64 as usize));
    assert!(!marked_at(0));
    assert!(!marked_at(usize::MAX - 15));
}
