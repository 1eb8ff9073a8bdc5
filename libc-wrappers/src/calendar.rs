//! Calendar time: `struct tm` conversions (`localtime_r`, `gmtime_r`,
//! `mktime`, `timegm`, their static-buffer forms), `strftime`, `ctime`,
//! `asctime`, `difftime`, `tzset`, `clock_getres`.
//!
//! `struct tm` is glibc's x86-64 layout: nine `int`s, `long tm_gmtoff` at
//! 40 and `const char *tm_zone` at 48 (56 bytes). The zone name is a
//! pointer the program may follow, so every `struct tm` written here gets
//! a real capability for it: a read-only string object per zone name,
//! made once and kept for the rest of the program (glibc's names are
//! static too). Conversions run glibc on a native copy; only checked bytes
//! of the program's memory are read or written.

use std::collections::HashMap;

use gimso_abi::FlightPtr;
use gimso_shadow::check::Access;
use parking_lot::Mutex;

use crate::pthread::slots::Held;
use crate::{errno, mem, wrapper};

/// `sizeof(struct tm)`.
pub const TM_SIZE: usize = 56;
/// Offset of `tm_gmtoff`.
const GMTOFF: usize = 40;
/// Offset of `tm_zone`.
const ZONE: usize = 48;

/// Zone name → its read-only string object.
static ZONES: Mutex<Option<HashMap<Vec<u8>, Held>>> = Mutex::new(None);

/// The string object naming `zone` (made on first use, kept forever).
fn zone_object(zone: &[u8]) -> FlightPtr {
    let mut zones = ZONES.lock();
    let map = zones.get_or_insert_with(HashMap::new);
    if let Some(h) = map.get(zone) {
        return h.get();
    }
    let p = mem::alloc_c_string(zone, true);
    map.insert(zone.to_vec(), Held::new(p));
    p
}

/// A zeroed native `struct tm`.
fn blank_tm() -> libc::tm {
    // SAFETY: all-zero bytes are a valid `struct tm` (a null tm_zone).
    unsafe { core::mem::zeroed() }
}

/// Checks that the whole `struct tm` at `p` may be written (pointer
/// alignment for `tm_zone`), before any byte of it is.
fn check_tm_write(p: FlightPtr) {
    mem::check_access(
        p,
        Access {
            size: TM_SIZE,
            align: 8,
            write: true,
        },
    );
}

/// Writes `tm` to the program's `struct tm` at `p` (checked), with a
/// capability for its zone name.
pub fn write_tm(p: FlightPtr, tm: &libc::tm) {
    check_tm_write(p);
    let ints = [
        tm.tm_sec,
        tm.tm_min,
        tm.tm_hour,
        tm.tm_mday,
        tm.tm_mon,
        tm.tm_year,
        tm.tm_wday,
        tm.tm_yday,
        tm.tm_isdst,
    ];
    let mut bytes = [0u8; ZONE];
    for (i, v) in ints.iter().enumerate() {
        bytes[4 * i..4 * i + 4].copy_from_slice(&v.to_ne_bytes());
    }
    bytes[GMTOFF..ZONE].copy_from_slice(&tm.tm_gmtoff.to_ne_bytes());
    mem::write_bytes(p, &bytes);
    let zone = if tm.tm_zone.is_null() {
        FlightPtr::NULL
    } else {
        // SAFETY: glibc sets tm_zone to a static NUL-terminated name.
        let name = unsafe { core::ffi::CStr::from_ptr(tm.tm_zone) };
        zone_object(name.to_bytes())
    };
    mem::store_ptr(p.offset(ZONE as isize), zone);
}

/// Reads the program's `struct tm` at `p`: the integer fields (a checked
/// read of the 48 bytes before `tm_zone`); the zone pointer is left null.
pub fn read_tm(p: FlightPtr) -> libc::tm {
    let b = mem::read_bytes(p, ZONE);
    let int = |i: usize| i32::from_ne_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]);
    let mut gmtoff = [0u8; 8];
    gmtoff.copy_from_slice(&b[GMTOFF..ZONE]);
    let mut tm = blank_tm();
    tm.tm_sec = int(0);
    tm.tm_min = int(1);
    tm.tm_hour = int(2);
    tm.tm_mday = int(3);
    tm.tm_mon = int(4);
    tm.tm_year = int(5);
    tm.tm_wday = int(6);
    tm.tm_yday = int(7);
    tm.tm_isdst = int(8);
    tm.tm_gmtoff = i64::from_ne_bytes(gmtoff);
    tm
}

/// Reads the `time_t` at `t` (checked).
fn read_time(t: FlightPtr) -> libc::time_t {
    i64::from_ne_bytes(mem::read_int::<8>(t))
}

/// Converts with glibc's `localtime_r` (`local`) or `gmtime_r`.
fn convert(t: libc::time_t, local: bool) -> Option<libc::tm> {
    let mut tm = blank_tm();
    // SAFETY: both arguments are locals.
    let r = unsafe {
        if local {
            libc::localtime_r(&t, &mut tm)
        } else {
            libc::gmtime_r(&t, &mut tm)
        }
    };
    if r.is_null() {
        errno::sync_from_libc();
        None
    } else {
        Some(tm)
    }
}

/// The `struct tm` object `localtime`/`gmtime` return (one for the
/// program, as glibc's static buffer), made on first use.
fn static_tm() -> FlightPtr {
    static TM: Mutex<Option<Held>> = Mutex::new(None);
    let mut tm = TM.lock();
    tm.get_or_insert_with(|| Held::new(mem::alloc(TM_SIZE, 16, 0)))
        .get()
}

fn to_tm(t: FlightPtr, out: FlightPtr, local: bool) -> FlightPtr {
    let time = read_time(t);
    match convert(time, local) {
        Some(tm) => {
            write_tm(out, &tm);
            out
        }
        None => FlightPtr::NULL,
    }
}

wrapper! {
    /// `struct tm *localtime_r(const time_t *t, struct tm *out)`.
    fn localtime_r(t: FlightPtr, out: FlightPtr) -> FlightPtr {
        to_tm(t, out, true)
    }
}

wrapper! {
    /// `struct tm *gmtime_r(const time_t *t, struct tm *out)`.
    fn gmtime_r(t: FlightPtr, out: FlightPtr) -> FlightPtr {
        to_tm(t, out, false)
    }
}

wrapper! {
    /// `struct tm *localtime(const time_t *t)`: the shared static result.
    fn localtime(t: FlightPtr) -> FlightPtr {
        to_tm(t, static_tm(), true)
    }
}

wrapper! {
    /// `struct tm *gmtime(const time_t *t)`: the shared static result.
    fn gmtime(t: FlightPtr) -> FlightPtr {
        to_tm(t, static_tm(), false)
    }
}

/// `mktime` (`local`) or `timegm`: normalises the program's `struct tm`
/// in place and returns the time.
fn from_tm(p: FlightPtr, local: bool) -> i64 {
    let mut tm = read_tm(p);
    // SAFETY: tm is a local struct tm.
    let t = unsafe {
        if local {
            libc::mktime(&mut tm)
        } else {
            libc::timegm(&mut tm)
        }
    };
    if t == -1 {
        errno::sync_from_libc();
    }
    write_tm(p, &tm);
    t
}

wrapper! {
    /// `time_t mktime(struct tm *tm)`.
    fn mktime(tm: FlightPtr) -> i64 {
        from_tm(tm, true)
    }
}

wrapper! {
    /// `time_t timegm(struct tm *tm)`.
    fn timegm(tm: FlightPtr) -> i64 {
        from_tm(tm, false)
    }
}

wrapper! {
    /// `double difftime(time_t a, time_t b)`.
    fn difftime(a: i64, b: i64) -> f64 {
        a as f64 - b as f64
    }
}

wrapper! {
    /// `void tzset(void)`.
    fn tzset() -> () {
        // SAFETY: tzset has no preconditions.
        unsafe { c_tzset() }
    }
}

unsafe extern "C" {
    #[link_name = "tzset"]
    fn c_tzset();
}

/// `strftime` (or `strftime_l` in `locale`) into a native buffer of
/// `max` bytes; the result with its NUL, or `None` when it does not fit.
fn format_time(
    max: usize,
    fmt: &[u8],
    tm: &libc::tm,
    locale: Option<crate::xlocale::RawLocale>,
) -> Option<Vec<u8>> {
    let mut buf = vec![0u8; max.max(1)];
    let (out, f) = (buf.as_mut_ptr().cast(), fmt.as_ptr().cast());
    // SAFETY: buf has max bytes (at least 1); fmt is NUL-terminated; tm is
    // a local whose tm_zone is null or a NUL-terminated local copy; a
    // locale given is a live one.
    let n = unsafe {
        match locale {
            Some(l) => crate::xlocale::sys::strftime_l(out, max, f, tm, l),
            None => libc::strftime(out, max, f, tm),
        }
    };
    if n == 0 && !(max > 0 && fmt.first() == Some(&0)) {
        return None;
    }
    buf.truncate(n + 1);
    Some(buf)
}

/// `strftime` and `strftime_l`: the whole `max` bytes at `s` must be
/// writable (C leaves them indeterminate when the result does not fit);
/// `tm_zone` is followed (checked) only when the format has `%Z`.
pub fn strftime_in(
    s: FlightPtr,
    max: usize,
    fmt: FlightPtr,
    tm: FlightPtr,
    locale: Option<crate::xlocale::RawLocale>,
) -> usize {
    mem::check_write(s, max);
    let fmt = mem::c_string_nul(fmt);
    let mut native = read_tm(tm);
    let zone_name;
    if fmt.windows(2).any(|w| w == b"%Z") {
        let zone = mem::load_ptr(tm.offset(ZONE as isize));
        zone_name = if zone.intval() == 0 {
            vec![0]
        } else {
            mem::c_string_nul(zone)
        };
        native.tm_zone = zone_name.as_ptr().cast();
    }
    match format_time(max, &fmt, &native, locale) {
        Some(out) => {
            mem::write_bytes(s, &out);
            out.len() - 1
        }
        None => 0,
    }
}

wrapper! {
    /// `size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm)`.
    fn strftime(s: FlightPtr, max: usize, fmt: FlightPtr, tm: FlightPtr) -> usize {
        strftime_in(s, max, fmt, tm, None)
    }
}

/// `asctime`'s text for `tm`: "Sun Sep 16 01:03:52 1973\n" (26 bytes with
/// the NUL), or `None` (EOVERFLOW) when a field does not fit.
fn asctime_text(tm: &libc::tm) -> Option<Vec<u8>> {
    let mut buf = [0 as libc::c_char; 64];
    // SAFETY: buf has the 26 bytes asctime_r needs (and more); tm is a
    // local.
    let r = unsafe { libc::asctime_r(tm, buf.as_mut_ptr()) };
    if r.is_null() {
        errno::sync_from_libc();
        return None;
    }
    // SAFETY: asctime_r wrote a NUL-terminated string into buf.
    let s = unsafe { core::ffi::CStr::from_ptr(buf.as_ptr()) };
    Some(s.to_bytes_with_nul().to_vec())
}

/// Writes `text` into the program's 26-byte buffer `buf` (checked for all
/// 26 bytes, the size C requires).
fn into_buffer(buf: FlightPtr, text: Option<Vec<u8>>) -> FlightPtr {
    mem::check_write(buf, 26);
    match text {
        Some(t) if t.len() <= 26 => {
            mem::write_bytes(buf, &t);
            buf
        }
        Some(_) => {
            errno::set(libc::EOVERFLOW);
            FlightPtr::NULL
        }
        None => FlightPtr::NULL,
    }
}

wrapper! {
    /// `char *asctime_r(const struct tm *tm, char *buf)` (26-byte buffer).
    fn asctime_r(tm: FlightPtr, buf: FlightPtr) -> FlightPtr {
        into_buffer(buf, asctime_text(&read_tm(tm)))
    }
}

wrapper! {
    /// `char *asctime(const struct tm *tm)`: a fresh string.
    fn asctime(tm: FlightPtr) -> FlightPtr {
        match asctime_text(&read_tm(tm)) {
            Some(t) => mem::alloc_c_string(&t[..t.len() - 1], false),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `char *ctime_r(const time_t *t, char *buf)` (26-byte buffer).
    fn ctime_r(t: FlightPtr, buf: FlightPtr) -> FlightPtr {
        let time = read_time(t);
        into_buffer(buf, convert(time, true).and_then(|tm| asctime_text(&tm)))
    }
}

wrapper! {
    /// `char *ctime(const time_t *t)`: a fresh string.
    fn ctime(t: FlightPtr) -> FlightPtr {
        let time = read_time(t);
        match convert(time, true).and_then(|tm| asctime_text(&tm)) {
            Some(t) => mem::alloc_c_string(&t[..t.len() - 1], false),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `int clock_getres(clockid_t clock, struct timespec *res)` (`res`
    /// may be NULL).
    fn clock_getres(clock: i32, res: FlightPtr) -> i32 {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: ts is a local.
        let r = unsafe { libc::clock_getres(clock, &mut ts) };
        if r != 0 {
            errno::sync_from_libc();
        } else if res.intval() != 0 {
            crate::pthread::futex::write_timespec(res, &ts);
        }
        r
    }
}
