//! The reciprocal ("magic") division `lookup` uses must equal real division
//! for every class and every offset within a page.

use gimso_heap::size_class::{class_magic_div, class_slots_per_page};
use gimso_heap::{NUM_CLASSES, PAGE_SIZE, class_slot_size};

#[test]
fn magic_division_is_exact_for_every_class_and_offset() {
    for c in 0..NUM_CLASSES {
        let s = class_slot_size(c);
        for off in 0..PAGE_SIZE {
            assert_eq!(
                class_magic_div(c, off),
                off / s,
                "class {c} (slot {s}), offset {off}"
            );
        }
        assert_eq!(class_slots_per_page(c), PAGE_SIZE / s);
    }
}
