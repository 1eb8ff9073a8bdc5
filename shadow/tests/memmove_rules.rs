//! memmove / memcpy / memset capability rules (spec "Memmove", "Memset").

mod common;

use common::*;
use gimso_abi::FlightPtr;
use gimso_heap::LocalHeap;
use gimso_shadow::memops::{memmove_at, memset_at};
use gimso_shadow::pointer::{atomic_load_ptr, atomic_store_ptr};

/// An object of `words` words whose word i holds a pointer to a distinct
/// target object, at offset i within it (so intval != lower).
fn pointer_array(l: &mut LocalHeap, words: usize) -> (FlightPtr, Vec<FlightPtr>) {
    let obj = alloc(l, words * 8);
    let mut targets = Vec::new();
    for i in 0..words {
        let t = alloc(l, 16).offset(i as isize % 16);
        store(l, obj.offset(8 * i as isize), t);
        targets.push(t);
    }
    (obj, targets)
}

fn caps(obj: FlightPtr, words: usize) -> Vec<usize> {
    (0..words)
        .map(|i| load(obj.offset(8 * i as isize)).lower())
        .collect()
}

#[test]
fn in_phase_whole_words_move_capabilities() {
    let mut l = local();
    let (src, targets) = pointer_array(&mut l, 8);
    let dst = alloc(&mut l, 64);
    memmove_at(&mut l, dst, src, 64, HERE);
    for (i, t) in targets.iter().enumerate() {
        assert_eq!(load(dst.offset(8 * i as isize)), *t, "word {i}");
    }
}

#[test]
fn in_phase_partial_end_words_lose_capabilities() {
    let mut l = local();
    let (src, targets) = pointer_array(&mut l, 8);
    let (dst, old) = pointer_array(&mut l, 8);
    // Bytes [4, 28) of both: word 0 and word 3 partly, words 1 and 2 wholly.
    memmove_at(&mut l, dst.offset(4), src.offset(4), 24, HERE);
    let c = caps(dst, 8);
    assert_eq!(c[0], 0, "partly covered first word keeps no capability");
    assert_eq!(c[1], targets[1].lower());
    assert_eq!(c[2], targets[2].lower());
    assert_eq!(c[3], 0, "partly covered last word keeps no capability");
    for i in 4..8 {
        assert_eq!(
            c[i],
            old[i].lower(),
            "word {i} outside the range is untouched"
        );
    }
    // The bytes moved exactly: word 1 now holds src word 1's intval.
    assert_eq!(read_u64(dst.offset(8)), targets[1].intval() as u64);
}

#[test]
fn out_of_phase_nulls_every_touched_destination_word() {
    let mut l = local();
    let (src, _) = pointer_array(&mut l, 8);
    let (dst, old) = pointer_array(&mut l, 8);
    // dst % 8 == 1, src % 8 == 0: bytes [1, 33) of dst touch words 0..=4.
    memmove_at(&mut l, dst.offset(1), src, 32, HERE);
    let c = caps(dst, 8);
    assert!(c[..5].iter().all(|&c| c == 0), "{c:?}");
    for i in 5..8 {
        assert_eq!(c[i], old[i].lower());
    }
}

#[test]
fn source_without_shadow_nulls_destination() {
    let mut l = local();
    let src = alloc(&mut l, 32); // integers only: never got an aux allocation
    let (dst, _) = pointer_array(&mut l, 4);
    memmove_at(&mut l, dst, src, 32, HERE);
    assert_eq!(caps(dst, 4), vec![0; 4]);
}

#[test]
fn overlapping_moves_behave_as_memmove() {
    let mut l = local();
    // Forward overlap: dst above src.
    let (obj, t) = pointer_array(&mut l, 8);
    memmove_at(&mut l, obj.offset(8), obj, 48, HERE);
    let got: Vec<FlightPtr> = (0..8).map(|i| load(obj.offset(8 * i))).collect();
    assert_eq!(got[0], t[0]);
    for i in 1..7 {
        assert_eq!(got[i], t[i - 1], "word {i}");
    }
    assert_eq!(got[7], t[7]);
    // Backward overlap: dst below src.
    let (obj, t) = pointer_array(&mut l, 8);
    memmove_at(&mut l, obj, obj.offset(16), 48, HERE);
    for i in 0..6 {
        assert_eq!(load(obj.offset(8 * i as isize)), t[i + 2], "word {i}");
    }
    assert_eq!(load(obj.offset(48)), t[6]);
    assert_eq!(load(obj.offset(56)), t[7]);
}

#[test]
fn memset_nulls_every_overlapped_capability() {
    let mut l = local();
    let (obj, t) = pointer_array(&mut l, 4);
    // Bytes [3, 13) touch words 0 and 1 (partly).
    memset_at(obj.offset(3), 0xab, 10, HERE);
    let c = caps(obj, 4);
    assert_eq!(&c[..2], &[0, 0]);
    assert_eq!(c[2], t[2].lower());
    assert_eq!(c[3], t[3].lower());
    // SAFETY: in bounds of a live 32-byte object.
    let bytes = unsafe { std::slice::from_raw_parts(obj.intval() as *const u8, 16) };
    assert!(bytes[3..13].iter().all(|&b| b == 0xab));
    assert_eq!(bytes[2], (t[0].intval() >> 16) as u8);
}

#[test]
fn atomic_mode_words_copy_as_plain_capabilities() {
    let mut l = local();
    let src = alloc(&mut l, 16);
    let dst = alloc(&mut l, 16);
    let target = alloc(&mut l, 32).offset(8);
    atomic_store_ptr(&mut l, src, target, HERE);
    memmove_at(&mut l, dst, src, 16, HERE);
    assert_eq!(load(dst), target);
    assert_eq!(atomic_load_ptr(dst, HERE), target);
}

#[test]
fn zero_length_moves_touch_nothing() {
    let mut l = local();
    let (obj, t) = pointer_array(&mut l, 2);
    // Even a dangling, capability-less source is fine for zero bytes.
    memmove_at(&mut l, obj, FlightPtr::NULL, 0, HERE);
    memset_at(obj, 0, 0, HERE);
    assert_eq!(caps(obj, 2), vec![t[0].lower(), t[1].lower()]);
}

/// The short-copy fast path agrees with `memmove_at` wherever it answers,
/// and declines (changing nothing) where a capability would move or a
/// check fails.
#[test]
fn small_moves_match_memmove_at_or_decline() {
    use gimso_shadow::memops::{SMALL_MOVE_MAX, memmove_small};
    let mut l = local();
    for n in 1..=SMALL_MOVE_MAX {
        for (doff, soff) in [(0, 0), (8, 0), (3, 0), (0, 5), (4, 4), (7, 7)] {
            let (src, _) = pointer_array(&mut l, 6);
            let (fast, _) = pointer_array(&mut l, 6);
            let (slow, _) = pointer_array(&mut l, 6);
            for i in 0..48 {
                // Distinct bytes in the source, other ones in the targets.
                set_byte(src, i, i as u8);
                set_byte(fast, i, 0xee);
                set_byte(slow, i, 0xee);
            }
            let before = caps(fast, 6);
            let before_slow = caps(slow, 6);
            let done = memmove_small(fast.offset(doff), src.offset(soff), n);
            memmove_at(&mut l, slow.offset(doff), src.offset(soff), n, HERE);
            let whole_word_in_phase = doff % 8 == soff % 8 && {
                let first = (doff + 7) / 8 * 8;
                first + 8 <= doff + n as isize
            };
            // Every source word holds a capability: one wholly copied in
            // phase must move, which only the full path does.
            assert_eq!(done, !whole_word_in_phase, "n {n} doff {doff} soff {soff}");
            if done {
                // The same words lost their capabilities; the others kept theirs.
                let kept = |now: Vec<usize>, was: &[usize]| -> Vec<bool> {
                    now.iter().zip(was).map(|(n, w)| n == w).collect()
                };
                assert_eq!(
                    kept(caps(fast, 6), &before),
                    kept(caps(slow, 6), &before_slow),
                    "n {n} doff {doff} soff {soff}"
                );
                assert!(
                    caps(fast, 6)
                        .iter()
                        .zip(&before)
                        .all(|(n, w)| *n == 0 || n == w)
                );
                for i in 0..48 {
                    let (a, b) = (byte(fast, i), byte(slow, i));
                    assert_eq!(a, b, "byte {i}, n {n} doff {doff} soff {soff}");
                }
            } else {
                assert_eq!(caps(fast, 6), before, "declined: capabilities untouched");
                assert!((0..48).all(|i| byte(fast, i) == 0xee));
            }
        }
    }
    // Overlapping, within one object, forward and backward.
    let buf = alloc(&mut l, 32);
    for i in 0..32 {
        set_byte(buf, i, i as u8);
    }
    assert!(memmove_small(buf.offset(3), buf.offset(1), 13));
    let got: Vec<u8> = (0..20).map(|i| byte(buf, i)).collect();
    assert_eq!(
        got,
        [
            0, 1, 2, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 19
        ]
    );
    assert!(memmove_small(buf.offset(1), buf.offset(3), 13));
    let got: Vec<u8> = (0..20).map(|i| byte(buf, i)).collect();
    assert_eq!(
        got,
        [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 12, 13, 16, 17, 18, 19
        ]
    );
    // Out of bounds, either side, and a null capability: declined.
    let small = alloc(&mut l, 8);
    assert!(!memmove_small(small.offset(1), buf, 8));
    assert!(!memmove_small(buf, small.offset(4), 5));
    assert!(!memmove_small(FlightPtr::from_int(buf.intval()), small, 4));
}
