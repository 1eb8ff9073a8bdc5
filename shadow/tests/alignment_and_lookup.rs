//! Over-aligned objects, exact bounds of every size, and address → object
//! lookup.

mod common;

use common::*;
use gimso_shadow::lookup::object_containing;
use gimso_shadow::{ObjRef, alloc_object};

#[test]
fn bounds_are_exactly_the_size_asked_for() {
    let mut l = local();
    for size in [
        0usize,
        1,
        7,
        8,
        9,
        15,
        16,
        17,
        100,
        4095,
        4096,
        10_000,
        100_000,
        3 << 20,
    ] {
        let obj = alloc_object(&mut l, size, 16, 0);
        assert_eq!(obj.lower() % 16, 0);
        assert_eq!(obj.upper() - obj.lower(), size, "size {size}");
        // SAFETY: fresh object of at least `size` bytes.
        let bytes = unsafe { std::slice::from_raw_parts(obj.lower() as *const u8, size) };
        assert!(
            bytes.iter().all(|&b| b == 0),
            "payload of {size} bytes is zeroed"
        );
    }
}

#[test]
fn explicit_alignments_up_to_max() {
    let mut l = local();
    let mut align = 32;
    while align <= gimso_abi::MAX_ALIGN {
        for size in [8usize, 24, align, 3 * align + 8] {
            let obj = alloc_object(&mut l, size, align, 0);
            assert_eq!(obj.lower() % align, 0, "align {align} size {size}");
            assert_eq!(obj.upper() - obj.lower(), size);
            for addr in [obj.lower(), obj.lower() + size - 1] {
                assert_eq!(
                    object_containing(addr),
                    Some(obj),
                    "align {align} size {size} addr {addr:#x}"
                );
            }
            // The pad before the header (if any) still belongs to the object.
            let slot = gimso_heap::lookup(obj.lower()).expect("slot");
            assert_eq!(object_containing(slot.start.as_ptr() as usize), Some(obj));
        }
        align *= 2;
    }
}

#[test]
fn lookup_finds_interior_pointers_and_rejects_foreign_ones() {
    let mut l = local();
    let small = alloc_object(&mut l, 40, 16, 0);
    let large = alloc_object(&mut l, 1 << 20, 16, 0);
    for obj in [small, large] {
        let size = obj.upper() - obj.lower();
        for off in [0, 1, size / 2, size - 1] {
            assert_eq!(object_containing(obj.lower() + off), Some(obj));
        }
        // The header belongs to the object's slot too.
        assert_eq!(object_containing(obj.lower() - 16), Some(obj));
    }
    let on_stack = 5u64;
    let boxed = Box::new(5u64);
    for addr in [
        0,
        8,
        usize::MAX,
        &on_stack as *const u64 as usize,
        &*boxed as *const u64 as usize,
    ] {
        assert_eq!(object_containing(addr), None::<ObjRef>, "{addr:#x}");
    }
}
