//! `<ctype.h>`: the functions and the tables glibc's macros read.

mod support;

use gimso_libc_wrappers::ctype::*;
use gimso_libc_wrappers::mem::load_ptr;
use support::*;

#[test]
fn classification_functions() {
    for c in -1..=255i64 {
        // SAFETY: every value is inside glibc's table.
        let (alpha, digit, space, upper) = unsafe {
            (
                libc::isalpha(c as i32),
                libc::isdigit(c as i32),
                libc::isspace(c as i32),
                libc::toupper(c as i32),
            )
        };
        assert_eq!(invoke(isalpha::entry, &[A::I(c)]).i32(), alpha, "{c}");
        assert_eq!(invoke(isdigit::entry, &[A::I(c)]).i32(), digit, "{c}");
        assert_eq!(invoke(isspace::entry, &[A::I(c)]).i32(), space, "{c}");
        assert_eq!(invoke(toupper::entry, &[A::I(c)]).i32(), upper, "{c}");
    }
    assert_eq!(
        invoke(tolower::entry, &[A::I(b'Q' as i64)]).i32(),
        b'q' as i32
    );
    assert_eq!(invoke(isalpha::entry, &[A::I(100_000)]).i32(), 0);
}

#[test]
fn tables_are_readable_through_capabilities() {
    let holder = invoke(__ctype_b_loc::entry, &[]).ptr();
    assert_eq!(invoke(__ctype_b_loc::entry, &[]).ptr(), holder, "one table");
    let table = load_ptr(holder);
    assert_ne!(table.lower(), 0);
    for c in [-1i64, 0, b'a' as i64, b'7' as i64, 255] {
        let bits = u16::from_ne_bytes(gimso_libc_wrappers::mem::read_int::<2>(
            table.offset(2 * c as isize),
        ));
        // SAFETY: glibc's table covers -128..=255.
        let want = unsafe { *(*libc_ctype_b()).offset(c as isize) };
        assert_eq!(bits, want, "{c}");
    }
    let upper = load_ptr(invoke(__ctype_toupper_loc::entry, &[]).ptr());
    let v = i32::from_ne_bytes(gimso_libc_wrappers::mem::read_int::<4>(
        upper.offset(4 * b'x' as isize),
    ));
    assert_eq!(v, b'X' as i32);
    let lower = load_ptr(invoke(__ctype_tolower_loc::entry, &[]).ptr());
    let v = i32::from_ne_bytes(gimso_libc_wrappers::mem::read_int::<4>(
        lower.offset(4 * b'X' as isize),
    ));
    assert_eq!(v, b'x' as i32);
}

unsafe extern "C" {
    #[link_name = "__ctype_b_loc"]
    fn libc_ctype_b() -> *const *const u16;
}

fn run(name: &str) {
    let table = load_ptr(invoke(__ctype_b_loc::entry, &[]).ptr());
    match name {
        "table_past_end" => {
            gimso_libc_wrappers::mem::read_int::<2>(table.offset(2 * 256));
        }
        "table_write" => {
            gimso_libc_wrappers::mem::write_int(table, &[0, 0]);
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn tables_are_bounded_and_read_only() {
    expect_error("table_past_end", "out-of-bounds read");
    expect_error("table_write", "write to read-only object");
}
