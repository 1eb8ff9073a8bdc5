//! `<regex.h>`: POSIX regular expressions on glibc's engine.
//!
//! glibc's `regex_t` holds pointers to the compiled automaton, which the
//! program must not be able to forge or reach. Here the program's
//! `regex_t` (64 bytes, checked) holds a handle in its first word and
//! `re_nsub` where POSIX puts it; the compiled expression lives in the
//! runtime, found by the handle. `regexec` with a handle that was never
//! compiled or was freed stops the program with a clear error, as a
//! safety report would (natively it reads freed or garbage memory).

use core::ffi::c_int;
use std::sync::Arc;

use gimso_abi::FlightPtr;

use crate::handles::Handles;
use crate::mem;
use crate::wrapper;

/// Bytes of `regex_t`, and where `re_nsub` is in it (glibc, x86-64).
const REGEX_T: usize = 64;
const NSUB_OFFSET: isize = 48;
/// Bytes of `regmatch_t` (two `regoff_t`, 32-bit).
const REGMATCH_T: usize = 8;
const _: () = assert!(core::mem::size_of::<libc::regex_t>() == REGEX_T);
const _: () = assert!(core::mem::size_of::<libc::regmatch_t>() == REGMATCH_T);

/// A compiled expression and the flags it was compiled with.
struct Compiled {
    re: libc::regex_t,
    cflags: c_int,
}

// SAFETY: glibc's regexec may run concurrently on one compiled expression
// (it locks internally); regfree happens only once the table's last
// reference is gone.
unsafe impl Send for Compiled {}
// SAFETY: as above.
unsafe impl Sync for Compiled {}

impl Drop for Compiled {
    fn drop(&mut self) {
        // SAFETY: `re` was compiled by regcomp and is freed once.
        unsafe { libc::regfree(&mut self.re) }
    }
}

/// The live expressions by handle ("RE" in the top bytes).
static TABLE: Handles<Arc<Compiled>> = Handles::new(0x5245);

/// The handle in the program's `regex_t` at `preg` (checked).
fn handle(preg: FlightPtr) -> u64 {
    u64::from_ne_bytes(mem::read_int::<8>(preg))
}

/// The expression the program's `regex_t` names, or a clear stop.
fn compiled(preg: FlightPtr, what: &str) -> Arc<Compiled> {
    let h = handle(preg);
    match TABLE.get(h) {
        Some(c) => c,
        None => crate::report::fatal(&format!(
            "{what}: the regex_t was not compiled by regcomp, or was freed by regfree"
        )),
    }
}

wrapper! {
    /// `int regcomp(regex_t *preg, const char *pattern, int cflags)`.
    fn regcomp(preg: FlightPtr, pattern: FlightPtr, cflags: i32) -> i32 {
        mem::check_write(preg, REGEX_T);
        let pattern = mem::c_string_nul(pattern);
        // SAFETY: all-zero is a valid regex_t to compile into.
        let mut re: libc::regex_t = unsafe { core::mem::zeroed() };
        // SAFETY: `re` is private; the pattern is NUL-terminated.
        let r = unsafe { libc::regcomp(&mut re, pattern.as_ptr().cast(), cflags) };
        if r != 0 {
            return r;
        }
        // SAFETY: re_nsub is the size_t at NSUB_OFFSET of glibc's regex_t
        // (the `libc` crate keeps the field private).
        let nsub = unsafe {
            (&raw const re).cast::<u8>().offset(NSUB_OFFSET).cast::<u64>().read_unaligned()
        };
        let id = TABLE.insert(Arc::new(Compiled { re, cflags }));
        mem::write_bytes(preg, &[0u8; REGEX_T]);
        mem::write_int(preg, &id.to_ne_bytes());
        mem::write_int(preg.offset(NSUB_OFFSET), &nsub.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int regexec(const regex_t *preg, const char *string, size_t nmatch,
    /// regmatch_t pmatch[], int eflags)`: with `REG_STARTEND`, the string
    /// is `string[pmatch[0].rm_so .. pmatch[0].rm_eo]` and need not end in
    /// a NUL.
    fn regexec(preg: FlightPtr, string: FlightPtr, nmatch: usize, pmatch: FlightPtr, eflags: i32) -> i32 {
        let c = compiled(preg, "regexec");
        let nmatch = if c.cflags & libc::REG_NOSUB != 0 { 0 } else { nmatch };
        let startend = eflags & libc::REG_STARTEND != 0;
        let mut matches = vec![libc::regmatch_t { rm_so: 0, rm_eo: 0 }; nmatch.max(usize::from(startend))];
        let text = if startend {
            let raw = mem::read_int::<8>(pmatch);
            let so = i32::from_ne_bytes([raw[0], raw[1], raw[2], raw[3]]);
            let eo = i32::from_ne_bytes([raw[4], raw[5], raw[6], raw[7]]);
            if so < 0 || eo < so {
                return libc::REG_NOMATCH;
            }
            matches[0] = libc::regmatch_t { rm_so: so, rm_eo: eo };
            let mut t = mem::read_bytes(string, eo as usize);
            t.push(0);
            t
        } else {
            mem::c_string_nul(string)
        };
        if nmatch > 0 {
            mem::check_write(pmatch, nmatch.saturating_mul(REGMATCH_T));
        }
        // SAFETY: the compiled expression is live (held by `c`); the text
        // is NUL-terminated; `matches` has room for nmatch entries.
        let r = unsafe {
            libc::regexec(&c.re, text.as_ptr().cast(), nmatch, matches.as_mut_ptr(), eflags)
        };
        if r == 0 {
            for (i, m) in matches.iter().take(nmatch).enumerate() {
                let mut out = [0u8; REGMATCH_T];
                out[..4].copy_from_slice(&m.rm_so.to_ne_bytes());
                out[4..].copy_from_slice(&m.rm_eo.to_ne_bytes());
                mem::write_int(pmatch.offset((i * REGMATCH_T) as isize), &out);
            }
        }
        r
    }
}

wrapper! {
    /// `void regfree(regex_t *preg)`: frees the expression and clears the
    /// handle, so a second `regfree` does nothing (as glibc's).
    fn regfree(preg: FlightPtr) -> () {
        let h = handle(preg);
        if h == 0 {
            return;
        }
        if TABLE.remove(h).is_none() {
            crate::report::fatal("regfree: the regex_t was not compiled by regcomp");
        }
        mem::write_int(preg, &0u64.to_ne_bytes());
    }
}

wrapper! {
    /// `size_t regerror(int errcode, const regex_t *preg, char *errbuf,
    /// size_t errbuf_size)`: the message's size with its NUL; at most
    /// `errbuf_size` bytes of it (NUL-terminated) written.
    fn regerror(errcode: i32, _preg: FlightPtr, errbuf: FlightPtr, size: usize) -> usize {
        let mut msg = [0u8; 256];
        // SAFETY: glibc's message table does not need the expression; the
        // buffer is private.
        let needed = unsafe {
            libc::regerror(errcode, core::ptr::null(), msg.as_mut_ptr().cast(), msg.len())
        };
        if size > 0 {
            let n = needed.min(size).min(msg.len());
            let mut out = msg[..n].to_vec();
            if let Some(last) = out.last_mut() {
                *last = 0;
            }
            mem::write_bytes(errbuf, &out);
        }
        needed
    }
}
