//! `<wchar.h>`: wide strings (`wchar_t` is 4 bytes), wide memory
//! functions, the multibyte conversions of the current locale, and
//! `wcwidth`/`wcswidth`. Every string is checked up to and including its
//! terminator, every buffer for the units the call reads or writes;
//! conversions run on private copies through glibc, so their results are
//! the locale's.

use gimso_abi::FlightPtr;

use crate::mem;
use crate::wrapper;

/// Bytes of a `wchar_t`, of `mbstate_t`, and the longest multibyte
/// character glibc produces (`MB_LEN_MAX`).
const W: usize = 4;
const MBSTATE: usize = 8;
const MB_LEN_MAX: usize = 16;

/// glibc functions the `libc` crate does not declare.
mod sys {
    unsafe extern "C" {
        pub fn mbrtowc(pwc: *mut i32, s: *const u8, n: usize, ps: *mut [u8; 8]) -> usize;
        pub fn wcrtomb(s: *mut u8, wc: i32, ps: *mut [u8; 8]) -> usize;
        pub fn mbsinit(ps: *const [u8; 8]) -> i32;
        pub fn btowc(c: i32) -> u32;
        pub fn wctob(c: u32) -> i32;
        pub fn wcwidth(c: i32) -> i32;
        pub fn mblen(s: *const u8, n: usize) -> i32;
        pub fn wctomb(s: *mut u8, wc: i32) -> i32;
        pub fn mbstowcs(dst: *mut i32, src: *const core::ffi::c_char, n: usize) -> usize;
        pub fn wcstombs(dst: *mut core::ffi::c_char, src: *const i32, n: usize) -> usize;
    }
}

/// Units of the wide string at `p` before its terminator; the string and
/// its terminator are checked (running off the object is reported).
pub(crate) fn wcs_len(p: FlightPtr) -> usize {
    wcs_nlen(p, usize::MAX)
}

/// `wcsnlen`: units before the terminator, at most `max`; what is read is
/// checked.
pub(crate) fn wcs_nlen(p: FlightPtr, max: usize) -> usize {
    if max == 0 {
        return 0;
    }
    let units = mem::readable(p) / W;
    // SAFETY: readable() checked `units * W` bytes at p.
    let bytes = unsafe { mem::bytes(p, units * W) };
    let found = bytes
        .chunks_exact(W)
        .take(max)
        .position(|c| c == [0, 0, 0, 0]);
    match found {
        Some(i) => i,
        None if units >= max => max,
        None => {
            // The terminator would be past the object.
            mem::check_read(p, (units + 1) * W);
            units
        }
    }
}

/// The units of the wide string at `p` (checked), without the terminator.
fn wcs(p: FlightPtr) -> Vec<i32> {
    let n = wcs_len(p);
    to_units(&mem::read_bytes(p, n * W))
}

/// The units of the wide string at `p` with its terminator, for a libc
/// call (checked).
pub(crate) fn wcs_nul(p: FlightPtr) -> Vec<i32> {
    let mut units = wcs(p);
    units.push(0);
    units
}

/// The bytes of `units`, to write into the program's memory.
pub(crate) fn units_bytes(units: &[i32]) -> Vec<u8> {
    to_bytes(units)
}

pub(crate) fn to_units(bytes: &[u8]) -> Vec<i32> {
    bytes
        .chunks_exact(W)
        .map(|c| i32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn to_bytes(units: &[i32]) -> Vec<u8> {
    units.iter().flat_map(|u| u.to_ne_bytes()).collect()
}

wrapper! {
    /// `size_t wcslen(const wchar_t *s)`.
    fn wcslen(s: FlightPtr) -> usize {
        wcs_len(s)
    }
}

wrapper! {
    /// `size_t wcsnlen(const wchar_t *s, size_t max)`.
    fn wcsnlen(s: FlightPtr, max: usize) -> usize {
        wcs_nlen(s, max)
    }
}

/// Compares at most `limit` units of two wide strings (as `wchar_t`, signed).
fn wcs_compare(a: FlightPtr, b: FlightPtr, limit: usize) -> i32 {
    let x = wcs(a);
    let y = wcs(b);
    let xs = x.iter().chain(core::iter::once(&0));
    let ys = y.iter().chain(core::iter::once(&0));
    for (&p, &q) in xs.zip(ys).take(limit) {
        if p != q {
            return if p < q { -1 } else { 1 };
        }
        if p == 0 {
            break;
        }
    }
    0
}

wrapper! {
    /// `int wcscmp(const wchar_t *a, const wchar_t *b)`.
    fn wcscmp(a: FlightPtr, b: FlightPtr) -> i32 {
        wcs_compare(a, b, usize::MAX)
    }
}

wrapper! {
    /// `int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n)`.
    fn wcsncmp(a: FlightPtr, b: FlightPtr, n: usize) -> i32 {
        wcs_compare(a, b, n)
    }
}

wrapper! {
    /// `wchar_t *wcscpy(wchar_t *dst, const wchar_t *src)`.
    fn wcscpy(dst: FlightPtr, src: FlightPtr) -> FlightPtr {
        let n = (wcs_len(src) + 1) * W;
        mem::memmove(dst, src, n);
        dst
    }
}

wrapper! {
    /// `wchar_t *wcsncpy(wchar_t *dst, const wchar_t *src, size_t n)`.
    fn wcsncpy(dst: FlightPtr, src: FlightPtr, n: usize) -> FlightPtr {
        if n == 0 {
            return dst;
        }
        let len = wcs_nlen(src, n);
        let copied = if len < n { len + 1 } else { n };
        mem::check_write(dst, n.saturating_mul(W));
        mem::memmove(dst, src, copied * W);
        if copied < n {
            mem::memset(dst.offset((copied * W) as isize), 0, (n - copied) * W);
        }
        dst
    }
}

wrapper! {
    /// `wchar_t *wcscat(wchar_t *dst, const wchar_t *src)`.
    fn wcscat(dst: FlightPtr, src: FlightPtr) -> FlightPtr {
        let at = dst.offset((wcs_len(dst) * W) as isize);
        mem::memmove(at, src, (wcs_len(src) + 1) * W);
        dst
    }
}

wrapper! {
    /// `wchar_t *wcschr(const wchar_t *s, wchar_t c)`: `c == 0` finds the
    /// terminator.
    fn wcschr(s: FlightPtr, c: i32) -> FlightPtr {
        let units = wcs(s);
        match units.iter().chain(core::iter::once(&0)).position(|&u| u == c) {
            Some(i) => s.offset((i * W) as isize),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `wchar_t *wcsrchr(const wchar_t *s, wchar_t c)`.
    fn wcsrchr(s: FlightPtr, c: i32) -> FlightPtr {
        let mut units = wcs(s);
        units.push(0);
        match units.iter().rposition(|&u| u == c) {
            Some(i) => s.offset((i * W) as isize),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `wchar_t *wcsdup(const wchar_t *s)`.
    fn wcsdup(s: FlightPtr) -> FlightPtr {
        let mut units = wcs(s);
        units.push(0);
        let bytes = to_bytes(&units);
        let p = mem::alloc(bytes.len(), 16, 0);
        mem::write_bytes(p, &bytes);
        p
    }
}

wrapper! {
    /// `wchar_t *wmemcpy(wchar_t *dst, const wchar_t *src, size_t n)` (and
    /// `wmemmove`): moves `n` units, capabilities as `memmove` does.
    fn wmemcpy | wmemmove(dst: FlightPtr, src: FlightPtr, n: usize) -> FlightPtr {
        mem::memmove(dst, src, n.saturating_mul(W));
        dst
    }
}

wrapper! {
    /// `wchar_t *wmemset(wchar_t *s, wchar_t c, size_t n)`.
    fn wmemset(s: FlightPtr, c: i32, n: usize) -> FlightPtr {
        mem::check_write(s, n.saturating_mul(W));
        mem::write_bytes(s, &to_bytes(&vec![c; n]));
        s
    }
}

wrapper! {
    /// `int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n)`.
    fn wmemcmp(a: FlightPtr, b: FlightPtr, n: usize) -> i32 {
        let x = to_units(&mem::read_bytes(a, n.saturating_mul(W)));
        let y = to_units(&mem::read_bytes(b, n.saturating_mul(W)));
        match x.iter().zip(&y).find(|(p, q)| p != q) {
            Some((p, q)) => if p < q { -1 } else { 1 },
            None => 0,
        }
    }
}

wrapper! {
    /// `wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n)`.
    fn wmemchr(s: FlightPtr, c: i32, n: usize) -> FlightPtr {
        let units = to_units(&mem::read_bytes(s, n.saturating_mul(W)));
        match units.iter().position(|&u| u == c) {
            Some(i) => s.offset((i * W) as isize),
            None => FlightPtr::NULL,
        }
    }
}

/// The program's `mbstate_t` (checked for reading and writing), or `None`
/// for NULL (the function's own internal state, as in glibc).
pub(crate) fn state_in(ps: FlightPtr) -> Option<[u8; MBSTATE]> {
    (ps.intval() != 0).then(|| {
        mem::check_write(ps, MBSTATE);
        mem::read_int::<MBSTATE>(ps)
    })
}

pub(crate) fn state_out(ps: FlightPtr, st: &Option<[u8; MBSTATE]>) {
    if let Some(st) = st {
        mem::write_int(ps, st);
    }
}

/// Up to `n` (at most `MB_LEN_MAX`) bytes at `s` for a conversion: as many
/// as the object holds. Returns them and whether the object ended first.
fn mb_window(s: FlightPtr, n: usize) -> (Vec<u8>, bool) {
    let want = n.min(MB_LEN_MAX);
    if want == 0 {
        return (Vec::new(), false);
    }
    let avail = mem::readable(s);
    let take = want.min(avail);
    (mem::read_bytes(s, take), take < want)
}

/// `size_t` results of the restartable conversions.
const INCOMPLETE: usize = usize::MAX - 1;

wrapper! {
    /// `size_t mbrtowc(wchar_t *pwc, const char *s, size_t n, mbstate_t *ps)`:
    /// a character cut off by the end of the object (natively a read past
    /// it) is an out-of-bounds read.
    fn mbrtowc(pwc: FlightPtr, s: FlightPtr, n: usize, ps: FlightPtr) -> usize {
        let mut st = state_in(ps);
        let stp = st.as_mut().map_or(core::ptr::null_mut(), |s| s as *mut [u8; MBSTATE]);
        if s.intval() == 0 {
            // SAFETY: the NULL form resets the state.
            let r = unsafe { sys::mbrtowc(core::ptr::null_mut(), c"".as_ptr().cast(), 1, stp) };
            state_out(ps, &st);
            return r;
        }
        let (bytes, cut) = mb_window(s, n);
        let mut wc = 0i32;
        // SAFETY: private buffers of the stated sizes.
        let r = unsafe { sys::mbrtowc(&mut wc, bytes.as_ptr(), bytes.len(), stp) };
        if r == INCOMPLETE && cut {
            mem::check_read(s, bytes.len() + 1);
        }
        if r < INCOMPLETE && pwc.intval() != 0 {
            mem::write_int(pwc, &wc.to_ne_bytes());
        }
        state_out(ps, &st);
        r
    }
}

wrapper! {
    /// `size_t mbrlen(const char *s, size_t n, mbstate_t *ps)` (and
    /// glibc's internal name for it, which its headers' inline uses).
    fn mbrlen | __mbrlen(s: FlightPtr, n: usize, ps: FlightPtr) -> usize {
        mbrtowc::call(FlightPtr::NULL, s, n, ps)
    }
}

wrapper! {
    /// `int mbtowc(wchar_t *pwc, const char *s, size_t n)`: `mbrtowc` with
    /// a private state (the encodings glibc offers here keep none between
    /// complete characters); -1 for invalid or incomplete input.
    fn mbtowc(pwc: FlightPtr, s: FlightPtr, n: usize) -> i32 {
        if s.intval() == 0 {
            return 0;
        }
        let mut st = [0u8; MBSTATE];
        let (bytes, cut) = mb_window(s, n);
        let mut wc = 0i32;
        // SAFETY: private buffers.
        let r = unsafe { sys::mbrtowc(&mut wc, bytes.as_ptr(), bytes.len(), &mut st) };
        if r == INCOMPLETE && cut {
            mem::check_read(s, bytes.len() + 1);
        }
        if r >= INCOMPLETE {
            crate::errno::set(libc::EILSEQ);
            return -1;
        }
        if pwc.intval() != 0 {
            mem::write_int(pwc, &wc.to_ne_bytes());
        }
        r as i32
    }
}

wrapper! {
    /// `int mblen(const char *s, size_t n)`.
    fn mblen(s: FlightPtr, n: usize) -> i32 {
        if s.intval() == 0 {
            // SAFETY: the NULL form asks whether the encoding has state.
            return unsafe { sys::mblen(core::ptr::null(), 0) };
        }
        mbtowc::call(FlightPtr::NULL, s, n)
    }
}

wrapper! {
    /// `size_t wcrtomb(char *s, wchar_t wc, mbstate_t *ps)`: `s` must have
    /// room for the bytes written.
    fn wcrtomb(s: FlightPtr, wc: i32, ps: FlightPtr) -> usize {
        let mut st = state_in(ps);
        let stp = st.as_mut().map_or(core::ptr::null_mut(), |s| s as *mut [u8; MBSTATE]);
        let mut out = [0u8; MB_LEN_MAX];
        let (wc, buf) = if s.intval() == 0 { (0, out.as_mut_ptr()) } else { (wc, out.as_mut_ptr()) };
        // SAFETY: a private buffer of MB_LEN_MAX bytes.
        let r = unsafe { sys::wcrtomb(buf, wc, stp) };
        if r != usize::MAX && s.intval() != 0 {
            mem::write_bytes(s, &out[..r]);
        }
        state_out(ps, &st);
        r
    }
}

wrapper! {
    /// `int wctomb(char *s, wchar_t wc)`.
    fn wctomb(s: FlightPtr, wc: i32) -> i32 {
        if s.intval() == 0 {
            // SAFETY: the NULL form asks whether the encoding has state.
            return unsafe { sys::wctomb(core::ptr::null_mut(), 0) };
        }
        let mut out = [0u8; MB_LEN_MAX];
        // SAFETY: a private buffer of MB_LEN_MAX bytes.
        let r = unsafe { sys::wctomb(out.as_mut_ptr(), wc) };
        if r > 0 {
            mem::write_bytes(s, &out[..r as usize]);
        }
        r
    }
}

wrapper! {
    /// `int mbsinit(const mbstate_t *ps)`.
    fn mbsinit(ps: FlightPtr) -> i32 {
        if ps.intval() == 0 {
            return 1;
        }
        let st = mem::read_int::<MBSTATE>(ps);
        // SAFETY: a private copy of the state.
        unsafe { sys::mbsinit(&st) }
    }
}

wrapper! {
    /// `wint_t btowc(int c)`.
    fn btowc(c: i32) -> u32 {
        // SAFETY: no memory involved.
        unsafe { sys::btowc(c) }
    }
}

wrapper! {
    /// `int wctob(wint_t c)`.
    fn wctob(c: u32) -> i32 {
        // SAFETY: no memory involved.
        unsafe { sys::wctob(c) }
    }
}

wrapper! {
    /// `size_t mbstowcs(wchar_t *dst, const char *src, size_t n)`: the
    /// whole string converted privately; at most `n` units (and the
    /// terminator if it fits) written.
    fn mbstowcs(dst: FlightPtr, src: FlightPtr, n: usize) -> usize {
        let text = mem::c_string_nul(src);
        // SAFETY: NUL-terminated private copy; counting form.
        let need = unsafe { sys::mbstowcs(core::ptr::null_mut(), text.as_ptr().cast(), 0) };
        if need == usize::MAX || dst.intval() == 0 {
            return need;
        }
        let mut out = vec![0i32; need + 1];
        // SAFETY: room for need units and the terminator.
        unsafe { sys::mbstowcs(out.as_mut_ptr(), text.as_ptr().cast(), need + 1) };
        let count = n.min(need + 1);
        mem::write_bytes(dst, &to_bytes(&out[..count]));
        n.min(need)
    }
}

wrapper! {
    /// `size_t wcstombs(char *dst, const wchar_t *src, size_t n)`.
    fn wcstombs(dst: FlightPtr, src: FlightPtr, n: usize) -> usize {
        let mut units = wcs(src);
        units.push(0);
        // SAFETY: NUL-terminated private copy; counting form.
        let need = unsafe { sys::wcstombs(core::ptr::null_mut(), units.as_ptr(), 0) };
        if need == usize::MAX || dst.intval() == 0 {
            return need;
        }
        let mut out = vec![0u8; need + 1];
        // SAFETY: room for need bytes and the terminator.
        unsafe { sys::wcstombs(out.as_mut_ptr().cast(), units.as_ptr(), need + 1) };
        // Only whole characters are written natively; the counting form
        // gives the full length, so a short buffer gets a prefix cut at a
        // character boundary by glibc itself.
        if n > need {
            mem::write_bytes(dst, &out);
            return need;
        }
        let mut part = vec![0u8; n];
        // SAFETY: a private buffer of n bytes.
        let r = unsafe { sys::wcstombs(part.as_mut_ptr().cast(), units.as_ptr(), n) };
        let written = if r == usize::MAX { 0 } else { r };
        mem::write_bytes(dst, &part[..written]);
        written
    }
}

wrapper! {
    /// `int wcwidth(wchar_t c)`.
    fn wcwidth(c: i32) -> i32 {
        // SAFETY: no memory involved.
        unsafe { sys::wcwidth(c) }
    }
}

wrapper! {
    /// `int wcswidth(const wchar_t *s, size_t n)`.
    fn wcswidth(s: FlightPtr, n: usize) -> i32 {
        let len = wcs_nlen(s, n);
        let units = to_units(&mem::read_bytes(s, len * W));
        let mut total = 0i32;
        for u in units {
            // SAFETY: no memory involved.
            let w = unsafe { sys::wcwidth(u) };
            if w < 0 {
                return -1;
            }
            total += w;
        }
        total
    }
}
