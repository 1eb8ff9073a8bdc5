//! The compiler process's allocator: mimalloc in place of glibc's malloc
//! for everything in the process, clang's and LLVM's C++ allocations
//! included.
//!
//! Code generation for a large translated function allocates and frees
//! millions of small objects, and glibc's allocator spent about 8% of
//! compiling QuickJS in `_int_malloc`, `unlink_chunk`,
//! `malloc_consolidate` and friends (rustc links jemalloc for the same
//! reason; here `quickjs.c` went from 205 s to 162 s). The
//! functions below are defined in the executable, so the dynamic linker
//! binds every library's `malloc` to them (glibc supports replacing its
//! allocator this way: malloc, free, calloc and realloc at least, and the
//! aligned and size-query functions with them so no pointer from one
//! allocator reaches the other). Only the compiler drivers link this; the
//! runtime and programs compiled with gimso never do.

use std::ffi::{c_int, c_void};

// Links mimalloc's static library (built without its own override).
use libmimalloc_sys as _;

unsafe extern "C" {
    fn mi_malloc(size: usize) -> *mut c_void;
    fn mi_calloc(count: usize, size: usize) -> *mut c_void;
    fn mi_realloc(p: *mut c_void, size: usize) -> *mut c_void;
    fn mi_reallocarray(p: *mut c_void, count: usize, size: usize) -> *mut c_void;
    fn mi_free(p: *mut c_void);
    fn mi_posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> c_int;
    fn mi_aligned_alloc(align: usize, size: usize) -> *mut c_void;
    fn mi_memalign(align: usize, size: usize) -> *mut c_void;
    fn mi_valloc(size: usize) -> *mut c_void;
    fn mi_pvalloc(size: usize) -> *mut c_void;
    fn mi_usable_size(p: *const c_void) -> usize;
}

/// # Safety
///
/// The C `malloc` contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn malloc(size: usize) -> *mut c_void {
    // SAFETY: same contract as the C function.
    unsafe { mi_malloc(size) }
}

/// # Safety
///
/// The C `calloc` contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn calloc(count: usize, size: usize) -> *mut c_void {
    // SAFETY: same contract as the C function.
    unsafe { mi_calloc(count, size) }
}

/// # Safety
///
/// The C `realloc` contract: `p` is null or from this allocator.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn realloc(p: *mut c_void, size: usize) -> *mut c_void {
    // SAFETY: same contract as the C function; every allocation in the
    // process comes from these functions.
    unsafe { mi_realloc(p, size) }
}

/// # Safety
///
/// The C `reallocarray` contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn reallocarray(p: *mut c_void, count: usize, size: usize) -> *mut c_void {
    // SAFETY: as `realloc`.
    unsafe { mi_reallocarray(p, count, size) }
}

/// # Safety
///
/// The C `free` contract: `p` is null or a live allocation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn free(p: *mut c_void) {
    // SAFETY: as `realloc`.
    unsafe { mi_free(p) }
}

/// # Safety
///
/// The C `free` contract (`cfree` is its old name).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn cfree(p: *mut c_void) {
    // SAFETY: as `realloc`.
    unsafe { mi_free(p) }
}

/// # Safety
///
/// The POSIX `posix_memalign` contract: `out` is writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn posix_memalign(out: *mut *mut c_void, align: usize, size: usize) -> c_int {
    // SAFETY: same contract as the C function.
    unsafe { mi_posix_memalign(out, align, size) }
}

/// # Safety
///
/// The C `aligned_alloc` contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn aligned_alloc(align: usize, size: usize) -> *mut c_void {
    // SAFETY: same contract as the C function.
    unsafe { mi_aligned_alloc(align, size) }
}

/// # Safety
///
/// The `memalign` contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memalign(align: usize, size: usize) -> *mut c_void {
    // SAFETY: same contract as the C function.
    unsafe { mi_memalign(align, size) }
}

/// # Safety
///
/// The `valloc` contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn valloc(size: usize) -> *mut c_void {
    // SAFETY: same contract as the C function.
    unsafe { mi_valloc(size) }
}

/// # Safety
///
/// The `pvalloc` contract.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn pvalloc(size: usize) -> *mut c_void {
    // SAFETY: same contract as the C function.
    unsafe { mi_pvalloc(size) }
}

/// # Safety
///
/// The `malloc_usable_size` contract: `p` is null or a live allocation.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn malloc_usable_size(p: *mut c_void) -> usize {
    // SAFETY: as `realloc`.
    unsafe { mi_usable_size(p) }
}
