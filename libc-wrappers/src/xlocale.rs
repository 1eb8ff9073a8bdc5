//! POSIX 2008 locale objects (`newlocale`, `duplocale`, `uselocale`,
//! `freelocale`) and the `_l` functions that take one.
//!
//! Programs (libc++ on glibc, and glibc's own `<ctype.h>` macros) read
//! the fields of a `locale_t`: `loc->__ctype_b[c]`, `loc->__ctype_tolower`,
//! `loc->__ctype_toupper`. So a `locale_t` the program gets is a
//! capability to a read-only object with glibc's `struct __locale_struct`
//! layout: the `__locales` entries null (glibc's private data stays out of
//! reach), the three table pointers capabilities to read-only copies of
//! the real locale's tables (indices -128..=255, pointing at index 0, as
//! `ctype.rs` publishes the global ones), and `__names` read-only copies of
//! the category names. A hidden word after the structure holds a handle
//! naming the real glibc locale in [`LOCALES`]; the table also records
//! which object the handle belongs to, so a copy or a forgery of the
//! object is refused ("invalid locale_t"), as is a locale already freed
//! (its object is marked freed: any use, field reads included, is a use
//! after free).
//!
//! Lifetimes: a live locale's object is held by the runtime until
//! `freelocale` (natively it lives until then too). `freelocale` of a
//! locale that some thread still has selected with `uselocale` retires the
//! program's object at once, but glibc's locale is freed only when the
//! last such thread selects another locale or exits: glibc keeps reading
//! it for that thread's locale-dependent calls meanwhile.

use core::ffi::{c_char, c_int, c_void};
use std::cell::Cell;
use std::collections::HashMap;

use gimso_abi::{FLAG_FREE, FLAG_GLOBAL, FlightPtr};
use gimso_shadow::ObjRef;
use gimso_shadow::report::SafetyError;
use parking_lot::Mutex;

use crate::handles::Handles;
use crate::pthread::slots::Held;
use crate::{errno, mem, report, wrapper};

/// glibc's `locale_t`.
pub type RawLocale = *mut c_void;

/// `sizeof(struct __locale_struct)` on x86-64 glibc, and the offsets of
/// the fields programs read.
const STRUCT_SIZE: usize = 232;
const CTYPE_B: usize = 104;
const CTYPE_TOLOWER: usize = 112;
const CTYPE_TOUPPER: usize = 120;
const NAMES: usize = 128;
const CATEGORIES: usize = 13;
/// The hidden handle word, and the object's size.
const HANDLE: usize = STRUCT_SIZE;
const OBJECT_SIZE: usize = STRUCT_SIZE + 8;

/// `LC_GLOBAL_LOCALE`: `(locale_t)-1`.
const GLOBAL: usize = usize::MAX;

/// The fields of glibc's `struct __locale_struct`, to read the real
/// locale's tables and names.
#[repr(C)]
struct RealLocaleFields {
    locales: [*mut c_void; CATEGORIES],
    ctype_b: *const u16,
    ctype_tolower: *const i32,
    ctype_toupper: *const i32,
    names: [*const c_char; CATEGORIES],
}

const _: () = assert!(
    core::mem::size_of::<RealLocaleFields>() == STRUCT_SIZE
        && core::mem::offset_of!(RealLocaleFields, ctype_b) == CTYPE_B
        && core::mem::offset_of!(RealLocaleFields, names) == NAMES
);

/// glibc's functions (the `libc` crate declares only some).
pub(crate) mod sys {
    use core::ffi::{c_char, c_int, c_long, c_longlong, c_ulong, c_ulonglong, c_void};

    type L = *mut c_void;

    unsafe extern "C" {
        pub fn newlocale(mask: c_int, name: *const c_char, base: L) -> L;
        pub fn duplocale(l: L) -> L;
        pub fn freelocale(l: L);
        pub fn uselocale(l: L) -> L;
        pub fn __ctype_get_mb_cur_max() -> usize;
        pub fn nl_langinfo_l(item: c_int, l: L) -> *const c_char;
        pub fn strcoll_l(a: *const c_char, b: *const c_char, l: L) -> c_int;
        pub fn strxfrm_l(d: *mut c_char, s: *const c_char, n: usize, l: L) -> usize;
        pub fn wcscoll_l(a: *const i32, b: *const i32, l: L) -> c_int;
        pub fn wcsxfrm_l(d: *mut i32, s: *const i32, n: usize, l: L) -> usize;
        pub fn strftime_l(
            s: *mut c_char,
            max: usize,
            fmt: *const c_char,
            tm: *const libc::tm,
            l: L,
        ) -> usize;
        pub fn strtod_l(s: *const c_char, end: *mut *mut c_char, l: L) -> f64;
        pub fn strtof_l(s: *const c_char, end: *mut *mut c_char, l: L) -> f32;
        pub fn strtol_l(s: *const c_char, end: *mut *mut c_char, base: c_int, l: L) -> c_long;
        pub fn strtoul_l(s: *const c_char, end: *mut *mut c_char, base: c_int, l: L) -> c_ulong;
        pub fn strtoll_l(s: *const c_char, end: *mut *mut c_char, base: c_int, l: L) -> c_longlong;
        pub fn strtoull_l(
            s: *const c_char,
            end: *mut *mut c_char,
            base: c_int,
            l: L,
        ) -> c_ulonglong;
        pub fn isalnum_l(c: c_int, l: L) -> c_int;
        pub fn isalpha_l(c: c_int, l: L) -> c_int;
        pub fn isblank_l(c: c_int, l: L) -> c_int;
        pub fn iscntrl_l(c: c_int, l: L) -> c_int;
        pub fn isdigit_l(c: c_int, l: L) -> c_int;
        pub fn isgraph_l(c: c_int, l: L) -> c_int;
        pub fn islower_l(c: c_int, l: L) -> c_int;
        pub fn isprint_l(c: c_int, l: L) -> c_int;
        pub fn ispunct_l(c: c_int, l: L) -> c_int;
        pub fn isspace_l(c: c_int, l: L) -> c_int;
        pub fn isupper_l(c: c_int, l: L) -> c_int;
        pub fn isxdigit_l(c: c_int, l: L) -> c_int;
        pub fn tolower_l(c: c_int, l: L) -> c_int;
        pub fn toupper_l(c: c_int, l: L) -> c_int;
        pub fn iswalnum_l(c: u32, l: L) -> c_int;
        pub fn iswalpha_l(c: u32, l: L) -> c_int;
        pub fn iswblank_l(c: u32, l: L) -> c_int;
        pub fn iswcntrl_l(c: u32, l: L) -> c_int;
        pub fn iswdigit_l(c: u32, l: L) -> c_int;
        pub fn iswgraph_l(c: u32, l: L) -> c_int;
        pub fn iswlower_l(c: u32, l: L) -> c_int;
        pub fn iswprint_l(c: u32, l: L) -> c_int;
        pub fn iswpunct_l(c: u32, l: L) -> c_int;
        pub fn iswspace_l(c: u32, l: L) -> c_int;
        pub fn iswupper_l(c: u32, l: L) -> c_int;
        pub fn iswxdigit_l(c: u32, l: L) -> c_int;
        pub fn towlower_l(c: u32, l: L) -> u32;
        pub fn towupper_l(c: u32, l: L) -> u32;
    }
}

/// A live locale: glibc's, the program's object, and how many threads
/// have it selected.
struct Entry {
    real: usize,
    object: Held,
    users: usize,
    /// `freelocale` was called: the program's object is retired, glibc's
    /// waits for its last user.
    retired: bool,
}

/// Live locales by handle ("LO" in the top bytes).
static LOCALES: Handles<Entry> = Handles::new(0x4c4f);

/// A checked `locale_t` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Locale {
    /// `LC_GLOBAL_LOCALE`.
    Global,
    /// A live locale: its handle and glibc's locale.
    Live(u64, usize),
}

impl Locale {
    /// glibc's `locale_t` for it.
    pub fn raw(self) -> RawLocale {
        match self {
            Locale::Global => GLOBAL as RawLocale,
            Locale::Live(_, real) => real as RawLocale,
        }
    }
}

/// Checks the program's `locale_t` `p`: a capability to the start of a
/// locale object whose handle is live, or `LC_GLOBAL_LOCALE` when
/// `global_ok`. Anything else stops the program with a safety report
/// naming `what`.
pub fn check(p: FlightPtr, global_ok: bool, what: &'static str) -> Locale {
    if p.lower() == 0 {
        if p.intval() == GLOBAL && global_ok {
            return Locale::Global;
        }
        report::pointer_error(SafetyError::NullCapability, p, what);
    }
    // SAFETY: a non-zero lower is a runtime-issued capability, kept alive
    // by the caller's argument.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    if obj.is_free() {
        report::pointer_error(SafetyError::UseAfterFree, p, what);
    }
    if p.intval() != p.lower() || obj.upper() - obj.lower() != OBJECT_SIZE {
        report::pointer_error(SafetyError::InvalidLocale, p, what);
    }
    // SAFETY: the object is live and OBJECT_SIZE bytes long; the handle
    // word is read whatever it holds, and only trusted if the table says
    // the handle belongs to this very object.
    let handle = unsafe { ((p.lower() + HANDLE) as *const u64).read_volatile() };
    let real = LOCALES.with_value(handle, |e| match e {
        Some(e) if !e.retired && e.object.get().lower() == p.lower() => Some(e.real),
        _ => None,
    });
    match real {
        Some(real) => Locale::Live(handle, real),
        None => report::pointer_error(SafetyError::InvalidLocale, p, what),
    }
}

/// glibc's locale behind the program's `locale_t` for an `_l` function
/// (`LC_GLOBAL_LOCALE` is not one: POSIX leaves it undefined, and glibc
/// would dereference it).
pub fn raw_for(p: FlightPtr, what: &'static str) -> RawLocale {
    check(p, false, what).raw()
}

/// A published read-only table, by glibc's table address (glibc's locale
/// tables are never unmapped, so an address names one table for good).
static TABLES: Mutex<Option<HashMap<usize, FlightPtr>>> = Mutex::new(None);
/// Read-only copies of category names, by name.
static NAME_STRINGS: Mutex<Option<HashMap<Vec<u8>, Held>>> = Mutex::new(None);

/// A read-only global copy of glibc's table at `base` (index 0 of entries
/// -128..=255 of `T`), pointing at its index 0.
fn table<T: Copy>(base: *const T) -> FlightPtr {
    if base.is_null() {
        return FlightPtr::NULL;
    }
    // Looked up and inserted under the lock, allocated outside it: an
    // allocation is a safepoint, and a thread waiting for the lock could
    // not answer the collector.
    if let Some(p) = TABLES
        .lock()
        .get_or_insert_with(HashMap::new)
        .get(&(base as usize))
    {
        return *p;
    }
    const ENTRIES: usize = 384;
    let size = core::mem::size_of::<T>();
    let copy = mem::alloc(ENTRIES * size, 16, FLAG_GLOBAL);
    // SAFETY: glibc's ctype tables hold 384 entries from index -128; the
    // copy is fresh and that long.
    unsafe {
        core::ptr::copy_nonoverlapping(
            base.sub(128).cast::<u8>(),
            copy.intval() as *mut u8,
            ENTRIES * size,
        );
    }
    gimso_gc::register_global_object(copy.lower());
    mem::make_readonly(copy);
    let p = copy.offset((128 * size) as isize);
    // Another thread may have published the same table meanwhile: the
    // first copy is the one kept (the other is only a little memory).
    *TABLES
        .lock()
        .get_or_insert_with(HashMap::new)
        .entry(base as usize)
        .or_insert(p)
}

/// The read-only string object for a category name.
fn name_string(name: *const c_char) -> FlightPtr {
    if name.is_null() {
        return FlightPtr::NULL;
    }
    // SAFETY: glibc's locale names are NUL-terminated.
    let bytes = unsafe { core::ffi::CStr::from_ptr(name) }.to_bytes();
    if let Some(h) = NAME_STRINGS
        .lock()
        .get_or_insert_with(HashMap::new)
        .get(bytes)
    {
        return h.get();
    }
    let p = mem::alloc_c_string(bytes, true);
    NAME_STRINGS
        .lock()
        .get_or_insert_with(HashMap::new)
        .entry(bytes.to_vec())
        .or_insert_with(|| Held::new(p))
        .get()
}

/// The program's object for glibc's new locale `real`, registered under a
/// fresh handle.
fn publish(real: RawLocale) -> FlightPtr {
    // SAFETY: `real` is a locale glibc just returned: a valid
    // `struct __locale_struct`.
    let fields = unsafe { &*(real as *const RealLocaleFields) };
    let obj = mem::alloc(OBJECT_SIZE, 16, 0);
    mem::store_ptr(obj.offset(CTYPE_B as isize), table(fields.ctype_b));
    mem::store_ptr(
        obj.offset(CTYPE_TOLOWER as isize),
        table(fields.ctype_tolower),
    );
    mem::store_ptr(
        obj.offset(CTYPE_TOUPPER as isize),
        table(fields.ctype_toupper),
    );
    for (i, &name) in fields.names.iter().enumerate() {
        mem::store_ptr(obj.offset((NAMES + 8 * i) as isize), name_string(name));
    }
    let handle = LOCALES.insert(Entry {
        real: real as usize,
        object: Held::new(obj),
        users: 0,
        retired: false,
    });
    mem::write_int(obj.offset(HANDLE as isize), &handle.to_ne_bytes());
    mem::make_readonly(obj);
    obj
}

/// Retires the program's object of `handle` (any later use is a use after
/// free) and frees glibc's locale unless a thread still has it selected.
fn retire(handle: u64) {
    let gone = LOCALES.with_value(handle, |e| {
        let e = e.expect("retire: a checked, live handle");
        e.retired = true;
        // SAFETY: the object is the runtime's own, alive (held).
        let obj = unsafe { ObjRef::from_lower(e.object.get().lower()) };
        obj.header()
            .aux
            .fetch_or(FLAG_FREE, core::sync::atomic::Ordering::AcqRel);
        e.users == 0
    });
    if gone {
        drop_entry(handle, true);
    }
}

/// Removes a retired locale from the table, freeing glibc's if `free`.
fn drop_entry(handle: u64, free: bool) {
    if let Some(e) = LOCALES.remove(handle) {
        if free {
            // SAFETY: glibc's locale, no longer selected by any thread nor
            // reachable by the program; freed once (removed).
            unsafe { sys::freelocale(e.real as RawLocale) };
        }
    }
}

/// The calling thread's selected locale (0: the global one). Its `Drop`
/// releases the selection when the thread exits.
struct Selected(Cell<u64>);

impl Drop for Selected {
    fn drop(&mut self) {
        release(self.0.get());
    }
}

thread_local! {
    static SELECTED: Selected = const { Selected(Cell::new(0)) };
}

/// One thread less has `handle` selected.
fn release(handle: u64) {
    if handle == 0 {
        return;
    }
    let last = LOCALES.with_value(handle, |e| match e {
        Some(e) => {
            e.users -= 1;
            e.retired && e.users == 0
        }
        None => false,
    });
    if last {
        drop_entry(handle, true);
    }
}

/// The program's pointer for a selected handle (0: `LC_GLOBAL_LOCALE`).
fn selected_pointer(handle: u64) -> FlightPtr {
    if handle == 0 {
        return FlightPtr::from_int(GLOBAL);
    }
    LOCALES
        .with_value(handle, |e| e.map(|e| e.object.get()))
        .unwrap_or(FlightPtr::from_int(GLOBAL))
}

wrapper! {
    /// `locale_t newlocale(int mask, const char *name, locale_t base)`:
    /// on success `base` (if any) is consumed, as glibc may have changed
    /// and reused it: its object is retired.
    fn newlocale | __newlocale(mask: i32, name: FlightPtr, base: FlightPtr) -> FlightPtr {
        if name.intval() == 0 {
            // glibc refuses a missing name before touching anything.
            errno::set(libc::EINVAL);
            return FlightPtr::NULL;
        }
        let name = mem::c_string_nul(name);
        let base = if base.intval() == 0 && base.lower() == 0 {
            None
        } else {
            match check(base, false, "newlocale base") {
                Locale::Live(h, real) => Some((h, real)),
                Locale::Global => None,
            }
        };
        if let Some((h, _)) = base {
            let users = LOCALES.with_value(h, |e| e.map_or(0, |e| e.users));
            if users != 0 {
                // glibc would change, or free, a locale a thread is using.
                report::pointer_error(
                    SafetyError::InvalidLocale,
                    selected_pointer(h),
                    "newlocale base selected by uselocale",
                );
            }
        }
        let raw_base = base.map_or(core::ptr::null_mut(), |(_, r)| r as RawLocale);
        // SAFETY: a NUL-terminated copy; base is null or a live glibc
        // locale the program gives up on success.
        let r = unsafe { sys::newlocale(mask, name.as_ptr().cast(), raw_base) };
        if r.is_null() {
            errno::sync_from_libc();
            return FlightPtr::NULL;
        }
        if let Some((h, _)) = base {
            // glibc owns the base now (it returned it changed, or freed it).
            LOCALES.with_value(h, |e| {
                if let Some(e) = e {
                    e.retired = true;
                    // SAFETY: the runtime's own live object.
                    let obj = unsafe { ObjRef::from_lower(e.object.get().lower()) };
                    obj.header()
                        .aux
                        .fetch_or(FLAG_FREE, core::sync::atomic::Ordering::AcqRel);
                }
            });
            drop_entry(h, false);
        }
        publish(r)
    }
}

wrapper! {
    /// `locale_t duplocale(locale_t loc)` (`LC_GLOBAL_LOCALE` allowed).
    fn duplocale | __duplocale(loc: FlightPtr) -> FlightPtr {
        let l = check(loc, true, "duplocale");
        // SAFETY: a live glibc locale or LC_GLOBAL_LOCALE.
        let r = unsafe { sys::duplocale(l.raw()) };
        if r.is_null() {
            errno::sync_from_libc();
            return FlightPtr::NULL;
        }
        publish(r)
    }
}

wrapper! {
    /// `void freelocale(locale_t loc)`.
    fn freelocale | __freelocale(loc: FlightPtr) -> () {
        if let Locale::Live(h, _) = check(loc, false, "freelocale") {
            retire(h);
        }
    }
}

wrapper! {
    /// `locale_t uselocale(locale_t loc)`: the thread's previous locale
    /// object (or `LC_GLOBAL_LOCALE`); NULL only queries.
    fn uselocale | __uselocale(loc: FlightPtr) -> FlightPtr {
        let previous = SELECTED.with(|s| s.0.get());
        let before = selected_pointer(previous);
        if loc.intval() == 0 && loc.lower() == 0 {
            return before;
        }
        let l = check(loc, true, "uselocale");
        let handle = match l {
            Locale::Global => 0,
            Locale::Live(h, _) => h,
        };
        if handle != 0 {
            LOCALES.with_value(handle, |e| {
                if let Some(e) = e {
                    e.users += 1;
                }
            });
        }
        // SAFETY: a live glibc locale (now counted as in use) or
        // LC_GLOBAL_LOCALE.
        unsafe { sys::uselocale(l.raw()) };
        SELECTED.with(|s| s.0.set(handle));
        release(previous);
        before
    }
}

wrapper! {
    /// `size_t __ctype_get_mb_cur_max(void)`: `MB_CUR_MAX`.
    fn __ctype_get_mb_cur_max() -> usize {
        // SAFETY: no arguments.
        unsafe { sys::__ctype_get_mb_cur_max() }
    }
}

macro_rules! narrow_l {
    ($($name:ident),*) => {$(
        wrapper! {
            #[doc = concat!("`int ", stringify!($name), "(int c, locale_t loc)`.")]
            fn $name(c: i32, loc: FlightPtr) -> i32 {
                let l = raw_for(loc, stringify!($name));
                // glibc indexes its table (-128..=255) with c.
                if !(-128..=255).contains(&c) {
                    return 0;
                }
                // SAFETY: c is inside the table; l is a live locale.
                unsafe { sys::$name(c, l) }
            }
        }
    )*};
}

narrow_l!(
    isalnum_l, isalpha_l, isblank_l, iscntrl_l, isdigit_l, isgraph_l, islower_l, isprint_l,
    ispunct_l, isspace_l, isupper_l, isxdigit_l
);

wrapper! {
    /// `int tolower_l(int c, locale_t loc)`.
    fn tolower_l | __tolower_l(c: i32, loc: FlightPtr) -> i32 {
        let l = raw_for(loc, "tolower_l");
        if !(-128..=255).contains(&c) {
            return c;
        }
        // SAFETY: c is inside the table; l is a live locale.
        unsafe { sys::tolower_l(c, l) }
    }
}

wrapper! {
    /// `int toupper_l(int c, locale_t loc)`.
    fn toupper_l | __toupper_l(c: i32, loc: FlightPtr) -> i32 {
        let l = raw_for(loc, "toupper_l");
        if !(-128..=255).contains(&c) {
            return c;
        }
        // SAFETY: c is inside the table; l is a live locale.
        unsafe { sys::toupper_l(c, l) }
    }
}

macro_rules! wide_l {
    ($($name:ident -> $ret:ty),* $(,)?) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "(wint_t wc, locale_t loc)`.")]
            fn $name(wc: u32, loc: FlightPtr) -> $ret {
                let l = raw_for(loc, stringify!($name));
                // SAFETY: defined for every wint_t; l is a live locale.
                unsafe { sys::$name(wc, l) }
            }
        }
    )*};
}

wide_l!(
    iswalnum_l -> i32, iswalpha_l -> i32, iswblank_l -> i32, iswcntrl_l -> i32,
    iswdigit_l -> i32, iswgraph_l -> i32, iswlower_l -> i32, iswprint_l -> i32,
    iswpunct_l -> i32, iswspace_l -> i32, iswupper_l -> i32, iswxdigit_l -> i32,
    towlower_l -> u32, towupper_l -> u32,
);

wrapper! {
    /// `int strcoll_l(const char *a, const char *b, locale_t loc)`.
    fn strcoll_l(a: FlightPtr, b: FlightPtr, loc: FlightPtr) -> i32 {
        let l = raw_for(loc, "strcoll_l");
        let (a, b) = (mem::c_string_nul(a), mem::c_string_nul(b));
        // SAFETY: NUL-terminated copies; a live locale.
        unsafe { sys::strcoll_l(a.as_ptr().cast(), b.as_ptr().cast(), l) }
    }
}

wrapper! {
    /// `size_t strxfrm_l(char *dst, const char *src, size_t n, locale_t loc)`:
    /// `dst` is checked for all `n` bytes, as for `strxfrm`.
    fn strxfrm_l(dst: FlightPtr, src: FlightPtr, n: usize, loc: FlightPtr) -> usize {
        let l = raw_for(loc, "strxfrm_l");
        let s = mem::c_string_nul(src);
        mem::check_write(dst, n);
        let mut out = vec![0u8; n.max(1)];
        // SAFETY: out has n bytes (at least one); s is NUL-terminated.
        let len = unsafe { sys::strxfrm_l(out.as_mut_ptr().cast(), s.as_ptr().cast(), n, l) };
        if len < n {
            mem::write_bytes(dst, &out[..=len]);
        }
        len
    }
}

wrapper! {
    /// `int wcscoll_l(const wchar_t *a, const wchar_t *b, locale_t loc)`.
    fn wcscoll_l(a: FlightPtr, b: FlightPtr, loc: FlightPtr) -> i32 {
        let l = raw_for(loc, "wcscoll_l");
        let (a, b) = (crate::wchar::wcs_nul(a), crate::wchar::wcs_nul(b));
        // SAFETY: terminated copies; a live locale.
        unsafe { sys::wcscoll_l(a.as_ptr(), b.as_ptr(), l) }
    }
}

wrapper! {
    /// `size_t wcsxfrm_l(wchar_t *dst, const wchar_t *src, size_t n, locale_t loc)`:
    /// `dst` is checked for all `n` units.
    fn wcsxfrm_l(dst: FlightPtr, src: FlightPtr, n: usize, loc: FlightPtr) -> usize {
        let l = raw_for(loc, "wcsxfrm_l");
        let s = crate::wchar::wcs_nul(src);
        mem::check_write(dst, n.saturating_mul(4));
        let mut out = vec![0i32; n.max(1)];
        // SAFETY: out has n units (at least one); s is terminated.
        let len = unsafe { sys::wcsxfrm_l(out.as_mut_ptr(), s.as_ptr(), n, l) };
        if len < n {
            mem::write_bytes(dst, &crate::wchar::units_bytes(&out[..=len]));
        }
        len
    }
}

wrapper! {
    /// `size_t strftime_l(char *s, size_t max, const char *fmt, const struct tm *tm, locale_t loc)`.
    fn strftime_l(s: FlightPtr, max: usize, fmt: FlightPtr, tm: FlightPtr, loc: FlightPtr) -> usize {
        let l = raw_for(loc, "strftime_l");
        crate::calendar::strftime_in(s, max, fmt, tm, Some(l))
    }
}

/// The decimal point (`RADIXCHAR`) of `l`, a live locale from [`raw_for`].
pub(crate) fn decimal_point(l: RawLocale) -> Vec<u8> {
    const RADIXCHAR: c_int = 0x10000;
    // SAFETY: a live locale; nl_langinfo_l returns a NUL-terminated
    // string that stays valid while the locale does.
    let p = unsafe { sys::nl_langinfo_l(RADIXCHAR, l) };
    if p.is_null() {
        return b".".to_vec();
    }
    // SAFETY: as above.
    unsafe { core::ffi::CStr::from_ptr(p) }.to_bytes().to_vec()
}

macro_rules! parse_l {
    ($($name:ident -> $ret:ty),* $(,)?) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "(const char *s, char **end, locale_t loc)`.")]
            fn $name(s: FlightPtr, end: FlightPtr, loc: FlightPtr) -> $ret {
                let l = raw_for(loc, stringify!($name));
                let point = decimal_point(l);
                // SAFETY: parse_in gives a NUL-terminated copy and a
                // private end pointer; a live locale.
                crate::stdlib::parse_in(s, end, &point, |p, e| unsafe { sys::$name(p, e, l) })
            }
        }
    )*};
}

parse_l!(strtod_l -> f64, strtof_l -> f32);

macro_rules! parse_int_l {
    ($($name:ident -> $ret:ty),* $(,)?) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "(const char *s, char **end, int base, locale_t loc)`.")]
            fn $name(s: FlightPtr, end: FlightPtr, base: i32, loc: FlightPtr) -> $ret {
                let l = raw_for(loc, stringify!($name));
                let point = decimal_point(l);
                // SAFETY: as for strtod_l.
                crate::stdlib::parse_in(s, end, &point, |p, e| unsafe {
                    sys::$name(p, e, base as c_int, l) as $ret
                })
            }
        }
    )*};
}

parse_int_l!(strtol_l -> i64, strtoul_l -> u64, strtoll_l -> i64, strtoull_l -> u64);
