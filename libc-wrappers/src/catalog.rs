//! `<nl_types.h>`: message catalogs (`catopen`, `catgets`, `catclose`).
//!
//! glibc's `nl_catd` is the address of its catalog record; the program
//! gets a handle instead (an integer with no capability, so it cannot be
//! used as memory), checked at every use: an unknown or closed one is an
//! "invalid nl_catd" report. `(nl_catd)-1`, what a failed `catopen`
//! returns, is accepted as glibc accepts it (`catgets` returns the
//! default string, `catclose` fails with `EBADF`), since programs often
//! use it unchecked.

use core::ffi::{c_char, c_int, c_void};

use gimso_abi::FlightPtr;
use gimso_shadow::report::SafetyError;

use crate::handles::Handles;
use crate::{errno, mem, report, wrapper};

mod sys {
    use core::ffi::{c_char, c_int, c_void};

    unsafe extern "C" {
        pub fn catopen(name: *const c_char, flag: c_int) -> *mut c_void;
        pub fn catgets(catd: *mut c_void, set: c_int, msg: c_int, s: *const c_char) -> *mut c_char;
        pub fn catclose(catd: *mut c_void) -> c_int;
    }
}

/// Open catalogs (glibc's `nl_catd`) by handle ("CA" in the top bytes).
static CATALOGS: Handles<usize> = Handles::new(0x4341);

/// `(nl_catd)-1`.
const FAILED: usize = usize::MAX;

/// glibc's catalog for the program's `catd`, `None` for `(nl_catd)-1`.
fn catalog(catd: FlightPtr, what: &'static str) -> Option<*mut c_void> {
    if catd.intval() == FAILED && catd.lower() == 0 {
        return None;
    }
    match CATALOGS.get(catd.intval() as u64) {
        Some(c) if catd.lower() == 0 => Some(c as *mut c_void),
        _ => report::pointer_error(SafetyError::InvalidCatalog, catd, what),
    }
}

wrapper! {
    /// `nl_catd catopen(const char *name, int flag)`.
    fn catopen(name: FlightPtr, flag: i32) -> FlightPtr {
        let name = mem::c_string_nul(name);
        // SAFETY: a NUL-terminated copy.
        let c = unsafe { sys::catopen(name.as_ptr().cast(), flag as c_int) };
        if c as usize == FAILED {
            errno::sync_from_libc();
            return FlightPtr::from_int(FAILED);
        }
        FlightPtr::from_int(CATALOGS.insert(c as usize) as usize)
    }
}

wrapper! {
    /// `char *catgets(nl_catd catd, int set, int msg, const char *s)`: a
    /// read-only copy of the message, or `s` itself (unread, as glibc
    /// leaves it) when there is none.
    fn catgets(catd: FlightPtr, set: i32, msg: i32, s: FlightPtr) -> FlightPtr {
        let Some(c) = catalog(catd, "catgets") else {
            errno::set(libc::EBADF);
            return s;
        };
        // A private default: glibc returns it exactly when it finds no
        // message.
        static MISSING: [c_char; 1] = [0];
        // SAFETY: glibc's open catalog; a NUL-terminated default.
        let r = unsafe { sys::catgets(c, set, msg, MISSING.as_ptr()) };
        if core::ptr::eq(r.cast_const(), MISSING.as_ptr()) {
            errno::sync_from_libc();
            return s;
        }
        // SAFETY: a message of the catalog: NUL-terminated, mapped until
        // catclose (closing it on another thread meanwhile would be a
        // data race of the program's).
        let text = unsafe { core::ffi::CStr::from_ptr(r) };
        mem::alloc_c_string(text.to_bytes(), true)
    }
}

wrapper! {
    /// `int catclose(nl_catd catd)`.
    fn catclose(catd: FlightPtr) -> i32 {
        let Some(c) = catalog(catd, "catclose") else {
            errno::set(libc::EBADF);
            return -1;
        };
        CATALOGS.remove(catd.intval() as u64);
        // SAFETY: glibc's catalog, closed once (removed from the table).
        let r = unsafe { sys::catclose(c) };
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}
