//! A dead object that the conservative stack scan brings back (a stale word
//! left in a frame) may still name objects reclaimed since it died: SQLite's
//! `balance_nonroot` leaves its cell-array struct, made a heap object because
//! its address escapes, naming a scratch buffer it freed. Tracing such an
//! object must drop those names rather than read the reclaimed object's
//! header, which for a large object is memory given back to the OS.

use gimso::capi::*;
use gimso_abi::FlightPtr;

/// Whether the page holding `addr` is mapped.
fn mapped(addr: usize) -> bool {
    let page = addr & !4095;
    let mut v = 0u8;
    // SAFETY: mincore only inspects the mapping of one page.
    unsafe { libc::mincore(page as *mut libc::c_void, 4096, &mut v) == 0 }
}

/// Whether the header of the object whose capability is `lower ^ key` is
/// mapped; the plain address never outlives this call (a stack word naming
/// the object would keep it alive).
#[inline(never)]
fn header_mapped(scrambled_lower: usize, key: usize) -> bool {
    mapped((std::hint::black_box(scrambled_lower) ^ key) - 16)
}

#[test]
fn a_reclaimed_large_object_named_in_the_heap_is_dropped() {
    // The capability of a large object nothing references, made in a thread
    // that exits and handed over scrambled, so no word any stack holds keeps
    // the object alive.
    const SCRAMBLE: usize = 0x5a5a_5a5a_5a5a_5a5a;
    let scrambled = std::thread::spawn(|| {
        let b = gimso_alloc(1 << 20);
        (b.intval() ^ SCRAMBLE, b.lower() ^ SCRAMBLE)
    })
    .join()
    .unwrap();
    let stale: Box<(usize, usize)> = Box::new(scrambled);
    // A cycle already under way may have seen it referenced: a few more.
    for _ in 0..10 {
        gimso_gc_collect();
        if !header_mapped(stale.1, SCRAMBLE) {
            break;
        }
    }
    assert!(
        !header_mapped(stale.1, SCRAMBLE),
        "the large object was not reclaimed and unmapped"
    );
    // A live holder naming it, as the revived dead object does.
    let holder = gimso_alloc(64);
    // SAFETY: the capability of a real object the runtime made (now
    // reclaimed): the collector must cope with a revived stale one.
    let stale = unsafe { FlightPtr::new(stale.0 ^ SCRAMBLE, stale.1 ^ SCRAMBLE) };
    // SAFETY: `holder` is a runtime-issued capability of 64 bytes.
    unsafe { gimso_store_ptr(holder, stale) };
    // Tracing the holder must not fault on the unmapped header.
    gimso_gc_collect();
    // SAFETY: as above.
    let now = unsafe { gimso_load_ptr(holder) };
    assert_eq!(now.intval(), stale.intval(), "the address is the program's");
    assert_ne!(
        now.lower(),
        stale.lower(),
        "the dead capability was replaced (by the free singleton's)"
    );
}
