//! `<iconv.h>`: character set conversion on glibc's converters.
//!
//! An `iconv_t` the program holds is a handle (an integer with no
//! capability, so it cannot be dereferenced) naming a converter the
//! runtime keeps; an unknown handle stops the program with a clear error
//! (natively it would be a wild pointer). `iconv` reads the program's
//! `*inbuf`/`*outbuf` pointers with their capabilities, converts from a
//! checked copy of the input into a private output buffer, writes the
//! output through the checked `*outbuf`, and advances both pointers (same
//! capabilities) and counts as glibc would.

use gimso_abi::FlightPtr;

use crate::handles::Handles;
use crate::{errno, mem, wrapper};

/// Open converters (glibc's `iconv_t` as an address) by handle ("IC" in
/// the top bytes: never a valid address, never `(iconv_t)-1`).
static CONVERTERS: Handles<usize> = Handles::new(0x4943);

/// glibc's converter for the program's handle, or a clear stop.
fn converter(cd: FlightPtr, what: &str) -> libc::iconv_t {
    match CONVERTERS.get(cd.intval() as u64) {
        Some(c) => c as libc::iconv_t,
        None => crate::report::fatal(&format!(
            "{what}: the iconv_t was not returned by iconv_open, or was closed"
        )),
    }
}

wrapper! {
    /// `iconv_t iconv_open(const char *tocode, const char *fromcode)`.
    fn iconv_open(to: FlightPtr, from: FlightPtr) -> FlightPtr {
        let to = mem::c_string_nul(to);
        let from = mem::c_string_nul(from);
        // SAFETY: NUL-terminated copies.
        let c = unsafe { libc::iconv_open(to.as_ptr().cast(), from.as_ptr().cast()) };
        if c as isize == -1 {
            errno::sync_from_libc();
            return FlightPtr::from_int(usize::MAX);
        }
        let id = CONVERTERS.insert(c as usize);
        FlightPtr::from_int(id as usize)
    }
}

wrapper! {
    /// `int iconv_close(iconv_t cd)`.
    fn iconv_close(cd: FlightPtr) -> i32 {
        let c = converter(cd, "iconv_close");
        CONVERTERS.remove(cd.intval() as u64);
        // SAFETY: glibc's converter, closed once (removed from the table).
        unsafe { libc::iconv_close(c) }
    }
}

/// The pointer at `pp` and the count at `np` (both checked), or `None` when
/// `pp` or `*pp` is NULL.
fn buffer(pp: FlightPtr, np: FlightPtr) -> Option<(FlightPtr, usize)> {
    if pp.intval() == 0 {
        return None;
    }
    let p = mem::load_ptr(pp);
    if p.intval() == 0 {
        return None;
    }
    Some((p, u64::from_ne_bytes(mem::read_int::<8>(np)) as usize))
}

wrapper! {
    /// `size_t iconv(iconv_t cd, char **inbuf, size_t *inbytesleft, char
    /// **outbuf, size_t *outbytesleft)`.
    fn iconv(cd: FlightPtr, inbuf: FlightPtr, inleft: FlightPtr, outbuf: FlightPtr, outleft: FlightPtr) -> usize {
        let c = converter(cd, "iconv");
        let input = buffer(inbuf, inleft);
        let output = buffer(outbuf, outleft);
        let data = input.map(|(p, n)| mem::read_bytes(p, n));
        if let Some((p, n)) = output {
            mem::check_write(p, n);
        }
        let mut out = vec![0u8; output.map_or(0, |(_, n)| n)];
        let (mut ip, mut il) = match &data {
            Some(d) => (d.as_ptr() as *mut core::ffi::c_char, d.len()),
            None => (core::ptr::null_mut(), 0),
        };
        let (mut op, mut ol) = (out.as_mut_ptr().cast::<core::ffi::c_char>(), out.len());
        let (ipp, ilp) = if data.is_some() {
            (&raw mut ip, &raw mut il)
        } else {
            (core::ptr::null_mut(), core::ptr::null_mut())
        };
        let (opp, olp) = if output.is_some() {
            (&raw mut op, &raw mut ol)
        } else {
            (core::ptr::null_mut(), core::ptr::null_mut())
        };
        // SAFETY: glibc's converter; private input and output buffers with
        // their pointers and counts (or nulls, for a reset).
        let r = unsafe { libc::iconv(c, ipp, ilp, opp, olp) };
        if r == usize::MAX {
            errno::sync_from_libc();
        }
        if let (Some((p, n)), Some(d)) = (input, &data) {
            let consumed = d.len() - il;
            mem::store_ptr(inbuf, p.offset(consumed as isize));
            mem::write_int(inleft, &((n - consumed) as u64).to_ne_bytes());
        }
        if let Some((p, n)) = output {
            let produced = n - ol;
            mem::write_bytes(p, &out[..produced]);
            mem::store_ptr(outbuf, p.offset(produced as isize));
            mem::write_int(outleft, &((n - produced) as u64).to_ne_bytes());
        }
        r
    }
}
