//! `<libgen.h>` `dirname` and `basename` (POSIX, `__xpg_basename` in
//! glibc), and GNU's `basename` from `<string.h>`. The POSIX pair may write
//! a NUL into the path (checked) and return a pointer into it with its
//! capability, or to a read-only "." or "/" the runtime owns; and
//! `fnmatch`, the shell pattern match of paths.

use std::sync::OnceLock;

use gimso_abi::FlightPtr;

use crate::mem;
use crate::wrapper;

/// A read-only C string object for the program, made once and kept alive.
fn constant(cell: &'static OnceLock<FlightPtr>, text: &[u8]) -> FlightPtr {
    *cell.get_or_init(|| {
        let p = mem::alloc_c_string(text, true);
        gimso_gc::register_global_object(p.lower());
        p
    })
}

fn dot() -> FlightPtr {
    static DOT: OnceLock<FlightPtr> = OnceLock::new();
    constant(&DOT, b".")
}

fn slash() -> FlightPtr {
    static SLASH: OnceLock<FlightPtr> = OnceLock::new();
    constant(&SLASH, b"/")
}

/// The path's bytes (checked up to its NUL), or `None` for NULL.
fn path_bytes(path: FlightPtr) -> Option<Vec<u8>> {
    (path.intval() != 0).then(|| mem::c_string(path))
}

wrapper! {
    /// `char *dirname(char *path)`.
    fn dirname(path: FlightPtr) -> FlightPtr {
        let Some(p) = path_bytes(path) else { return dot() };
        // Drop trailing slashes, then the last component, then the slashes
        // before it.
        let mut end = p.len();
        while end > 1 && p[end - 1] == b'/' {
            end -= 1;
        }
        match p[..end].iter().rposition(|&b| b == b'/') {
            None => dot(),
            Some(last) => {
                let mut cut = last;
                while cut > 0 && p[cut - 1] == b'/' {
                    cut -= 1;
                }
                if cut == 0 {
                    // The parent is the root ("/x", "//x").
                    return slash();
                }
                mem::write_bytes(path.offset(cut as isize), &[0]);
                path
            }
        }
    }
}

wrapper! {
    /// `char *__xpg_basename(char *path)` (POSIX `basename`).
    fn __xpg_basename(path: FlightPtr) -> FlightPtr {
        let Some(p) = path_bytes(path) else { return dot() };
        if p.is_empty() {
            return dot();
        }
        let mut end = p.len();
        while end > 1 && p[end - 1] == b'/' {
            end -= 1;
        }
        if end == 1 && p[0] == b'/' {
            return slash();
        }
        if end < p.len() {
            mem::write_bytes(path.offset(end as isize), &[0]);
        }
        let start = p[..end].iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
        path.offset(start as isize)
    }
}

wrapper! {
    /// `char *basename(const char *path)` (GNU): the part after the last
    /// slash, without changing the path (empty when it ends in a slash).
    fn basename(path: FlightPtr) -> FlightPtr {
        let p = mem::c_string(path);
        let start = p.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
        path.offset(start as isize)
    }
}

wrapper! {
    /// `int fnmatch(const char *pattern, const char *string, int flags)`:
    /// glibc's matcher on checked copies.
    fn fnmatch(pattern: FlightPtr, string: FlightPtr, flags: i32) -> i32 {
        let p = mem::c_string_nul(pattern);
        let s = mem::c_string_nul(string);
        // SAFETY: both are NUL-terminated private copies.
        unsafe { libc::fnmatch(p.as_ptr().cast(), s.as_ptr().cast(), flags) }
    }
}
