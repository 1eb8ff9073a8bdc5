//! Directory streams: `opendir`, `fdopendir`, `readdir`, `closedir`, ...
//!
//! `DIR *` is a special object (`SpecialKind::Dir`, `upper == lower`:
//! the program can pass it around but never read or write through it)
//! whose one-word payload is the stream's id in a runtime table. The table
//! holds libc's `DIR *` and the stream's *entry object*: a GC data object
//! of `sizeof(struct dirent)` (280 bytes) that every `readdir` on the
//! stream overwrites and returns, as glibc reuses one buffer per stream.
//! The entry object is kept alive by a runtime root while the stream is
//! open. `closedir` frees both objects (FREE flag, `upper = lower`), so a
//! `readdir` result used after `closedir`, or the `DIR *` itself, is a use
//! after free.

use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::HashMap;
use std::sync::Arc;

use gimso_abi::{FLAG_FREE, FlightPtr, SpecialKind};
use gimso_shadow::ObjRef;
use gimso_shadow::report::SafetyError;
use parking_lot::Mutex;

use super::path;
use crate::pthread::slots::Held;
use crate::{errno, mem, report, wrapper};

/// Bytes of `struct dirent` (= `dirent64`) on x86-64 glibc.
pub const DIRENT: usize = size_of::<libc::dirent64>();
const _: () = assert!(DIRENT == 280 && size_of::<libc::dirent>() == DIRENT);
/// Offset of `d_name` in `struct dirent`.
const NAME_OFFSET: usize = core::mem::offset_of!(libc::dirent64, d_name);

/// libc's stream (only touched under its state's lock).
struct Native(*mut libc::DIR);

// SAFETY: a libc DIR may be used from any thread; the Mutex around it
// serialises every use.
unsafe impl Send for Native {}

/// An open stream.
struct Stream {
    /// libc's stream; `None` once closed.
    native: Mutex<Option<Native>>,
    /// The entry object `readdir` returns.
    entry: Held,
}

/// Open streams by id (ids are never reused).
static STREAMS: Mutex<Option<HashMap<u64, Arc<Stream>>>> = Mutex::new(None);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn lookup(id: u64) -> Option<Arc<Stream>> {
    STREAMS.lock().as_ref()?.get(&id).cloned()
}

/// The stream of the program's `DIR *` `p`, after checking it is a live
/// `DIR` object.
fn stream(p: FlightPtr) -> (u64, Arc<Stream>) {
    if p.lower() == 0 {
        report::pointer_error(SafetyError::NullCapability, p, "use as DIR *");
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    if obj.is_free() {
        report::pointer_error(SafetyError::UseAfterFree, p, "use as DIR *");
    }
    if obj.kind() != Some(SpecialKind::Dir) || p.intval() != p.lower() {
        report::pointer_error(SafetyError::InvalidDir, p, "use as DIR *");
    }
    // SAFETY: DIR objects have a one-word runtime-private payload.
    let id = unsafe { (p.lower() as *const u64).read() };
    match lookup(id) {
        Some(s) => (id, s),
        // Closed by another thread since the check above.
        None => report::pointer_error(SafetyError::UseAfterFree, p, "use as DIR *"),
    }
}

/// Makes the `DIR` object for libc's stream `d` (not null).
fn new_stream(d: *mut libc::DIR) -> FlightPtr {
    let entry = Held::new(mem::alloc(DIRENT, 16, 0));
    let obj = mem::with_local(|l| gimso_shadow::alloc_special(l, SpecialKind::Dir, 8, 0));
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    // SAFETY: DIR objects have a one-word runtime-private payload.
    unsafe { (obj.lower() as *mut u64).write(id) };
    let s = Arc::new(Stream {
        native: Mutex::new(Some(Native(d))),
        entry,
    });
    STREAMS
        .lock()
        .get_or_insert_with(HashMap::new)
        .insert(id, s);
    obj.flight_ptr()
}

/// Revokes every capability of the object at `lower` (as `free` does),
/// whether or not it was freed already.
fn revoke(lower: usize) {
    // SAFETY: `lower` is the capability of a live runtime-made object.
    let obj = unsafe { ObjRef::from_lower(lower) };
    let header = obj.header();
    header.aux.fetch_or(FLAG_FREE, Ordering::AcqRel);
    header.upper.store(lower, Ordering::Release);
}

/// Runs `f` on libc's stream, exited and under the stream's lock; `None`
/// if the stream was closed meanwhile (a use after free).
fn with_native<R>(p: FlightPtr, f: impl FnOnce(*mut libc::DIR) -> R) -> R {
    let (_, s) = stream(p);
    let r = gimso_gc::exited(|| s.native.lock().as_ref().map(|n| f(n.0)));
    match r {
        Some(r) => r,
        None => report::pointer_error(SafetyError::UseAfterFree, p, "use as DIR *"),
    }
}

wrapper! {
    /// `DIR *opendir(const char *path)`.
    fn opendir(p: FlightPtr) -> FlightPtr {
        let path = path(p);
        let (d, e) = gimso_gc::exited(|| {
            // SAFETY: `path` is a NUL-terminated copy; __errno_location
            // returns the calling thread's errno.
            unsafe { (libc::opendir(path.as_ptr().cast()), *libc::__errno_location()) }
        });
        if d.is_null() {
            errno::set(e);
            return FlightPtr::NULL;
        }
        new_stream(d)
    }
}

wrapper! {
    /// `DIR *fdopendir(int fd)`.
    fn fdopendir(fd: i32) -> FlightPtr {
        let (d, e) = gimso_gc::exited(|| {
            // SAFETY: no memory preconditions; __errno_location returns
            // the calling thread's errno.
            unsafe { (libc::fdopendir(fd), *libc::__errno_location()) }
        });
        if d.is_null() {
            errno::set(e);
            return FlightPtr::NULL;
        }
        new_stream(d)
    }
}

/// `readdir`: the next entry copied into the stream's entry object, or
/// NULL at the end (errno untouched) or on error (errno set).
fn read_entry(p: FlightPtr) -> FlightPtr {
    let (_, s) = stream(p);
    let (entry, e) = with_native(p, |d| {
        // SAFETY: `d` is an open libc stream used under its lock; the
        // entry libc returns is valid until the next call on it, and we
        // copy its header and NUL-terminated name (inside its record).
        unsafe {
            *libc::__errno_location() = 0;
            let ent = libc::readdir64(d);
            let e = *libc::__errno_location();
            if ent.is_null() {
                return (None, e);
            }
            let mut buf = [0u8; DIRENT];
            let name = core::ffi::CStr::from_ptr((*ent).d_name.as_ptr()).to_bytes_with_nul();
            let len = (NAME_OFFSET + name.len()).min(DIRENT);
            core::ptr::copy_nonoverlapping(ent.cast::<u8>(), buf.as_mut_ptr(), NAME_OFFSET);
            buf[NAME_OFFSET..len].copy_from_slice(&name[..len - NAME_OFFSET]);
            (Some(buf), e)
        }
    });
    match entry {
        Some(buf) => {
            let out = s.entry.get();
            mem::write_bytes(out, &buf);
            out
        }
        None => {
            if e != 0 {
                errno::set(e);
            }
            FlightPtr::NULL
        }
    }
}

wrapper! {
    /// `struct dirent *readdir(DIR *d)`: the stream's entry object,
    /// overwritten by the next `readdir` and freed by `closedir`.
    fn readdir | readdir64(d: FlightPtr) -> FlightPtr {
        read_entry(d)
    }
}

wrapper! {
    /// `int closedir(DIR *d)`: frees the `DIR` object and the entry
    /// object (later uses of either are uses after free).
    fn closedir(d: FlightPtr) -> i32 {
        let (id, s) = stream(d);
        let native = gimso_gc::exited(|| s.native.lock().take());
        let Some(native) = native else {
            report::pointer_error(SafetyError::UseAfterFree, d, "closedir")
        };
        revoke(d.lower());
        revoke(s.entry.get().lower());
        if let Some(map) = STREAMS.lock().as_mut() {
            map.remove(&id);
        }
        let native = native.0;
        crate::posix::sys32(|| {
            // SAFETY: libc's stream, closed once (taken out of its state).
            unsafe { libc::closedir(native) }
        })
    }
}

wrapper! {
    /// `void rewinddir(DIR *d)`.
    fn rewinddir(d: FlightPtr) -> () {
        // SAFETY: an open libc stream, under its lock.
        with_native(d, |n| unsafe { libc::rewinddir(n) })
    }
}

wrapper! {
    /// `int dirfd(DIR *d)`.
    fn dirfd(d: FlightPtr) -> i32 {
        // SAFETY: an open libc stream, under its lock.
        with_native(d, |n| unsafe { libc::dirfd(n) })
    }
}

wrapper! {
    /// `long telldir(DIR *d)`.
    fn telldir(d: FlightPtr) -> i64 {
        // SAFETY: an open libc stream, under its lock.
        with_native(d, |n| unsafe { libc::telldir(n) })
    }
}

wrapper! {
    /// `void seekdir(DIR *d, long loc)`.
    fn seekdir(d: FlightPtr, loc: i64) -> () {
        // SAFETY: an open libc stream, under its lock.
        with_native(d, |n| unsafe { libc::seekdir(n, loc) })
    }
}
