//! `Root` guards: a capability held only where the conservative stack scan
//! cannot see it (here: masked in a Rust vector) stays alive while a guard
//! roots it, and is reclaimed without one.

use std::hint::black_box;

use gimso::capi::*;
use gimso::gc::Root;

const MASK: usize = 0x5a5a_5a5a_5a5a_5a50;
const N: usize = 16;

/// Objects allocated by a thread that then exits, so no stack of ours ever
/// held their capabilities; returned masked.
fn masked_objects() -> Vec<usize> {
    std::thread::spawn(|| (0..N).map(|_| gimso_alloc(1000).lower() ^ MASK).collect())
        .join()
        .unwrap()
}

#[inline(never)]
fn root(masked: usize) -> Root {
    Root::new(black_box(masked) ^ MASK)
}

/// Overwrites the dead part of the stack below us and the registers, so no
/// stale copy of an unmasked capability survives there.
#[inline(never)]
fn scrub(depth: usize) -> usize {
    let junk = black_box([depth; 256]);
    if depth == 0 {
        junk[3]
    } else {
        scrub(depth - 1) + junk[7]
    }
}

fn alive(masked: &[usize]) -> usize {
    masked
        .iter()
        .filter(|&&m| gimso_lookup((m ^ MASK) + 8).lower() == (m ^ MASK))
        .count()
}

#[test]
fn roots_keep_objects_alive_and_their_absence_does_not() {
    gimso_thread_attach();
    let unrooted = masked_objects();
    let rooted = masked_objects();
    let guards: Vec<Root> = rooted.iter().map(|&m| root(m)).collect();
    black_box(scrub(64));
    gimso_gc_collect();
    gimso_gc_collect();
    let kept = alive(&rooted);
    let lost = N - alive(&unrooted);
    assert_eq!(kept, N, "rooted objects were reclaimed");
    assert!(
        lost >= N * 3 / 4,
        "only {lost} of {N} unrooted objects reclaimed: the test cannot tell roots apart"
    );
    drop(guards);
    black_box(scrub(64));
    gimso_gc_collect();
    gimso_gc_collect();
    assert!(
        N - alive(&rooted) >= N * 3 / 4,
        "dropping the guards did not release the objects"
    );
}
