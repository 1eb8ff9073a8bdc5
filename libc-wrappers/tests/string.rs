//! `<string.h>` wrappers called through their generic entries.

mod support;

use gimso_abi::FlightPtr;
use gimso_libc_wrappers::string::*;
use support::*;

#[test]
fn strlen_and_strnlen() {
    let s = cstr("hello");
    let out = invoke(strlen::entry, &[A::P(s)]);
    assert_eq!(out.i64(), 5);
    assert_eq!(out.cap, 0, "non-pointer return has a null capability word");
    assert_eq!(invoke(strlen::entry, &[A::P(s.offset(5))]).i64(), 0);
    assert_eq!(invoke(strnlen::entry, &[A::P(s), A::I(3)]).i64(), 3);
    assert_eq!(invoke(strnlen::entry, &[A::P(s), A::I(100)]).i64(), 5);
    // strnlen may stop at the bound of a buffer with no terminator.
    let b = buf(8);
    write(b, b"abcdefgh");
    assert_eq!(invoke(strnlen::entry, &[A::P(b), A::I(8)]).i64(), 8);
}

#[test]
fn compare() {
    let a = cstr("apple");
    let b = cstr("apricot");
    assert!(invoke(strcmp::entry, &[A::P(a), A::P(b)]).i32() < 0);
    assert!(invoke(strcmp::entry, &[A::P(b), A::P(a)]).i32() > 0);
    assert_eq!(
        invoke(strcmp::entry, &[A::P(a), A::P(cstr("apple"))]).i32(),
        0
    );
    assert_eq!(
        invoke(strncmp::entry, &[A::P(a), A::P(b), A::I(2)]).i32(),
        0
    );
    assert!(invoke(strncmp::entry, &[A::P(a), A::P(b), A::I(3)]).i32() < 0);
    // Bytes compare as unsigned char.
    assert!(invoke(strcmp::entry, &[A::P(cstr("\u{e9}")), A::P(cstr("a"))]).i32() > 0);
    let x = buf(8);
    let y = buf(8);
    write(x, b"\x01\x02\x03");
    write(y, b"\x01\x02\x04");
    assert!(invoke(memcmp::entry, &[A::P(x), A::P(y), A::I(3)]).i32() < 0);
    assert_eq!(invoke(memcmp::entry, &[A::P(x), A::P(y), A::I(2)]).i32(), 0);
}

#[test]
fn copy_and_concatenate() {
    let dst = buf(16);
    let r = invoke(strcpy::entry, &[A::P(dst), A::P(cstr("abc"))]).ptr();
    assert_eq!(r, dst, "strcpy returns dst with its capability");
    assert_eq!(read_cstr(dst), "abc");
    invoke(strcat::entry, &[A::P(dst), A::P(cstr("def"))]);
    assert_eq!(read_cstr(dst), "abcdef");
    invoke(strncat::entry, &[A::P(dst), A::P(cstr("ghijk")), A::I(2)]);
    assert_eq!(read_cstr(dst), "abcdefgh");
    let d2 = buf(8);
    write(d2, b"xxxxxxxx");
    invoke(strncpy::entry, &[A::P(d2), A::P(cstr("ab")), A::I(5)]);
    assert_eq!(read(d2, 8), b"ab\0\0\0xxx");
    invoke(
        strncpy::entry,
        &[A::P(d2), A::P(cstr("0123456789")), A::I(8)],
    );
    assert_eq!(read(d2, 8), b"01234567");
}

#[test]
fn duplicate() {
    let s = cstr("duplicate me");
    let d = invoke(strdup::entry, &[A::P(s)]).ptr();
    assert_ne!(d.lower(), 0);
    assert_eq!(d.intval(), d.lower());
    assert_ne!(d.lower(), s.lower());
    assert_eq!(read_cstr(d), "duplicate me");
    let n = invoke(strndup::entry, &[A::P(s), A::I(3)]).ptr();
    assert_eq!(read_cstr(n), "dup");
}

#[test]
fn search() {
    let s = cstr("hello world");
    let r = invoke(strchr::entry, &[A::P(s), A::I(b'o' as i64)]).ptr();
    assert_eq!(r, s.offset(4));
    let r = invoke(strrchr::entry, &[A::P(s), A::I(b'o' as i64)]).ptr();
    assert_eq!(r, s.offset(7));
    let r = invoke(strchr::entry, &[A::P(s), A::I(0)]).ptr();
    assert_eq!(r, s.offset(11), "strchr(s, 0) finds the terminator");
    let r = invoke(strchr::entry, &[A::P(s), A::I(b'z' as i64)]).ptr();
    assert_eq!(r, FlightPtr::NULL);
    let r = invoke(strstr::entry, &[A::P(s), A::P(cstr("wor"))]).ptr();
    assert_eq!(r, s.offset(6));
    let r = invoke(strstr::entry, &[A::P(s), A::P(cstr(""))]).ptr();
    assert_eq!(r, s);
    assert_eq!(
        invoke(strstr::entry, &[A::P(s), A::P(cstr("xyz"))]).ptr(),
        FlightPtr::NULL
    );
    let r = invoke(memchr::entry, &[A::P(s), A::I(b'w' as i64), A::I(11)]).ptr();
    assert_eq!(r, s.offset(6));
    assert_eq!(
        invoke(strspn::entry, &[A::P(s), A::P(cstr("leh"))]).i64(),
        4
    );
    assert_eq!(invoke(strcspn::entry, &[A::P(s), A::P(cstr(" "))]).i64(), 5);
}

#[test]
fn tokenize() {
    let s = cstr("  a,b,,c  ");
    let delim = cstr(" ,");
    let mut tokens = Vec::new();
    let mut arg = s;
    loop {
        let t = invoke(strtok::entry, &[A::P(arg), A::P(delim)]).ptr();
        if t.intval() == 0 {
            break;
        }
        assert_eq!(t.lower(), s.lower(), "tokens point into the string");
        tokens.push(read_cstr(t));
        arg = FlightPtr::NULL;
    }
    assert_eq!(tokens, ["a", "b", "c"]);
}

#[test]
fn memory_functions_move_capabilities() {
    let target = buf(8);
    let src = buf(32);
    let dst = buf(32);
    gimso_libc_wrappers::mem::store_ptr(src.offset(8), target);
    let r = invoke(memcpy::entry, &[A::P(dst), A::P(src), A::I(32)]).ptr();
    assert_eq!(r, dst);
    let loaded = gimso_libc_wrappers::mem::load_ptr(dst.offset(8));
    assert_eq!(loaded, target, "memcpy copies the capability with the word");
    // memmove inside one object, overlapping.
    invoke(memmove::entry, &[A::P(dst.offset(16)), A::P(dst), A::I(16)]);
    assert_eq!(gimso_libc_wrappers::mem::load_ptr(dst.offset(24)), target);
    // memset nulls capabilities.
    let r = invoke(memset::entry, &[A::P(dst), A::I(0x41), A::I(32)]).ptr();
    assert_eq!(r, dst);
    assert_eq!(read(dst, 4), b"AAAA");
    assert_eq!(gimso_libc_wrappers::mem::load_ptr(dst.offset(8)).lower(), 0);
    assert_eq!(
        gimso_libc_wrappers::mem::load_ptr(dst.offset(24)).lower(),
        0
    );
}

fn run(name: &str) {
    let full = buf(8);
    write(full, b"abcdefgh");
    let small = buf(8);
    match name {
        "strlen_unterminated" => {
            invoke(strlen::entry, &[A::P(full)]);
        }
        "strlen_terminated" => {
            write(full.offset(7), b"\0");
            assert_eq!(invoke(strlen::entry, &[A::P(full)]).i64(), 7);
        }
        "strlen_null_capability" => {
            let forged = FlightPtr::from_int(full.intval());
            invoke(strlen::entry, &[A::P(forged)]);
        }
        "strlen_no_arguments" => {
            place_args(&[]);
            invoke_with_bytes(strlen::entry, 0);
        }
        "strcpy_overflow" => {
            invoke(strcpy::entry, &[A::P(small), A::P(cstr("12345678"))]);
        }
        "strcpy_fits" => {
            invoke(strcpy::entry, &[A::P(small), A::P(cstr("1234567"))]);
        }
        "strcat_overflow" => {
            invoke(strcpy::entry, &[A::P(small), A::P(cstr("1234"))]);
            invoke(strcat::entry, &[A::P(small), A::P(cstr("5678"))]);
        }
        "strncpy_pads_past_end" => {
            invoke(strncpy::entry, &[A::P(small), A::P(cstr("ab")), A::I(9)]);
        }
        "memcpy_read_overflow" => {
            invoke(memcpy::entry, &[A::P(buf(16)), A::P(full), A::I(9)]);
        }
        "memcpy_write_overflow" => {
            invoke(
                memcpy::entry,
                &[A::P(small.offset(1)), A::P(buf(16)), A::I(8)],
            );
        }
        "memcpy_fits" => {
            invoke(memcpy::entry, &[A::P(small), A::P(full), A::I(8)]);
        }
        "memset_overflow" => {
            invoke(memset::entry, &[A::P(small), A::I(0), A::I(9)]);
        }
        "memcmp_overflow" => {
            invoke(memcmp::entry, &[A::P(full), A::P(buf(16)), A::I(12)]);
        }
        "strcmp_unterminated" => {
            invoke(strcmp::entry, &[A::P(full), A::P(cstr("abcdefgh"))]);
        }
        "strcmp_differs_early" => {
            // Stops at the first difference: the missing terminator is
            // never read.
            assert!(invoke(strcmp::entry, &[A::P(full), A::P(cstr("abz"))]).i32() < 0);
        }
        "memchr_stops_at_match" => {
            let r = invoke(memchr::entry, &[A::P(full), A::I(b'c' as i64), A::I(100)]).ptr();
            assert_eq!(r, full.offset(2));
        }
        "memchr_overflow" => {
            invoke(memchr::entry, &[A::P(full), A::I(b'z' as i64), A::I(100)]);
        }
        "strchr_on_function" => {
            invoke(strchr::entry, &[A::P(strlen::OBJECT.pointer()), A::I(0)]);
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn reads_are_checked() {
    let o = expect_error("strlen_unterminated", "out-of-bounds read");
    assert!(o.stderr.contains("9-byte read"), "{}", o.stderr);
    // The location is the wrapper's caller (here the test's call helper).
    let loc = o
        .stderr
        .lines()
        .find(|l| l.starts_with("  location:"))
        .unwrap();
    assert!(
        loc.contains("support/mod.rs:") && loc.ends_with("in string::support::invoke_with_bytes"),
        "{loc}"
    );
    expect_silent("strlen_terminated");
    expect_error(
        "strlen_null_capability",
        "access through pointer with null capability",
    );
    expect_error("strlen_no_arguments", "argument size mismatch");
    expect_error("memcpy_read_overflow", "out-of-bounds read");
    expect_error("memcmp_overflow", "out-of-bounds read");
    expect_error("strcmp_unterminated", "out-of-bounds read");
    expect_silent("strcmp_differs_early");
    expect_silent("memchr_stops_at_match");
    expect_error("memchr_overflow", "out-of-bounds read");
    expect_error(
        "strchr_on_function",
        "data access through special capability",
    );
}

#[test]
fn writes_are_checked() {
    let o = expect_error("strcpy_overflow", "out-of-bounds write");
    assert!(o.stderr.contains("9-byte write"), "{}", o.stderr);
    expect_silent("strcpy_fits");
    expect_error("strcat_overflow", "out-of-bounds write");
    expect_error("strncpy_pads_past_end", "out-of-bounds write");
    expect_error("memcpy_write_overflow", "out-of-bounds write");
    expect_silent("memcpy_fits");
    expect_error("memset_overflow", "out-of-bounds write");
}

#[test]
fn more_string_functions() {
    let x = cstr("same");
    assert_eq!(
        invoke(bcmp::entry, &[A::P(x), A::P(cstr("same")), A::I(4)]).i32(),
        0
    );
    assert_ne!(
        invoke(bcmp::entry, &[A::P(x), A::P(cstr("sane")), A::I(4)]).i32(),
        0
    );
    let d = buf(16);
    let end = invoke(stpcpy::entry, &[A::P(d), A::P(cstr("abc"))]).ptr();
    assert_eq!(end, d.offset(3));
    assert_eq!(read_cstr(d), "abc");
    let s = cstr("key=value");
    assert_eq!(
        invoke(strpbrk::entry, &[A::P(s), A::P(cstr("=:"))]).ptr(),
        s.offset(3)
    );
    assert_eq!(
        invoke(
            strcasecmp::entry,
            &[A::P(cstr("HeLLo")), A::P(cstr("hello"))]
        )
        .i32(),
        0
    );
    assert!(invoke(strcasecmp::entry, &[A::P(cstr("a")), A::P(cstr("B"))]).i32() < 0);
    assert_eq!(
        invoke(
            strncasecmp::entry,
            &[A::P(cstr("ABcd")), A::P(cstr("abCX")), A::I(3)]
        )
        .i32(),
        0
    );
}
