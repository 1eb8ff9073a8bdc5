//! `<wctype.h>`: wide-character classification and case mapping.
//!
//! The `isw*` and `tow*` functions take a `wint_t` only and are safe for
//! any value, so they call glibc's. `wctype_t` is, in glibc, the address of
//! a class table that `iswctype` reads: the program could forge one, so
//! here a `wctype_t` is the 1-based index of the class in [`CLASSES`] and
//! `iswctype` calls that class's function (0, or any other value, is no
//! class: false).

use crate::mem;
use crate::wrapper;

/// glibc's functions.
mod sys {
    unsafe extern "C" {
        pub fn iswalnum(wc: u32) -> i32;
        pub fn iswalpha(wc: u32) -> i32;
        pub fn iswblank(wc: u32) -> i32;
        pub fn iswcntrl(wc: u32) -> i32;
        pub fn iswdigit(wc: u32) -> i32;
        pub fn iswgraph(wc: u32) -> i32;
        pub fn iswlower(wc: u32) -> i32;
        pub fn iswprint(wc: u32) -> i32;
        pub fn iswpunct(wc: u32) -> i32;
        pub fn iswspace(wc: u32) -> i32;
        pub fn iswupper(wc: u32) -> i32;
        pub fn iswxdigit(wc: u32) -> i32;
        pub fn towlower(wc: u32) -> u32;
        pub fn towupper(wc: u32) -> u32;
    }
}

/// The classes `wctype` knows, by name, with their functions.
const CLASSES: [(&[u8], unsafe extern "C" fn(u32) -> i32); 12] = [
    (b"alnum", sys::iswalnum),
    (b"alpha", sys::iswalpha),
    (b"blank", sys::iswblank),
    (b"cntrl", sys::iswcntrl),
    (b"digit", sys::iswdigit),
    (b"graph", sys::iswgraph),
    (b"lower", sys::iswlower),
    (b"print", sys::iswprint),
    (b"punct", sys::iswpunct),
    (b"space", sys::iswspace),
    (b"upper", sys::iswupper),
    (b"xdigit", sys::iswxdigit),
];

macro_rules! wide {
    ($($name:ident -> $ret:ty),* $(,)?) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "(wint_t wc)`.")]
            fn $name(wc: u32) -> $ret {
                // SAFETY: glibc's wide classification is defined for every
                // wint_t value.
                unsafe { sys::$name(wc) }
            }
        }
    )*};
}

wide!(
    iswalnum -> i32, iswalpha -> i32, iswblank -> i32, iswcntrl -> i32, iswdigit -> i32,
    iswgraph -> i32, iswlower -> i32, iswprint -> i32, iswpunct -> i32, iswspace -> i32,
    iswupper -> i32, iswxdigit -> i32, towlower -> u32, towupper -> u32,
);

wrapper! {
    /// `wctype_t wctype(const char *name)`: the class's index, or 0.
    fn wctype(name: gimso_abi::FlightPtr) -> u64 {
        let name = mem::c_string(name);
        CLASSES
            .iter()
            .position(|(n, _)| *n == name.as_slice())
            .map_or(0, |i| i as u64 + 1)
    }
}

wrapper! {
    /// `int iswctype(wint_t wc, wctype_t desc)`.
    fn iswctype(wc: u32, desc: u64) -> i32 {
        match desc.checked_sub(1).and_then(|i| CLASSES.get(i as usize)) {
            // SAFETY: as for the isw* functions.
            Some((_, f)) => unsafe { f(wc) },
            None => 0,
        }
    }
}
