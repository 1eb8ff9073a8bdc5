//! `malloc` and friends on the collected heap. Objects are zeroed, bounds
//! are exactly the requested size, and `free` only marks the
//! object freed (the collector reclaims it when nothing refers to it).

use gimso_abi::{FlightPtr, MAX_ALIGN, MAX_OBJECT_SIZE, MIN_ALIGN};
use gimso_shadow::ObjRef;
use gimso_shadow::free::{classify_free, mark_freed};

use crate::mem;
use crate::{errno, wrapper};

/// Allocates `size` bytes aligned to `align`, or sets ENOMEM and returns
/// NULL for sizes no object can have.
pub fn allocate(size: usize, align: usize) -> FlightPtr {
    if size > MAX_OBJECT_SIZE {
        errno::set(libc::ENOMEM);
        return FlightPtr::NULL;
    }
    mem::alloc(size, align.max(MIN_ALIGN), 0)
}

/// Applies the rules of `free` to `p` (reported at the caller's location).
fn check_free(p: FlightPtr) {
    if let Some(err) = classify_free(p) {
        crate::report::free(err, p);
    }
}

/// Frees non-null `p` after [`check_free`] accepted it.
fn free_checked(p: FlightPtr) {
    debug_assert!(p.intval() != 0);
    // SAFETY: check_free(p) returned (it reports and ends the program for
    // anything `free` refuses), so classify_free(p) is None; p is non-null.
    unsafe { mark_freed(p) }
}

/// Bytes accessible from the start of `p`'s object.
fn object_size(p: FlightPtr) -> usize {
    // SAFETY: callers pass pointers that passed classify_free (non-zero,
    // runtime-issued lower).
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    obj.upper() - obj.lower()
}

wrapper! {
    /// `void *malloc(size_t n)`.
    fn malloc(n: usize) -> FlightPtr {
        allocate(n, MIN_ALIGN)
    }
}

wrapper! {
    /// `void *calloc(size_t n, size_t size)`: NULL and ENOMEM on overflow.
    fn calloc(n: usize, size: usize) -> FlightPtr {
        match n.checked_mul(size) {
            Some(total) => allocate(total, MIN_ALIGN),
            None => {
                errno::set(libc::ENOMEM);
                FlightPtr::NULL
            }
        }
    }
}

wrapper! {
    /// `void *realloc(void *p, size_t n)`: a new object holding the old
    /// contents (capabilities included); the old object is freed. Freeing
    /// rules apply to `p` (double, interior, global... frees are errors).
    fn realloc(p: FlightPtr, n: usize) -> FlightPtr {
        if p.intval() == 0 {
            return allocate(n, MIN_ALIGN);
        }
        check_free(p);
        if n == 0 {
            free_checked(p);
            return FlightPtr::NULL;
        }
        let q = allocate(n, MIN_ALIGN);
        if q.intval() == 0 {
            return q;
        }
        mem::memmove(q, p, object_size(p).min(n));
        free_checked(p);
        q
    }
}

wrapper! {
    /// `void free(void *p)`.
    fn free(p: FlightPtr) -> () {
        if p.intval() != 0 {
            check_free(p);
            free_checked(p);
        }
    }
}

/// Whether `align` is one the allocator can honour.
fn valid_alignment(align: usize) -> bool {
    align.is_power_of_two() && align <= MAX_ALIGN
}

wrapper! {
    /// `int posix_memalign(void **out, size_t align, size_t size)`: EINVAL
    /// for an alignment that is not a power-of-two multiple of
    /// `sizeof(void *)`, ENOMEM beyond the largest supported alignment.
    fn posix_memalign(out: FlightPtr, align: usize, size: usize) -> i32 {
        if !align.is_power_of_two() || align % 8 != 0 {
            return libc::EINVAL;
        }
        if !valid_alignment(align) || size > MAX_OBJECT_SIZE {
            return libc::ENOMEM;
        }
        // Check the destination before allocating, so a bad `out` fails
        // without a wasted allocation.
        mem::check_access(out, gimso_shadow::Access::POINTER_WRITE);
        let p = mem::alloc(size, align.max(MIN_ALIGN), 0);
        mem::store_ptr(out, p);
        0
    }
}

wrapper! {
    /// `void *aligned_alloc(size_t align, size_t size)`: NULL and EINVAL
    /// for an invalid alignment.
    fn aligned_alloc | memalign(align: usize, size: usize) -> FlightPtr {
        if !valid_alignment(align) {
            errno::set(libc::EINVAL);
            return FlightPtr::NULL;
        }
        allocate(size, align)
    }
}

wrapper! {
    /// `size_t malloc_usable_size(void *p)`: the object's bounds from `p`'s
    /// object start; 0 for NULL and for freed objects.
    fn malloc_usable_size(p: FlightPtr) -> usize {
        if p.lower() == 0 {
            return 0;
        }
        // SAFETY: a non-zero lower is a runtime-issued capability.
        let obj = unsafe { ObjRef::from_lower(p.lower()) };
        obj.upper() - obj.lower()
    }
}
