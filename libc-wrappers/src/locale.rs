//! `<locale.h>`: `setlocale` and `localeconv` on glibc's locale, so the
//! C library's own formatting (the `printf` engine, `strtod`, `strcoll`)
//! follows what the program selected.
//!
//! Both return strings (and `localeconv` a structure of them) that the
//! program may read but not write: each is a fresh read-only object, so
//! a later call never changes what an earlier result points to.

use gimso_abi::FlightPtr;

use crate::{mem, wrapper};

wrapper! {
    /// `char *setlocale(int category, const char *locale)`: the locale's
    /// name as a read-only string, or NULL if it cannot be set.
    fn setlocale(category: i32, locale: FlightPtr) -> FlightPtr {
        let name = (locale.intval() != 0).then(|| mem::c_string_nul(locale));
        let ptr = name.as_ref().map_or(core::ptr::null(), |n| n.as_ptr().cast());
        // SAFETY: ptr is null (a query) or a NUL-terminated copy. The
        // runtime's own threads never call setlocale.
        let r = unsafe { libc::setlocale(category, ptr) };
        if r.is_null() {
            return FlightPtr::NULL;
        }
        // SAFETY: setlocale returns a NUL-terminated name.
        let s = unsafe { core::ffi::CStr::from_ptr(r) };
        mem::alloc_c_string(s.to_bytes(), true)
    }
}

/// `sizeof(struct lconv)` on x86-64 glibc: ten `char *`, then 14 `char`s.
const LCONV_SIZE: usize = 96;
const LCONV_STRINGS: usize = 10;
const LCONV_CHARS: usize = 14;

wrapper! {
    /// `struct lconv *localeconv(void)`: a fresh read-only copy of the
    /// current locale's conventions.
    fn localeconv() -> FlightPtr {
        // SAFETY: localeconv has no preconditions; the structure stays
        // valid until the next setlocale, and the program's setlocale
        // runs on a thread that is in this wrapper only if it is this one.
        let lc = unsafe { &*libc::localeconv() };
        let strings = [
            lc.decimal_point,
            lc.thousands_sep,
            lc.grouping,
            lc.int_curr_symbol,
            lc.currency_symbol,
            lc.mon_decimal_point,
            lc.mon_thousands_sep,
            lc.mon_grouping,
            lc.positive_sign,
            lc.negative_sign,
        ];
        let chars: [libc::c_char; LCONV_CHARS] = [
            lc.int_frac_digits,
            lc.frac_digits,
            lc.p_cs_precedes,
            lc.p_sep_by_space,
            lc.n_cs_precedes,
            lc.n_sep_by_space,
            lc.p_sign_posn,
            lc.n_sign_posn,
            lc.int_p_cs_precedes,
            lc.int_p_sep_by_space,
            lc.int_n_cs_precedes,
            lc.int_n_sep_by_space,
            lc.int_p_sign_posn,
            lc.int_n_sign_posn,
        ];
        let out = mem::alloc(LCONV_SIZE, 16, 0);
        for (i, s) in strings.iter().enumerate() {
            // SAFETY: glibc's lconv strings are NUL-terminated.
            let text = unsafe { core::ffi::CStr::from_ptr(*s) };
            let p = mem::alloc_c_string(text.to_bytes(), true);
            mem::store_ptr(out.offset((8 * i) as isize), p);
        }
        let bytes: Vec<u8> = chars.iter().map(|&c| c as u8).collect();
        mem::write_bytes(out.offset((8 * LCONV_STRINGS) as isize), &bytes);
        mem::make_readonly(out);
        out
    }
}
