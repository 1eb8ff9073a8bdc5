//! `<stdlib.h>`: number parsing, `qsort`/`bsearch` calling compiled
//! comparators, `getenv`, `rand`, `abs`.

mod support;

use gimso_abi::{EntryResult, FlightPtr, ThreadAbi};
use gimso_libc_wrappers::mem::{load_ptr, store_ptr};
use gimso_libc_wrappers::object::FunctionObject;
use gimso_libc_wrappers::stdlib::*;
use support::*;

/// Argument word `i` of the current call with its capability.
///
/// # Safety
/// `t` is the calling thread's ABI struct.
unsafe fn arg(t: *mut ThreadAbi, i: usize) -> FlightPtr {
    // SAFETY: contract; the CC buffer's capability words hold
    // capabilities or 0.
    unsafe { FlightPtr::new((*t).cc_payload[i] as usize, (*t).cc_caps[i]) }
}

/// Returns an int from a "compiled" function.
///
/// # Safety
/// `t` is the calling thread's ABI struct.
unsafe fn ret_int(t: *mut ThreadAbi, v: i32) -> EntryResult {
    // SAFETY: contract.
    unsafe {
        (*t).cc_payload[0] = v as i64 as u64;
        (*t).cc_caps[0] = 0;
    }
    EntryResult {
        has_exception: 0,
        ret_bytes: 8,
    }
}

/// `int cmp(const void *a, const void *b)` over ints, as compiled code:
/// reads through the checked pointers it was given.
unsafe extern "C" fn cmp_ints(t: *mut ThreadAbi, _: usize, arg_bytes: u64) -> EntryResult {
    assert!(arg_bytes >= 16);
    // SAFETY: t is the caller's thread; arguments are two pointers.
    unsafe {
        let (a, b) = (arg(t, 0), arg(t, 1));
        let x = i32::from_ne_bytes(gimso_libc_wrappers::mem::read_int::<4>(a));
        let y = i32::from_ne_bytes(gimso_libc_wrappers::mem::read_int::<4>(b));
        ret_int(t, (x > y) as i32 - (x < y) as i32)
    }
}
static CMP_INTS: FunctionObject = FunctionObject::new(&raw const CMP_INTS, cmp_ints);

/// Compares records `{ long key; char *name; }` by key (16 bytes each).
unsafe extern "C" fn cmp_records(t: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    // SAFETY: as in cmp_ints.
    unsafe {
        let (a, b) = (arg(t, 0), arg(t, 1));
        let x = i64::from_ne_bytes(gimso_libc_wrappers::mem::read_int::<8>(a));
        let y = i64::from_ne_bytes(gimso_libc_wrappers::mem::read_int::<8>(b));
        ret_int(t, (x > y) as i32 - (x < y) as i32)
    }
}
static CMP_RECORDS: FunctionObject = FunctionObject::new(&raw const CMP_RECORDS, cmp_records);

/// A comparator declared `void`: returns no bytes.
unsafe extern "C" fn returns_nothing(_: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    EntryResult {
        has_exception: 0,
        ret_bytes: 0,
    }
}
static RETURNS_NOTHING: FunctionObject =
    FunctionObject::new(&raw const RETURNS_NOTHING, returns_nothing);

fn int_array(values: &[i32]) -> FlightPtr {
    let a = buf(4 * values.len());
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    write(a, &bytes);
    a
}

fn read_ints(a: FlightPtr, n: usize) -> Vec<i32> {
    read(a, 4 * n)
        .chunks(4)
        .map(|c| i32::from_ne_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn parse_numbers() {
    assert_eq!(invoke(atoi::entry, &[A::P(cstr("  -123abc"))]).i32(), -123);
    assert_eq!(
        invoke(atol::entry, &[A::P(cstr("9000000000"))]).i64(),
        9_000_000_000
    );
    assert_eq!(invoke(atoll::entry, &[A::P(cstr("-77"))]).i64(), -77);
    let s = cstr("0x1fz");
    let end = buf(8);
    let v = invoke(strtol::entry, &[A::P(s), A::P(end), A::I(0)]).i64();
    assert_eq!(v, 0x1f);
    assert_eq!(
        load_ptr(end),
        s.offset(4),
        "endptr keeps the string's capability"
    );
    let v = invoke(
        strtoul::entry,
        &[A::P(cstr("777")), A::P(FlightPtr::NULL), A::I(8)],
    )
    .i64();
    assert_eq!(v, 0o777);
    let v = invoke(
        strtoull::entry,
        &[
            A::P(cstr("18446744073709551615")),
            A::P(FlightPtr::NULL),
            A::I(10),
        ],
    )
    .word;
    assert_eq!(v, u64::MAX);
    let s = cstr("  2.5e3 rest");
    let d = invoke(strtod::entry, &[A::P(s), A::P(end)]).f64();
    assert_eq!(d, 2500.0);
    assert_eq!(load_ptr(end), s.offset(7));
    // No digits: end = start.
    let s = cstr("xyz");
    invoke(strtoll::entry, &[A::P(s), A::P(end), A::I(10)]);
    assert_eq!(load_ptr(end), s);
}

#[test]
fn overflow_sets_errno() {
    gimso_libc_wrappers::errno::set(0);
    let v = invoke(
        strtol::entry,
        &[
            A::P(cstr("99999999999999999999")),
            A::P(FlightPtr::NULL),
            A::I(10),
        ],
    )
    .i64();
    assert_eq!(v, i64::MAX);
    assert_eq!(gimso_libc_wrappers::errno::get(), libc::ERANGE);
}

#[test]
fn small_functions() {
    assert_eq!(invoke(abs::entry, &[A::I(-5)]).i32(), 5);
    assert_eq!(
        invoke(labs::entry, &[A::I(-5_000_000_000)]).i64(),
        5_000_000_000
    );
    invoke(srand::entry, &[A::I(7)]);
    let a: Vec<i32> = (0..3).map(|_| invoke(rand::entry, &[]).i32()).collect();
    // SAFETY: srand/rand have no preconditions.
    let b: Vec<i32> = unsafe {
        libc::srand(7);
        (0..3).map(|_| libc::rand()).collect()
    };
    assert_eq!(a, b, "glibc's sequence");
    // SAFETY: setenv on a test-only name before reading it.
    unsafe { libc::setenv(c"GIMSO_TEST_VAR".as_ptr(), c"some value".as_ptr(), 1) };
    let v = invoke(getenv::entry, &[A::P(cstr("GIMSO_TEST_VAR"))]).ptr();
    assert_eq!(read_cstr(v), "some value");
    assert_ne!(v.lower(), 0);
    let v = invoke(getenv::entry, &[A::P(cstr("GIMSO_NO_SUCH_VAR"))]).ptr();
    assert_eq!(v, FlightPtr::NULL);
}

#[test]
fn qsort_and_bsearch() {
    let values = [5, -1, 9, 3, 3, 0, 12, -7, 8, 1, 2];
    let a = int_array(&values);
    invoke(
        qsort::entry,
        &[
            A::P(a),
            A::I(values.len() as i64),
            A::I(4),
            A::P(CMP_INTS.pointer()),
        ],
    );
    let mut sorted = values.to_vec();
    sorted.sort();
    assert_eq!(read_ints(a, values.len()), sorted);
    let key = int_array(&[8]);
    let r = invoke(
        bsearch::entry,
        &[
            A::P(key),
            A::P(a),
            A::I(values.len() as i64),
            A::I(4),
            A::P(CMP_INTS.pointer()),
        ],
    )
    .ptr();
    assert_eq!(r.lower(), a.lower());
    assert_eq!(read_ints(r, 1), [8]);
    let key = int_array(&[4]);
    let r = invoke(
        bsearch::entry,
        &[
            A::P(key),
            A::P(a),
            A::I(values.len() as i64),
            A::I(4),
            A::P(CMP_INTS.pointer()),
        ],
    )
    .ptr();
    assert_eq!(r, FlightPtr::NULL);
}

#[test]
fn qsort_moves_capabilities_and_is_stable() {
    // Records { long key; char *name; }: the names must follow their keys.
    let keys = [3i64, 1, 2, 1, 3, 0];
    let names = ["a", "b", "c", "d", "e", "f"];
    let recs = buf(16 * keys.len());
    for (i, (k, n)) in keys.iter().zip(names).enumerate() {
        write(recs.offset(16 * i as isize), &k.to_ne_bytes());
        store_ptr(recs.offset(16 * i as isize + 8), cstr(n));
    }
    invoke(
        qsort::entry,
        &[
            A::P(recs),
            A::I(keys.len() as i64),
            A::I(16),
            A::P(CMP_RECORDS.pointer()),
        ],
    );
    let got: Vec<(i64, String)> = (0..keys.len())
        .map(|i| {
            let k = i64::from_ne_bytes(read(recs.offset(16 * i as isize), 8).try_into().unwrap());
            let p = load_ptr(recs.offset(16 * i as isize + 8));
            assert_ne!(p.lower(), 0, "capability moved with the element");
            (k, read_cstr(p))
        })
        .collect();
    let want: Vec<(i64, String)> = [(0, "f"), (1, "b"), (1, "d"), (2, "c"), (3, "a"), (3, "e")]
        .iter()
        .map(|&(k, n)| (k, n.to_owned()))
        .collect();
    assert_eq!(got, want);
}

fn run(name: &str) {
    let a = int_array(&[3, 1, 2]);
    match name {
        "qsort_good" => {
            invoke(
                qsort::entry,
                &[A::P(a), A::I(3), A::I(4), A::P(CMP_INTS.pointer())],
            );
        }
        "qsort_non_function" => {
            invoke(qsort::entry, &[A::P(a), A::I(3), A::I(4), A::P(buf(8))]);
        }
        "qsort_void_comparator" => {
            invoke(
                qsort::entry,
                &[A::P(a), A::I(3), A::I(4), A::P(RETURNS_NOTHING.pointer())],
            );
        }
        "qsort_past_the_array" => {
            // Three ints: 12 bytes, so the fourth is past the array.
            invoke(
                qsort::entry,
                &[A::P(a), A::I(3), A::I(4), A::P(CMP_INTS.pointer())],
            );
            invoke(
                qsort::entry,
                &[A::P(a), A::I(4), A::I(4), A::P(CMP_INTS.pointer())],
            );
        }
        "strtol_unterminated" => {
            let b = buf(8);
            write(b, b"12345678");
            invoke(strtol::entry, &[A::P(b), A::P(FlightPtr::NULL), A::I(10)]);
        }
        "strtol_bad_endptr" => {
            invoke(
                strtol::entry,
                &[A::P(cstr("12")), A::P(buf(8).offset(4)), A::I(10)],
            );
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn callbacks_are_checked() {
    expect_silent("qsort_good");
    expect_error("qsort_non_function", "call through non-function pointer");
    let o = expect_error("qsort_void_comparator", "return size mismatch");
    assert!(o.stderr.contains("qsort comparator"), "{}", o.stderr);
    expect_error("qsort_past_the_array", "out-of-bounds read");
}

#[test]
fn parsing_is_checked() {
    expect_error("strtol_unterminated", "out-of-bounds read");
    expect_error("strtol_bad_endptr", "misaligned pointer access");
}
