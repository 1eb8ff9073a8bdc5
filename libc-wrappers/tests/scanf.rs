//! The `scanf` engine through `sscanf`: results identical to glibc's for
//! integer and floating-point conversions, and every store checked for
//! exactly the bytes it writes.

mod support;

use gimso_libc_wrappers::stdio::*;
use support::*;

/// `sscanf(input, fmt, &x)` for one 8-byte destination: (result, value).
fn scan_one(input: &str, fmt: &str) -> (i32, u64) {
    let out = buf(8);
    let r = invoke(
        sscanf::entry,
        &[A::P(cstr(input)), A::P(cstr(fmt)), A::P(out)],
    )
    .i32();
    (r, u64::from_ne_bytes(read(out, 8).try_into().unwrap()))
}

/// What glibc's own sscanf does with one 8-byte destination.
fn glibc_one(input: &str, fmt: &str) -> (i32, u64) {
    let i = std::ffi::CString::new(input).unwrap();
    let f = std::ffi::CString::new(fmt).unwrap();
    let mut v = 0u64;
    // SAFETY: one conversion storing at most 8 bytes into `v`.
    let r = unsafe { libc::sscanf(i.as_ptr(), f.as_ptr(), &mut v as *mut u64) };
    (r, v)
}

#[test]
fn integers_and_floats_match_glibc() {
    let cases = [
        ("42", "%d"),
        ("-42", "%hhd"),
        ("-300", "%hd"),
        ("  0x7fffffffffffffff", "%lli"),
        ("0777", "%i"),
        ("-1", "%u"),
        ("99999999999999999999", "%ld"),
        ("99999999999999999999", "%lu"),
        ("ff", "%lx"),
        ("0XAB", "%X"),
        ("123456", "%3d"),
        ("+17", "%jd"),
        ("abc", "%d"),
        ("", "%d"),
        ("   ", "%d"),
        ("1.5", "%lf"),
        ("-2.5e-3", "%le"),
        ("0x1.8p3", "%la"),
        ("3.25", "%f"),
        ("nan", "%lg"),
        ("-Infinity", "%lf"),
        ("12.75", "%4lf"),
        ("x", "%lf"),
        ("100%", "%d%%"),
        ("5", "%*d"),
    ];
    for (input, fmt) in cases {
        assert_eq!(
            scan_one(input, fmt),
            glibc_one(input, fmt),
            "{input:?} {fmt:?}"
        );
    }
}

#[test]
fn strings_and_sets() {
    let out = buf(16);
    let set = buf(16);
    let n = buf(8);
    let r = invoke(
        sscanf::entry,
        &[
            A::P(cstr("  hello, world!")),
            A::P(cstr("%s %[a-z]%n")),
            A::P(out),
            A::P(set),
            A::P(n),
        ],
    )
    .i32();
    assert_eq!(r, 2);
    assert_eq!(read_cstr(out), "hello,");
    assert_eq!(read_cstr(set), "world");
    assert_eq!(read(n, 4), 14i32.to_ne_bytes());
}

fn run(name: &str) {
    match name {
        "d_into_short" => {
            let p = buf(8);
            let short = p.with_intval(p.intval() + 6);
            invoke(
                sscanf::entry,
                &[A::P(cstr("7")), A::P(cstr("%d")), A::P(short)],
            );
        }
        "hd_into_short" => {
            let p = buf(8);
            let short = p.with_intval(p.intval() + 6);
            invoke(
                sscanf::entry,
                &[A::P(cstr("7")), A::P(cstr("%hd")), A::P(short)],
            );
        }
        "s_too_long" => {
            invoke(
                sscanf::entry,
                &[A::P(cstr("abcdefghij")), A::P(cstr("%s")), A::P(buf(8))],
            );
        }
        "s_width_fits" => {
            invoke(
                sscanf::entry,
                &[A::P(cstr("abcdefghij")), A::P(cstr("%7s")), A::P(buf(8))],
            );
        }
        "not_a_pointer" => {
            invoke(
                sscanf::entry,
                &[A::P(cstr("7")), A::P(cstr("%d")), A::I(1234)],
            );
        }
        "missing_argument" => {
            invoke(
                sscanf::entry,
                &[A::P(cstr("7 8")), A::P(cstr("%d %d")), A::P(buf(8))],
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
fn destinations_are_checked() {
    expect_error("d_into_short", "out-of-bounds write");
    expect_silent("hd_into_short");
    expect_error("s_too_long", "out-of-bounds write");
    expect_silent("s_width_fits");
    expect_error(
        "not_a_pointer",
        "access through pointer with null capability",
    );
    expect_error("missing_argument", "argument size mismatch");
}
