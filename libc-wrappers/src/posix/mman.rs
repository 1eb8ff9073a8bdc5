//! `mmap`, `munmap`, `mprotect`, `mremap`: mappings are page-aligned GC
//! objects.
//!
//! - `MAP_PRIVATE|MAP_ANONYMOUS`: a fresh zeroed object of the length
//!   rounded up to whole pages, aligned to 4096.
//! - `MAP_PRIVATE` of a file: the same object filled with `pread` from the
//!   (page-aligned) offset; bytes past the end of the file read as zeros
//!   (natively, whole pages past it fault with SIGBUS).
//! - Without `PROT_WRITE` the object is read-only. `PROT_EXEC` and
//!   protections without `PROT_READ` (`PROT_NONE`, write-only) are refused
//!   with EACCES: no data object is executable, and every object the
//!   program can write it can also read.
//! - `MAP_SHARED` (and `MAP_SHARED_VALIDATE`), of a file or anonymous: the
//!   kernel's shared mapping itself is the object's payload (writes reach
//!   the file and other mappings of it, as natively), placed one page into
//!   a reservation whose first page holds the object's header. It is not a
//!   heap object: the collector traces it as a registered global (pointers
//!   stored in it keep their objects alive), `free` of it is a bad free.
//!   `munmap` frees it (its header stays mapped, so a stale pointer's
//!   access is a use after free, never a fault). SQLite's WAL index is such
//!   a mapping.
//! - `MAP_FIXED` is refused with EINVAL: the runtime places every object
//!   itself.
//! - `munmap` of exactly a whole mapping (its start, with its capability,
//!   and its length rounded to pages) frees the object: any later access
//!   is a use after free. Partial unmaps and other ranges fail with EINVAL.
//! - `mprotect` of a whole mapping toggles it between read-only and
//!   read-write (through every capability, as page protection would);
//!   other protections fail with EACCES, other ranges with EINVAL.
//! - `mremap` is refused (MAP_FAILED, ENOSYS).
//! - `madvise` and `posix_madvise` check that the range lies in the
//!   pointer's object and take the advice as the hint it is: nothing is
//!   passed to the kernel, whose pages are shared with other objects. The
//!   advice that would change contents (`MADV_DONTNEED`, `MADV_FREE`,
//!   `MADV_REMOVE`, ...) fails with EINVAL from `madvise`;
//!   `POSIX_MADV_DONTNEED` is a no-op, as in glibc.
//!
//! The runtime keeps each mapping in a table (its object rooted), as the
//! kernel keeps a mapping until `munmap` whether or not the program still
//! points at it.

use core::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::collections::HashMap;

use gimso_abi::{
    FLAG_FREE, FLAG_GLOBAL, FLAG_READONLY, FlightPtr, HEADER_SIZE, MAX_OBJECT_SIZE, ObjectHeader,
};
use gimso_shadow::ObjRef;
use parking_lot::Mutex;

use super::fail;
use crate::cc::VarArgs;
use crate::pthread::slots::Held;
use crate::{errno, mem, wrapper};

/// The page size mappings are rounded and aligned to.
pub const PAGE: usize = 4096;

/// `(void *)-1`.
pub const MAP_FAILED: FlightPtr = FlightPtr::from_int(usize::MAX);

/// A live mapping: its object and rounded length.
struct Mapping {
    object: MapObject,
    len: usize,
}

/// Where a mapping's object lives.
enum MapObject {
    /// A heap object (private mappings), rooted while mapped.
    Heap(Held),
    /// The kernel's shared mapping at `lower` (its header the last 16 bytes
    /// of the page before it), a registered global.
    Shared { lower: usize },
}

impl MapObject {
    fn lower(&self) -> usize {
        match self {
            MapObject::Heap(h) => h.get().lower(),
            MapObject::Shared { lower } => *lower,
        }
    }
}

/// Live mappings by address (the object's `lower`).
static MAPPINGS: Mutex<Option<HashMap<usize, Mapping>>> = Mutex::new(None);

fn round_up(len: usize) -> Option<usize> {
    len.checked_add(PAGE - 1).map(|n| n & !(PAGE - 1))
}

/// Sets errno and returns MAP_FAILED.
fn map_failed(e: i32) -> FlightPtr {
    errno::set(e);
    MAP_FAILED
}

/// Reads up to `len` bytes of `fd` from `off` (until the end of the file).
fn read_file(fd: i32, len: usize, off: i64) -> Result<Vec<u8>, i32> {
    let mut data = vec![0u8; len];
    let mut done = 0usize;
    while done < len {
        let rest = &mut data[done..];
        let at = off + done as i64;
        let (r, e) = gimso_gc::exited(|| {
            // SAFETY: `rest` is a private buffer; __errno_location returns
            // the calling thread's errno.
            unsafe {
                (
                    libc::pread(fd, rest.as_mut_ptr().cast(), rest.len(), at),
                    *libc::__errno_location(),
                )
            }
        });
        match r {
            0 => break,
            r if r > 0 => done += r as usize,
            _ if e == libc::EINTR => continue,
            _ => return Err(e),
        }
    }
    data.truncate(done);
    Ok(data)
}

wrapper! {
    /// `void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)`.
    fn mmap | mmap64(_addr: FlightPtr, len: usize, prot: i32, flags: i32, fd: i32, off: i64) -> FlightPtr {
        map(len, prot, flags, fd, off)
    }
}

/// `mmap` by the rules of the module documentation.
fn map(len: usize, prot: i32, flags: i32, fd: i32, off: i64) -> FlightPtr {
    let Some(size) = round_up(len).filter(|&n| n != 0) else {
        return map_failed(libc::EINVAL);
    };
    let shared = match flags & 0x0f {
        libc::MAP_PRIVATE => false,
        libc::MAP_SHARED | libc::MAP_SHARED_VALIDATE => true,
        _ => return map_failed(libc::EINVAL),
    };
    if flags & (libc::MAP_FIXED | libc::MAP_FIXED_NOREPLACE) != 0 {
        return map_failed(libc::EINVAL);
    }
    if prot & libc::PROT_EXEC != 0 || prot & libc::PROT_READ == 0 {
        return map_failed(libc::EACCES);
    }
    if size > MAX_OBJECT_SIZE {
        return map_failed(libc::ENOMEM);
    }
    if shared {
        return map_shared(size, prot, flags, fd, off);
    }
    let data = if flags & libc::MAP_ANONYMOUS != 0 {
        Vec::new()
    } else {
        if off < 0 || off as usize % PAGE != 0 {
            return map_failed(libc::EINVAL);
        }
        match read_file(fd, size, off) {
            Ok(d) => d,
            Err(e) => return map_failed(e),
        }
    };
    let p = mem::alloc(size, PAGE, 0);
    mem::write_bytes(p, &data);
    if prot & libc::PROT_WRITE == 0 {
        set_readonly(p.lower(), true);
    }
    MAPPINGS.lock().get_or_insert_with(HashMap::new).insert(
        p.lower(),
        Mapping {
            object: MapObject::Heap(Held::new(p)),
            len: size,
        },
    );
    p
}

/// A `MAP_SHARED` mapping of `size` bytes (whole pages): a reservation of
/// one page more, the kernel's shared mapping placed over all but its first
/// page, the object's header at the end of that first page.
fn map_shared(size: usize, prot: i32, flags: i32, fd: i32, off: i64) -> FlightPtr {
    let native_prot = libc::PROT_READ | (prot & libc::PROT_WRITE);
    let keep = flags & !(0x0f | libc::MAP_FIXED | libc::MAP_FIXED_NOREPLACE);
    let (r, e) = gimso_gc::exited(|| {
        // SAFETY: a fresh reservation, then a mapping over the part of it
        // after its first page (MAP_FIXED replaces only pages we own);
        // __errno_location returns the calling thread's errno.
        unsafe {
            let base = libc::mmap(
                core::ptr::null_mut(),
                PAGE + size,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            );
            if base == libc::MAP_FAILED {
                return (None, *libc::__errno_location());
            }
            let payload = base.cast::<u8>().add(PAGE).cast::<libc::c_void>();
            let m = libc::mmap(
                payload,
                size,
                native_prot,
                libc::MAP_SHARED | libc::MAP_FIXED | keep,
                fd,
                off,
            );
            if m == libc::MAP_FAILED {
                let e = *libc::__errno_location();
                libc::munmap(base, PAGE + size);
                return (None, e);
            }
            (Some(payload as usize), 0)
        }
    });
    let Some(lower) = r else { return map_failed(e) };
    let mut flags = FLAG_GLOBAL;
    if prot & libc::PROT_WRITE == 0 {
        flags |= FLAG_READONLY;
    }
    // No shadow words: the aux word leads to the zero region, unless the
    // mapping is larger than it (then real shadow words, made below).
    let zero_aux = gimso_shadow::zero::aux_without_shadow(flags, lower, size);
    // SAFETY: the header's 16 bytes end the reservation's first page, which
    // nothing else uses.
    unsafe {
        let header = (lower - HEADER_SIZE) as *mut ObjectHeader;
        header.write(ObjectHeader {
            upper: AtomicUsize::new(lower + size),
            aux: AtomicU64::new(zero_aux.unwrap_or(flags)),
        });
    }
    if zero_aux.is_none() {
        // SAFETY: the header was just written; `lower` is its payload.
        let obj = unsafe { ObjRef::from_lower(lower) };
        mem::with_local(|l| gimso_shadow::alloc::ensure_aux(l, obj));
    }
    gimso_gc::register_global_object(lower);
    // The kernel may have placed it in a region the heap's chunk table
    // describes (beside a large object, or where one was freed): it is
    // outside the heap all the same.
    gimso_heap::foreign::register(lower - HEADER_SIZE, lower + size);
    MAPPINGS.lock().get_or_insert_with(HashMap::new).insert(
        lower,
        Mapping {
            object: MapObject::Shared { lower },
            len: size,
        },
    );
    // SAFETY: the mapping's object header was written just below `lower`.
    unsafe { FlightPtr::from_lower(lower) }
}

/// Sets or clears the read-only flag of the object at `lower`.
fn set_readonly(lower: usize, on: bool) {
    // SAFETY: `lower` is the capability of a mapping's object.
    let obj = unsafe { ObjRef::from_lower(lower) };
    let aux = &obj.header().aux;
    if on {
        aux.fetch_or(FLAG_READONLY, Ordering::AcqRel);
    } else {
        aux.fetch_and(!FLAG_READONLY, Ordering::AcqRel);
    }
}

/// Whether `addr`/`len` name exactly a live mapping (start address with
/// the mapping's capability, length rounded to its pages).
fn whole_mapping(map: &HashMap<usize, Mapping>, addr: FlightPtr, len: usize) -> bool {
    match map.get(&addr.intval()) {
        Some(m) => addr.lower() == addr.intval() && len != 0 && round_up(len) == Some(m.len),
        None => false,
    }
}

wrapper! {
    /// `int munmap(void *addr, size_t len)`.
    fn munmap(addr: FlightPtr, len: usize) -> i32 {
        let removed = {
            let mut guard = MAPPINGS.lock();
            let map = guard.get_or_insert_with(HashMap::new);
            if whole_mapping(map, addr, len) {
                map.remove(&addr.intval())
            } else {
                None
            }
        };
        let Some(m) = removed else {
            return fail(libc::EINVAL);
        };
        let lower = m.object.lower();
        // SAFETY: the mapping's object, rooted until `m` drops (a shared
        // one's header page is never unmapped).
        let obj = unsafe { ObjRef::from_lower(lower) };
        let header = obj.header();
        header.aux.fetch_or(FLAG_FREE, Ordering::AcqRel);
        header.upper.store(lower, Ordering::Release);
        match m.object {
            // A private mapping is a heap object: its pages go back now, as
            // munmap promises, not when the collector reclaims the object.
            // SAFETY: the object was freed just above, and `m` roots it.
            MapObject::Heap(_) => unsafe {
                gimso_heap::discard_freed_payload(lower, lower + m.len)
            },
            // The header says freed before the pages go, so every checked
            // access fails first; the header's page stays.
            MapObject::Shared { lower } => {
                // SAFETY: the shared pages of this mapping, no longer
                // reachable through any check.
                unsafe { libc::munmap(lower as *mut libc::c_void, m.len) };
                // The address space may become the heap's again; the header
                // (and a capability naming it) is now a dead object's.
                gimso_heap::foreign::unregister(lower - HEADER_SIZE);
            }
        }
        drop(m);
        0
    }
}

wrapper! {
    /// `int mprotect(void *addr, size_t len, int prot)`.
    fn mprotect(addr: FlightPtr, len: usize, prot: i32) -> i32 {
        let guard = MAPPINGS.lock();
        let whole = guard.as_ref().is_some_and(|m| whole_mapping(m, addr, len));
        if !whole {
            drop(guard);
            return fail(libc::EINVAL);
        }
        let shared = guard
            .as_ref()
            .and_then(|m| m.get(&addr.intval()))
            .and_then(|m| match m.object {
                MapObject::Shared { lower } => Some((lower, m.len)),
                MapObject::Heap(_) => None,
            });
        if let Some((lower, size)) = shared {
            if prot == libc::PROT_READ || prot == libc::PROT_READ | libc::PROT_WRITE {
                // The kernel's pages of a shared mapping change with its
                // header's flag (a heap object's pages are shared with
                // other objects and stay writable).
                // SAFETY: the pages of this live shared mapping.
                if unsafe { libc::mprotect(lower as *mut libc::c_void, size, prot) } != 0 {
                    drop(guard);
                    // SAFETY: __errno_location returns this thread's errno.
                    return fail(unsafe { *libc::__errno_location() });
                }
            }
        }
        match prot {
            p if p == libc::PROT_READ => set_readonly(addr.lower(), true),
            p if p == libc::PROT_READ | libc::PROT_WRITE => set_readonly(addr.lower(), false),
            _ => {
                drop(guard);
                return fail(libc::EACCES);
            }
        }
        0
    }
}

wrapper! {
    /// `int msync(void *addr, size_t len, int flags)`: the range must lie
    /// in the pointer's object (checked as a read) and start on a page. A
    /// shared mapping's pages are synced by the kernel; anything else has
    /// no file behind it and succeeds.
    fn msync(addr: FlightPtr, len: usize, flags: i32) -> i32 {
        if addr.intval() % PAGE != 0 {
            return fail(libc::EINVAL);
        }
        mem::check_read(addr, len);
        let shared = MAPPINGS.lock().as_ref().is_some_and(|m| {
            m.values().any(|m| {
                matches!(m.object, MapObject::Shared { lower } if lower <= addr.intval() && addr.intval() < lower + m.len)
            })
        });
        if !shared {
            return 0;
        }
        // SAFETY: the range lies in a live shared mapping (checked above).
        crate::posix::sys32(|| unsafe { libc::msync(addr.intval() as *mut libc::c_void, len, flags) })
    }
}

wrapper! {
    /// `void *mremap(void *old, size_t old_len, size_t new_len, int flags, ...)`:
    /// refused (MAP_FAILED, ENOSYS).
    fn mremap(_old: FlightPtr, _old_len: usize, _new_len: usize, _flags: i32, _va: VarArgs) -> FlightPtr {
        map_failed(libc::ENOSYS)
    }
}

/// `madvise` advice that is only a hint about access patterns or dumps.
const HINTS: &[i32] = &[
    libc::MADV_NORMAL,
    libc::MADV_RANDOM,
    libc::MADV_SEQUENTIAL,
    libc::MADV_WILLNEED,
    libc::MADV_HUGEPAGE,
    libc::MADV_NOHUGEPAGE,
    libc::MADV_DONTDUMP,
    libc::MADV_DODUMP,
    libc::MADV_MERGEABLE,
    libc::MADV_UNMERGEABLE,
];

wrapper! {
    /// `int madvise(void *addr, size_t len, int advice)`.
    fn madvise(addr: FlightPtr, len: usize, advice: i32) -> i32 {
        mem::check_read(addr, len);
        if HINTS.contains(&advice) { 0 } else { fail(libc::EINVAL) }
    }
}

wrapper! {
    /// `int posix_madvise(void *addr, size_t len, int advice)`: returns an
    /// error number, errno unchanged.
    fn posix_madvise(addr: FlightPtr, len: usize, advice: i32) -> i32 {
        mem::check_read(addr, len);
        let known = [
            libc::POSIX_MADV_NORMAL,
            libc::POSIX_MADV_RANDOM,
            libc::POSIX_MADV_SEQUENTIAL,
            libc::POSIX_MADV_WILLNEED,
            libc::POSIX_MADV_DONTNEED,
        ];
        if known.contains(&advice) { 0 } else { libc::EINVAL }
    }
}
