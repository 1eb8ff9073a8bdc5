//! `<ctype.h>`: the classification functions, and the tables glibc's
//! macros index (`__ctype_b_loc`, `__ctype_toupper_loc`,
//! `__ctype_tolower_loc`), copied once into read-only global objects so
//! that compiled code reads them through checked capabilities.
//!
//! Each table covers indices -128..=255 like glibc's; the pointer the
//! program gets points at index 0, so `table[c]` for any `unsigned char`
//! or EOF (-1) is in bounds and anything else is an out-of-bounds read.

use std::sync::OnceLock;

use gimso_abi::{FLAG_GLOBAL, FLAG_READONLY, FlightPtr};
use gimso_shadow::ObjRef;

use crate::mem;
use crate::wrapper;

unsafe extern "C" {
    fn __ctype_b_loc() -> *mut *const u16;
    fn __ctype_toupper_loc() -> *mut *const i32;
    fn __ctype_tolower_loc() -> *mut *const i32;
}

/// Entries of each table: indices -128..=255.
const ENTRIES: usize = 384;

/// A global read-only object holding a copy of the table `base` (which
/// points at index 0 of an array starting at index -128), and a global
/// read-only pointer object pointing at the copy's index 0: returns the
/// pointer object.
fn publish<T: Copy>(base: *const T) -> FlightPtr {
    let size = core::mem::size_of::<T>();
    let table = mem::alloc(ENTRIES * size, 16, FLAG_GLOBAL);
    // SAFETY: glibc's tables hold ENTRIES entries from index -128; the
    // copy has room for all of them.
    unsafe {
        core::ptr::copy_nonoverlapping(
            base.sub(128).cast::<u8>(),
            table.intval() as *mut u8,
            ENTRIES * size,
        );
    }
    let holder = mem::alloc(8, 16, FLAG_GLOBAL);
    mem::store_ptr(holder, table.offset((128 * size) as isize));
    for p in [table, holder] {
        gimso_gc::register_global_object(p.lower());
        // SAFETY: p is a capability just allocated.
        let obj = unsafe { ObjRef::from_lower(p.lower()) };
        obj.header()
            .aux
            .fetch_or(FLAG_READONLY, core::sync::atomic::Ordering::Release);
    }
    holder
}

/// A published table holder.
type Published = OnceLock<FlightPtr>;

fn get(cell: &Published, make: impl FnOnce() -> FlightPtr) -> FlightPtr {
    *cell.get_or_init(make)
}

static CLASS: Published = OnceLock::new();
static UPPER: Published = OnceLock::new();
static LOWER: Published = OnceLock::new();

wrapper! {
    /// `const unsigned short **__ctype_b_loc(void)`.
    fn __ctype_b_loc() -> FlightPtr {
        // SAFETY: glibc returns the thread's valid table pointer.
        get(&CLASS, || publish(unsafe { *super::__ctype_b_loc() }))
    }
}

wrapper! {
    /// `const int32_t **__ctype_toupper_loc(void)`.
    fn __ctype_toupper_loc() -> FlightPtr {
        // SAFETY: as for __ctype_b_loc.
        get(&UPPER, || publish(unsafe { *super::__ctype_toupper_loc() }))
    }
}

wrapper! {
    /// `const int32_t **__ctype_tolower_loc(void)`.
    fn __ctype_tolower_loc() -> FlightPtr {
        // SAFETY: as for __ctype_b_loc.
        get(&LOWER, || publish(unsafe { *super::__ctype_tolower_loc() }))
    }
}

macro_rules! classify {
    ($($name:ident),*) => {$(
        wrapper! {
            #[doc = concat!("`int ", stringify!($name), "(int c)`.")]
            fn $name(c: i32) -> i32 {
                // glibc indexes its table (-128..=255) with c: values
                // outside it would read out of bounds, so they are
                // classified as nothing.
                if !(-128..=255).contains(&c) {
                    return 0;
                }
                // SAFETY: c is inside glibc's table.
                unsafe { libc::$name(c) }
            }
        }
    )*};
}

classify!(
    isalnum, isalpha, isblank, iscntrl, isdigit, isgraph, islower, isprint, ispunct, isspace,
    isupper, isxdigit
);

wrapper! {
    /// `int toupper(int c)`.
    fn toupper(c: i32) -> i32 {
        if !(-128..=255).contains(&c) {
            return c;
        }
        // SAFETY: c is inside glibc's table.
        unsafe { libc::toupper(c) }
    }
}

wrapper! {
    /// `int tolower(int c)`.
    fn tolower(c: i32) -> i32 {
        if !(-128..=255).contains(&c) {
            return c;
        }
        // SAFETY: c is inside glibc's table.
        unsafe { libc::tolower(c) }
    }
}
