//! What the collector needs from the heap: clearing all marks, black
//! allocation, and allocation accounting with a pressure hook.
//! (One test: black allocation is a process-wide switch.)

use std::sync::atomic::{AtomicUsize, Ordering};

use gimso_heap::{Heap, LocalHeap, is_marked, mark, set_allocate_black};

static HOOK_CALLS: AtomicUsize = AtomicUsize::new(0);

fn hook(_: &'static Heap) {
    HOOK_CALLS.fetch_add(1, Ordering::Relaxed);
}

#[test]
fn clear_marks_black_allocation_and_pressure() {
    let heap = Heap::new();
    let mut l = LocalHeap::new(heap);

    // Black allocation marks new slots, small and large; white does not.
    // Caches mark a bitmap word at a time when they start on it, so a cache
    // must be flushed (the collector does it by handshake) after turning
    // black allocation on; until then its current word stays white.
    let white = l.alloc(48);
    set_allocate_black(1);
    let still_white = l.alloc(48);
    l.flush();
    let black_small = l.alloc(48);
    let black_large = l.alloc(1 << 20);
    set_allocate_black(0);
    // SAFETY: all three were just allocated and not swept.
    unsafe {
        assert!(!is_marked(white));
        assert!(!is_marked(still_white));
        assert!(is_marked(black_small));
        assert!(is_marked(black_large));
        assert!(mark(white));
    }

    // clear_marks makes everything white again, owned pages included.
    heap.clear_marks();
    // SAFETY: as above.
    unsafe {
        assert!(!is_marked(white));
        assert!(!is_marked(black_small));
        assert!(!is_marked(black_large));
    }

    // A sweep now frees all three (nothing marked).
    l.flush();
    let stats = heap.sweep();
    assert!(stats.freed_slots >= 3, "{stats:?}");
    assert!(gimso_heap::lookup(black_large.as_ptr() as usize).is_none());

    // Accounting: the hook runs once allocation crosses the trigger.
    heap.take_allocated();
    heap.set_pressure_hook(Some(hook));
    heap.set_trigger(1 << 20);
    for _ in 0..(512 << 10) / 64 {
        l.alloc(64);
    }
    assert_eq!(HOOK_CALLS.load(Ordering::Relaxed), 0, "below the trigger");
    for _ in 0..(1 << 20) / 64 {
        l.alloc(64);
    }
    assert!(HOOK_CALLS.load(Ordering::Relaxed) > 0, "above the trigger");
    assert!(heap.allocated() >= 1 << 20);
    let taken = heap.take_allocated();
    assert!(taken >= (3 << 20) / 2, "{taken}");
    assert_eq!(heap.allocated(), 0);
}
