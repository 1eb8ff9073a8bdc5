//! Whole-string multibyte/wide conversions that advance the program's
//! source pointer (`mbsrtowcs`, `mbsnrtowcs`, `wcsrtombs`, `wcsnrtombs`),
//! wide number parsing (`wcstol` … `wcstold`), the x87 `long double`
//! parsers (`strtold`, `strtold_l`, `wcstold`), and wide formatting into a
//! wide buffer (`swprintf`, `vswprintf`).
//!
//! Conversions run glibc on checked private copies; the updated source
//! pointer and every `endptr` are the program's own pointer moved by the
//! distance glibc moved its copy, so they keep the program's capability.
//! Destination buffers are checked for exactly the units written.

use core::ffi::c_char;

use gimso_abi::FlightPtr;
use gimso_shadow::check::Access;

use crate::cc::VarArgs;
use crate::format::{ArgSource, VaList, format_wide};
use crate::wchar::{state_in, state_out, to_units, units_bytes, wcs_nlen};
use crate::{errno, mem, wrapper};

/// Bytes of a `wchar_t`.
const W: usize = 4;

mod sys {
    use core::ffi::{c_char, c_int, c_long, c_longlong, c_ulong, c_ulonglong};

    type St = *mut [u8; 8];

    unsafe extern "C" {
        pub fn mbsrtowcs(dst: *mut i32, src: *mut *const c_char, len: usize, ps: St) -> usize;
        pub fn mbsnrtowcs(
            dst: *mut i32,
            src: *mut *const c_char,
            nms: usize,
            len: usize,
            ps: St,
        ) -> usize;
        pub fn wcsrtombs(dst: *mut c_char, src: *mut *const i32, len: usize, ps: St) -> usize;
        pub fn wcsnrtombs(
            dst: *mut c_char,
            src: *mut *const i32,
            nwc: usize,
            len: usize,
            ps: St,
        ) -> usize;
        pub fn wcstol(s: *const i32, end: *mut *mut i32, base: c_int) -> c_long;
        pub fn wcstoul(s: *const i32, end: *mut *mut i32, base: c_int) -> c_ulong;
        pub fn wcstoll(s: *const i32, end: *mut *mut i32, base: c_int) -> c_longlong;
        pub fn wcstoull(s: *const i32, end: *mut *mut i32, base: c_int) -> c_ulonglong;
        pub fn wcstod(s: *const i32, end: *mut *mut i32) -> f64;
        pub fn wcstof(s: *const i32, end: *mut *mut i32) -> f32;
        pub fn iswspace(wc: u32) -> c_int;
        pub fn mbstowcs(dst: *mut i32, src: *const c_char, n: usize) -> usize;
        /// Declared without their `long double` result, which Rust cannot
        /// receive: only called through [`super::call_f80`].
        pub fn strtold();
        pub fn strtold_l();
        pub fn wcstold();
    }
}

/// `(size_t)-1`: a conversion error.
const FAILED: usize = usize::MAX;

/// The bytes of the program's string at `src` that a conversion may read:
/// the whole string with its NUL, or at most `limit` bytes (with the NUL
/// only if it comes within them).
fn source_bytes(src: FlightPtr, limit: Option<usize>) -> Vec<u8> {
    match limit {
        None => mem::c_string_nul(src),
        Some(n) => {
            let len = mem::c_strnlen(src, n);
            mem::read_bytes(src, if len < n { len + 1 } else { n })
        }
    }
}

/// `mbsrtowcs` (`nms` None) and `mbsnrtowcs`.
fn mbs_to_wcs(
    dst: FlightPtr,
    srcp: FlightPtr,
    nms: Option<usize>,
    len: usize,
    ps: FlightPtr,
) -> usize {
    let src = mem::load_ptr(srcp);
    let bytes = source_bytes(src, nms);
    let mut st = state_in(ps);
    let initial = st.unwrap_or([0; 8]);
    let stp = st
        .as_mut()
        .map_or(core::ptr::null_mut(), |s| s as *mut [u8; 8]);
    let counting = dst.intval() == 0;
    // Never more wide characters than bytes (the NUL included).
    let room = if counting { 0 } else { len.min(bytes.len()) };
    let mut out = vec![0i32; room.max(1)];
    let outp = if counting {
        core::ptr::null_mut()
    } else {
        out.as_mut_ptr()
    };
    let start = bytes.as_ptr().cast::<c_char>();
    let mut at = start;
    // SAFETY: private buffers: `bytes` (NUL-terminated unless limited to
    // its length by nms), `out` with room for `room` units, a private
    // state or null (glibc's own).
    let r = unsafe {
        match nms {
            None => sys::mbsrtowcs(outp, &mut at, room, stp),
            Some(_) => sys::mbsnrtowcs(outp, &mut at, bytes.len(), room, stp),
        }
    };
    if r == FAILED {
        errno::sync_from_libc();
    }
    if !counting {
        let written = if at.is_null() {
            r + 1
        } else if r == FAILED {
            // The characters before the invalid one were stored.
            let consumed = at as usize - start as usize;
            let mut from = start;
            let mut state = initial;
            // SAFETY: counting form over the consumed, valid prefix.
            let n = unsafe {
                sys::mbsnrtowcs(
                    core::ptr::null_mut(),
                    &mut from,
                    consumed,
                    usize::MAX,
                    &mut state,
                )
            };
            if n == FAILED { 0 } else { n }
        } else {
            r
        };
        let written = written.min(out.len());
        write_back(
            dst,
            &units_bytes(&out[..written]),
            srcp,
            src,
            advanced(at, start),
        );
    }
    state_out(ps, &st);
    r
}

wrapper! {
    /// `size_t mbsrtowcs(wchar_t *dst, const char **src, size_t len, mbstate_t *ps)`.
    fn mbsrtowcs(dst: FlightPtr, src: FlightPtr, len: usize, ps: FlightPtr) -> usize {
        mbs_to_wcs(dst, src, None, len, ps)
    }
}

wrapper! {
    /// `size_t mbsnrtowcs(wchar_t *dst, const char **src, size_t nms, size_t len, mbstate_t *ps)`.
    fn mbsnrtowcs(dst: FlightPtr, src: FlightPtr, nms: usize, len: usize, ps: FlightPtr) -> usize {
        mbs_to_wcs(dst, src, Some(nms), len, ps)
    }
}

/// How many bytes libc advanced `at` from `start`, or `None` if it set it
/// to null (the whole string, terminator included, was converted).
fn advanced<T>(at: *const T, start: *const T) -> Option<usize> {
    (!at.is_null()).then(|| at as usize - start as usize)
}

/// The end of a whole-string conversion: the converted bytes to `dst`
/// (checked for exactly them), and the program's source pointer at `srcp`
/// moved as libc moved its copy (`moved` bytes on, or null), keeping the
/// program's capability.
fn write_back(dst: FlightPtr, bytes: &[u8], srcp: FlightPtr, src: FlightPtr, moved: Option<usize>) {
    mem::check_write(dst, bytes.len());
    mem::write_bytes(dst, bytes);
    let next = moved.map_or(FlightPtr::NULL, |n| src.offset(n as isize));
    mem::store_ptr(srcp, next);
}

/// `wcsrtombs` (`nwc` None) and `wcsnrtombs`.
fn wcs_to_mbs(
    dst: FlightPtr,
    srcp: FlightPtr,
    nwc: Option<usize>,
    len: usize,
    ps: FlightPtr,
) -> usize {
    let src = mem::load_ptr(srcp);
    let limit = nwc.unwrap_or(usize::MAX);
    let n = wcs_nlen(src, limit);
    let units = to_units(&mem::read_bytes(src, if n < limit { n + 1 } else { n } * W));
    let mut st = state_in(ps);
    let initial = st.unwrap_or([0; 8]);
    let stp = st
        .as_mut()
        .map_or(core::ptr::null_mut(), |s| s as *mut [u8; 8]);
    let counting = dst.intval() == 0;
    const MB_LEN_MAX: usize = 16;
    let room = if counting {
        0
    } else {
        len.min(units.len().saturating_mul(MB_LEN_MAX))
    };
    let mut out = vec![0u8; room.max(1)];
    let outp = if counting {
        core::ptr::null_mut()
    } else {
        out.as_mut_ptr().cast::<c_char>()
    };
    let start = units.as_ptr();
    let mut at = start;
    // SAFETY: private buffers as in mbs_to_wcs.
    let r = unsafe {
        match nwc {
            None => sys::wcsrtombs(outp, &mut at, room, stp),
            Some(_) => sys::wcsnrtombs(outp, &mut at, units.len(), room, stp),
        }
    };
    if r == FAILED {
        errno::sync_from_libc();
    }
    if !counting {
        let written = if at.is_null() {
            r + 1
        } else if r == FAILED {
            let consumed = (at as usize - start as usize) / W;
            let mut from = start;
            let mut state = initial;
            // SAFETY: counting form over the consumed, valid prefix.
            let n = unsafe {
                sys::wcsnrtombs(
                    core::ptr::null_mut(),
                    &mut from,
                    consumed,
                    usize::MAX,
                    &mut state,
                )
            };
            if n == FAILED { 0 } else { n }
        } else {
            r
        };
        let written = written.min(out.len());
        write_back(dst, &out[..written], srcp, src, advanced(at, start));
    }
    state_out(ps, &st);
    r
}

wrapper! {
    /// `size_t wcsrtombs(char *dst, const wchar_t **src, size_t len, mbstate_t *ps)`.
    fn wcsrtombs(dst: FlightPtr, src: FlightPtr, len: usize, ps: FlightPtr) -> usize {
        wcs_to_mbs(dst, src, None, len, ps)
    }
}

wrapper! {
    /// `size_t wcsnrtombs(char *dst, const wchar_t **src, size_t nwc, size_t len, mbstate_t *ps)`.
    fn wcsnrtombs(dst: FlightPtr, src: FlightPtr, nwc: usize, len: usize, ps: FlightPtr) -> usize {
        wcs_to_mbs(dst, src, Some(nwc), len, ps)
    }
}

/// The decimal point of the calling thread's locale, as wide units.
fn wide_point() -> Vec<i32> {
    // SAFETY: localeconv returns the thread's valid lconv, whose
    // decimal_point is NUL-terminated.
    let point = unsafe { core::ffi::CStr::from_ptr((*libc::localeconv()).decimal_point) };
    let mut out = [0i32; 8];
    // SAFETY: a NUL-terminated string; room for 7 units and a terminator.
    let n = unsafe { sys::mbstowcs(out.as_mut_ptr(), point.as_ptr(), 7) };
    if n == FAILED {
        Vec::new()
    } else {
        out[..n].to_vec()
    }
}

/// The wide analogue of `stdlib::number_prefix`: the units of the wide
/// string at `p` a number parser may read (leading wide white space, then
/// units numbers are written with), terminated, checking the first unit
/// that cannot continue a number; running off the object is an
/// out-of-bounds read.
fn wide_number_prefix(p: FlightPtr) -> Vec<i32> {
    let units = mem::readable(p) / W;
    // SAFETY: readable() checked `units * W` bytes at p.
    let window = to_units(unsafe { mem::bytes(p, units * W) });
    let point = wide_point();
    // SAFETY: iswspace is defined for every wint_t.
    let spaces = window
        .iter()
        .take_while(|&&u| u != 0 && unsafe { sys::iswspace(u as u32) } != 0)
        .count();
    let in_number = |u: i32| {
        u8::try_from(u).is_ok_and(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-' | b'(' | b')' | b'_')
        }) || (u != 0 && point.contains(&u))
    };
    match window[spaces..].iter().position(|&u| !in_number(u)) {
        Some(n) => {
            let mut copy = window[..spaces + n].to_vec();
            copy.push(0);
            copy
        }
        None => {
            mem::check_access(p, Access::read((units + 1) * W));
            mem::unreachable_after_check()
        }
    }
}

/// Runs wide parser `parse` on the string at `nptr` and stores the end
/// into `*endptr` (when non-null) with `nptr`'s capability.
fn wide_parse<T>(
    nptr: FlightPtr,
    endptr: FlightPtr,
    parse: impl FnOnce(*const i32, *mut *mut i32) -> T,
) -> T {
    let s = wide_number_prefix(nptr);
    let mut end: *mut i32 = core::ptr::null_mut();
    // SAFETY: __errno_location returns the calling thread's errno.
    unsafe { *libc::__errno_location() = 0 };
    let v = parse(s.as_ptr(), &mut end);
    // SAFETY: as above.
    let e = unsafe { *libc::__errno_location() };
    if e != 0 {
        errno::set(e);
    }
    if endptr.intval() != 0 || endptr.lower() != 0 {
        let consumed = if end.is_null() {
            0
        } else {
            end as usize - s.as_ptr() as usize
        };
        mem::store_ptr(endptr, nptr.offset(consumed as isize));
    }
    v
}

macro_rules! wide_int {
    ($($name:ident -> $ret:ty),* $(,)?) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "(const wchar_t *s, wchar_t **end, int base)`.")]
            fn $name(s: FlightPtr, end: FlightPtr, base: i32) -> $ret {
                // SAFETY: a terminated private copy and a private end.
                wide_parse(s, end, |p, e| unsafe { sys::$name(p, e, base) as $ret })
            }
        }
    )*};
}

wide_int!(wcstol -> i64, wcstoul -> u64, wcstoll -> i64, wcstoull -> u64);

wrapper! {
    /// `double wcstod(const wchar_t *s, wchar_t **end)`.
    fn wcstod(s: FlightPtr, end: FlightPtr) -> f64 {
        // SAFETY: a terminated private copy and a private end.
        wide_parse(s, end, |p, e| unsafe { sys::wcstod(p, e) })
    }
}

wrapper! {
    /// `float wcstof(const wchar_t *s, wchar_t **end)`.
    fn wcstof(s: FlightPtr, end: FlightPtr) -> f32 {
        // SAFETY: a terminated private copy and a private end.
        wide_parse(s, end, |p, e| unsafe { sys::wcstof(p, e) })
    }
}

/// Calls the C function at `f` with three integer or pointer arguments,
/// for its x87 `long double` result (returned in `st(0)`, which Rust
/// cannot receive): the value's 16-byte memory image, as an x86-64
/// `long double` is stored and as the wrapper ABI returns it.
///
/// # Safety
/// `f` is a C function taking (up to) three such arguments, returning a
/// `long double`, and safe to call with `a`, `b`, `c`.
unsafe fn call_f80(f: unsafe extern "C" fn(), a: usize, b: usize, c: usize) -> [u64; 2] {
    let mut image = [0u64; 2];
    // SAFETY: the contract makes the call itself sound; the x87 stack is
    // empty on entry (the C ABI) and `fstp` pops the one result, leaving
    // it empty again; r12 is callee-saved, so it still points at `image`
    // after the call; clobber_abi("C") covers every register the callee
    // may change; without `nostack` the compiler aligns the stack pointer
    // for a call at the block's start and keeps nothing in the red zone,
    // so pushing the return address is allowed.
    unsafe {
        core::arch::asm!(
            "call {f}",
            "fstp tbyte ptr [r12]",
            f = in(reg) f,
            in("rdi") a,
            in("rsi") b,
            in("rdx") c,
            in("r12") image.as_mut_ptr(),
            clobber_abi("C"),
        );
    }
    // Only the 10 bytes fstp stores are the value.
    image[1] &= 0xffff;
    image
}

wrapper! {
    /// `long double strtold(const char *s, char **end)`.
    fn strtold(s: FlightPtr, end: FlightPtr) -> [u64; 2] {
        crate::stdlib::parse_with(s, end, |p, e| {
            // SAFETY: strtold(const char *, char **) on a NUL-terminated
            // private copy and a private end.
            unsafe { call_f80(sys::strtold, p as usize, e as usize, 0) }
        })
    }
}

wrapper! {
    /// `long double strtold_l(const char *s, char **end, locale_t loc)`.
    fn strtold_l(s: FlightPtr, end: FlightPtr, loc: FlightPtr) -> [u64; 2] {
        let l = crate::xlocale::raw_for(loc, "strtold_l");
        let point = crate::xlocale::decimal_point(l);
        crate::stdlib::parse_in(s, end, &point, |p, e| {
            // SAFETY: strtold_l(const char *, char **, locale_t) on a
            // private copy, a private end and a live locale.
            unsafe { call_f80(sys::strtold_l, p as usize, e as usize, l as usize) }
        })
    }
}

wrapper! {
    /// `long double wcstold(const wchar_t *s, wchar_t **end)`.
    fn wcstold(s: FlightPtr, end: FlightPtr) -> [u64; 2] {
        wide_parse(s, end, |p, e| {
            // SAFETY: wcstold(const wchar_t *, wchar_t **) on a terminated
            // private copy and a private end.
            unsafe { call_f80(sys::wcstold, p as usize, e as usize, 0) }
        })
    }
}

/// `swprintf`/`vswprintf` into `buf` of `n` wide characters: the output
/// and its terminator if they fit (the count returned), else, as glibc
/// does, only the first `n - 1` characters (no terminator) and -1.
fn wprint_into(buf: FlightPtr, n: usize, fmt: FlightPtr, src: &mut impl ArgSource) -> i32 {
    let fmt = crate::wchar::wcs_nul(fmt);
    let mut out = match format_wide(&fmt[..fmt.len() - 1], src) {
        Ok(out) => out,
        Err(e) => {
            errno::set(e.errno);
            return -1;
        }
    };
    let len = out.len();
    if len < n && len <= i32::MAX as usize {
        out.push(0);
        mem::check_write(buf, out.len() * W);
        mem::write_bytes(buf, &units_bytes(&out));
        return len as i32;
    }
    out.truncate(n.saturating_sub(1));
    mem::check_write(buf, out.len() * W);
    mem::write_bytes(buf, &units_bytes(&out));
    -1
}

wrapper! {
    /// `int swprintf(wchar_t *buf, size_t n, const wchar_t *fmt, ...)`.
    fn swprintf(buf: FlightPtr, n: usize, fmt: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        wprint_into(buf, n, fmt, &mut va)
    }
}

wrapper! {
    /// `int vswprintf(wchar_t *buf, size_t n, const wchar_t *fmt, va_list ap)`.
    fn vswprintf(buf: FlightPtr, n: usize, fmt: FlightPtr, ap: FlightPtr) -> i32 {
        wprint_into(buf, n, fmt, &mut VaList::open(ap))
    }
}
