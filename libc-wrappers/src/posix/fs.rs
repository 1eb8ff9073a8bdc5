//! The file system: `stat` and friends, `access`, `unlink`, `mkdir`,
//! `getcwd`, `chdir`, permissions and owners, times, links, `realpath`,
//! `mkstemp`/`mkdtemp`.
//!
//! Structs the kernel fills (`struct stat`, 144 bytes on x86-64) are
//! filled in a private image and written to the program with one checked
//! write of exactly their size, checked before the call; structs the
//! program passes in (`struct timespec[2]`, ...) are read with one checked
//! read of exactly their size.

use gimso_abi::FlightPtr;

use super::{Raw, fail, path, sys32, until_nul};
use crate::{mem, wrapper};

/// Bytes of `struct stat` (and `stat64`) on x86-64 glibc.
pub const STAT: usize = size_of::<libc::stat>();
const _: () = assert!(STAT == 144 && size_of::<libc::stat64>() == STAT);

/// Runs a `stat`-like call `f` on a private image and writes it to `buf`
/// (checked for the whole struct before the call).
fn stat_into(buf: FlightPtr, f: impl FnOnce(*mut libc::stat) -> i32) -> i32 {
    mem::check_write(buf, STAT);
    let mut st = Raw::<STAT>::zeroed();
    let out = st.as_mut::<libc::stat>();
    let r = sys32(|| f(out));
    if r == 0 {
        st.write(buf);
    }
    r
}

/// `stat` (`follow`) or `lstat` of the path at `p` into `buf`.
fn stat_path(p: FlightPtr, buf: FlightPtr, follow: bool) -> i32 {
    let path = path(p);
    stat_into(buf, |out| {
        // SAFETY: `path` is a NUL-terminated copy and `out` a private
        // struct stat image.
        unsafe {
            if follow {
                libc::stat(path.as_ptr().cast(), out)
            } else {
                libc::lstat(path.as_ptr().cast(), out)
            }
        }
    })
}

/// `fstat` of `fd` into `buf`.
fn stat_fd(fd: i32, buf: FlightPtr) -> i32 {
    stat_into(buf, |out| {
        // SAFETY: `out` is a private struct stat image.
        unsafe { libc::fstat(fd, out) }
    })
}

/// `fstatat` of `dirfd`/path into `buf`.
fn stat_at(dirfd: i32, p: FlightPtr, buf: FlightPtr, flags: i32) -> i32 {
    let path = path(p);
    stat_into(buf, |out| {
        // SAFETY: `path` is a NUL-terminated copy and `out` a private
        // struct stat image.
        unsafe { libc::fstatat(dirfd, path.as_ptr().cast(), out, flags) }
    })
}

wrapper! {
    /// `int stat(const char *path, struct stat *buf)`.
    fn stat | stat64(p: FlightPtr, buf: FlightPtr) -> i32 {
        stat_path(p, buf, true)
    }
}

wrapper! {
    /// `int lstat(const char *path, struct stat *buf)`.
    fn lstat | lstat64(p: FlightPtr, buf: FlightPtr) -> i32 {
        stat_path(p, buf, false)
    }
}

wrapper! {
    /// `int fstat(int fd, struct stat *buf)`.
    fn fstat | fstat64(fd: i32, buf: FlightPtr) -> i32 {
        stat_fd(fd, buf)
    }
}

wrapper! {
    /// `int fstatat(int dirfd, const char *path, struct stat *buf, int flags)`.
    fn fstatat | fstatat64(dirfd: i32, p: FlightPtr, buf: FlightPtr, flags: i32) -> i32 {
        stat_at(dirfd, p, buf, flags)
    }
}

/// Defines wrappers `NAME(const char *path, INT...)` calling libc's
/// `NAME(path, INT...)`.
macro_rules! path_call {
    ($($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        wrapper! {
            $(#[$meta])*
            fn $name(p: FlightPtr $(, $arg: $ty)*) -> i32 {
                let path = path(p);
                sys32(|| {
                    // SAFETY: `path` is a NUL-terminated copy; the other
                    // arguments are integers.
                    unsafe { libc::$name(path.as_ptr().cast() $(, $arg)*) }
                })
            }
        }
    )*};
}

path_call! {
    /// `int access(const char *path, int mode)`.
    fn access(mode: i32);
    /// `int unlink(const char *path)`.
    fn unlink();
    /// `int mkdir(const char *path, mode_t mode)`.
    fn mkdir(mode: u32);
    /// `int rmdir(const char *path)`.
    fn rmdir();
    /// `int chdir(const char *path)`.
    fn chdir();
    /// `int chmod(const char *path, mode_t mode)`.
    fn chmod(mode: u32);
    /// `int chown(const char *path, uid_t uid, gid_t gid)`.
    fn chown(uid: u32, gid: u32);
    /// `int lchown(const char *path, uid_t uid, gid_t gid)`.
    fn lchown(uid: u32, gid: u32);
    /// `int truncate(const char *path, off_t len)`.
    fn truncate(len: i64);
    /// `int truncate64(const char *path, off64_t len)`.
    fn truncate64(len: i64);
}

/// Defines wrappers `NAME(int dirfd, const char *path, INT...)`.
macro_rules! at_call {
    ($($(#[$meta:meta])* fn $name:ident($($arg:ident: $ty:ty),*);)*) => {$(
        wrapper! {
            $(#[$meta])*
            fn $name(dirfd: i32, p: FlightPtr $(, $arg: $ty)*) -> i32 {
                let path = path(p);
                sys32(|| {
                    // SAFETY: `path` is a NUL-terminated copy; the other
                    // arguments are integers.
                    unsafe { libc::$name(dirfd, path.as_ptr().cast() $(, $arg)*) }
                })
            }
        }
    )*};
}

at_call! {
    /// `int faccessat(int dirfd, const char *path, int mode, int flags)`.
    fn faccessat(mode: i32, flags: i32);
    /// `int unlinkat(int dirfd, const char *path, int flags)`.
    fn unlinkat(flags: i32);
    /// `int mkdirat(int dirfd, const char *path, mode_t mode)`.
    fn mkdirat(mode: u32);
    /// `int fchmodat(int dirfd, const char *path, mode_t mode, int flags)`.
    fn fchmodat(mode: u32, flags: i32);
}

/// Bytes of `struct statvfs` (and `statvfs64`) on x86-64 glibc.
const STATVFS: usize = size_of::<libc::statvfs>();
const _: () = assert!(STATVFS == 112 && size_of::<libc::statvfs64>() == STATVFS);

/// Runs a `statvfs`-like call `f` on a private image and writes it to
/// `buf` (checked for the whole struct before the call).
fn statvfs_into(buf: FlightPtr, f: impl FnOnce(*mut libc::statvfs) -> i32) -> i32 {
    mem::check_write(buf, STATVFS);
    let mut st = Raw::<STATVFS>::zeroed();
    let out = st.as_mut::<libc::statvfs>();
    let r = sys32(|| f(out));
    if r == 0 {
        st.write(buf);
    }
    r
}

wrapper! {
    /// `int statvfs(const char *path, struct statvfs *buf)`.
    fn statvfs | statvfs64(p: FlightPtr, buf: FlightPtr) -> i32 {
        let path = path(p);
        statvfs_into(buf, |out| {
            // SAFETY: `path` is a NUL-terminated copy and `out` a private
            // struct statvfs image.
            unsafe { libc::statvfs(path.as_ptr().cast(), out) }
        })
    }
}

wrapper! {
    /// `int fstatvfs(int fd, struct statvfs *buf)`.
    fn fstatvfs | fstatvfs64(fd: i32, buf: FlightPtr) -> i32 {
        statvfs_into(buf, |out| {
            // SAFETY: `out` is a private struct statvfs image.
            unsafe { libc::fstatvfs(fd, out) }
        })
    }
}

wrapper! {
    /// `int fchdir(int fd)`.
    fn fchdir(fd: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::fchdir(fd) })
    }
}

wrapper! {
    /// `int fchmod(int fd, mode_t mode)`.
    fn fchmod(fd: i32, mode: u32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::fchmod(fd, mode) })
    }
}

wrapper! {
    /// `int fchown(int fd, uid_t uid, gid_t gid)`.
    fn fchown(fd: i32, uid: u32, gid: u32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::fchown(fd, uid, gid) })
    }
}

wrapper! {
    /// `mode_t umask(mode_t mask)`.
    fn umask(mask: u32) -> u32 {
        // SAFETY: no memory preconditions.
        unsafe { libc::umask(mask) }
    }
}

/// Two links' worth of paths: `symlink`/`link`/`rename`-like calls.
fn two_paths(
    a: FlightPtr,
    b: FlightPtr,
    f: unsafe fn(*const libc::c_char, *const libc::c_char) -> i32,
) -> i32 {
    let a = path(a);
    let b = path(b);
    // SAFETY: both are NUL-terminated copies (f's only precondition).
    sys32(|| unsafe { f(a.as_ptr().cast(), b.as_ptr().cast()) })
}

/// libc's `symlink` as a plain `unsafe fn`.
///
/// # Safety
/// Both arguments are NUL-terminated strings.
unsafe fn c_symlink(a: *const libc::c_char, b: *const libc::c_char) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { libc::symlink(a, b) }
}

/// libc's `link` as a plain `unsafe fn`.
///
/// # Safety
/// Both arguments are NUL-terminated strings.
unsafe fn c_link(a: *const libc::c_char, b: *const libc::c_char) -> i32 {
    // SAFETY: the caller's contract.
    unsafe { libc::link(a, b) }
}

wrapper! {
    /// `int symlink(const char *target, const char *linkpath)`.
    fn symlink(target: FlightPtr, linkpath: FlightPtr) -> i32 {
        two_paths(target, linkpath, c_symlink)
    }
}

wrapper! {
    /// `int link(const char *old, const char *new)`.
    fn link(old: FlightPtr, new: FlightPtr) -> i32 {
        two_paths(old, new, c_link)
    }
}

/// `readlinkat` into `buf` of `size` bytes (checked in full first; only
/// the bytes returned are written, with no NUL, as natively).
fn readlink_at(dirfd: i32, p: FlightPtr, buf: FlightPtr, size: usize) -> i64 {
    let path = path(p);
    mem::check_write(buf, size);
    let mut tmp = vec![0u8; size];
    let r = super::sys(|| {
        // SAFETY: `path` is a NUL-terminated copy, `tmp` a private buffer.
        unsafe {
            libc::readlinkat(
                dirfd,
                path.as_ptr().cast(),
                tmp.as_mut_ptr().cast(),
                tmp.len(),
            ) as i64
        }
    });
    if r > 0 {
        mem::write_bytes(buf, &tmp[..r as usize]);
    }
    r
}

wrapper! {
    /// `ssize_t readlink(const char *path, char *buf, size_t size)`.
    fn readlink(p: FlightPtr, buf: FlightPtr, size: usize) -> i64 {
        readlink_at(libc::AT_FDCWD, p, buf, size)
    }
}

wrapper! {
    /// `ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size)`.
    fn readlinkat(dirfd: i32, p: FlightPtr, buf: FlightPtr, size: usize) -> i64 {
        readlink_at(dirfd, p, buf, size)
    }
}

/// The current directory, or the errno of `getcwd`.
fn current_dir() -> Result<Vec<u8>, i32> {
    let mut cap = 256usize;
    loop {
        let mut buf = vec![0u8; cap];
        let (ok, e) = gimso_gc::exited(|| {
            // SAFETY: `buf` is a private buffer of `cap` bytes.
            let r = unsafe { libc::getcwd(buf.as_mut_ptr().cast(), buf.len()) };
            // SAFETY: __errno_location returns the calling thread's errno.
            (!r.is_null(), unsafe { *libc::__errno_location() })
        });
        if ok {
            return Ok(until_nul(&buf).to_vec());
        }
        if e != libc::ERANGE || cap >= 1 << 20 {
            return Err(e);
        }
        cap *= 4;
    }
}

wrapper! {
    /// `char *getcwd(char *buf, size_t size)`: `buf` is checked for all
    /// `size` bytes; with a NULL `buf` the result is a fresh GC object
    /// (`size` bytes, or just enough when `size` is 0).
    fn getcwd(buf: FlightPtr, size: usize) -> FlightPtr {
        if buf.intval() != 0 {
            mem::check_write(buf, size);
            if size == 0 {
                fail(libc::EINVAL);
                return FlightPtr::NULL;
            }
        }
        let mut cwd = match current_dir() {
            Ok(cwd) => cwd,
            Err(e) => {
                fail(e);
                return FlightPtr::NULL;
            }
        };
        if size != 0 && cwd.len() + 1 > size {
            fail(libc::ERANGE);
            return FlightPtr::NULL;
        }
        if buf.intval() == 0 {
            let out = mem::alloc(size.max(cwd.len() + 1), 16, 0);
            cwd.push(0);
            mem::write_bytes(out, &cwd);
            return out;
        }
        cwd.push(0);
        mem::write_bytes(buf, &cwd);
        buf
    }
}

wrapper! {
    /// `char *realpath(const char *path, char *resolved)`: the result is
    /// written to `resolved` (checked for its length and NUL), or to a
    /// fresh GC object when `resolved` is NULL.
    fn realpath(p: FlightPtr, resolved: FlightPtr) -> FlightPtr {
        let path = path(p);
        let (r, e) = gimso_gc::exited(|| {
            // SAFETY: `path` is a NUL-terminated copy; with a NULL buffer
            // realpath returns a malloc'd string (or NULL), copied and
            // freed here.
            unsafe {
                let r = libc::realpath(path.as_ptr().cast(), core::ptr::null_mut());
                let e = *libc::__errno_location();
                if r.is_null() {
                    return (None, e);
                }
                let s = core::ffi::CStr::from_ptr(r).to_bytes_with_nul().to_vec();
                libc::free(r.cast());
                (Some(s), e)
            }
        });
        let Some(s) = r else {
            fail(e);
            return FlightPtr::NULL;
        };
        if resolved.intval() == 0 {
            let out = mem::alloc(s.len(), 16, 0);
            mem::write_bytes(out, &s);
            return out;
        }
        mem::write_bytes(resolved, &s);
        resolved
    }
}

/// `mkstemp`/`mkdtemp` on the template at `t`, rewritten in place (the
/// template's bytes are checked for writing before the call).
fn temp_in_place(t: FlightPtr, f: impl FnOnce(*mut libc::c_char) -> i32) -> i32 {
    let mut name = mem::c_string_nul(t);
    mem::check_write(t, name.len() - 1);
    let ptr = name.as_mut_ptr().cast::<libc::c_char>();
    let r = sys32(|| f(ptr));
    if r != -1 {
        mem::write_bytes(t, &name[..name.len() - 1]);
    }
    r
}

wrapper! {
    /// `int mkstemp(char *template)`.
    fn mkstemp | mkstemp64(t: FlightPtr) -> i32 {
        temp_in_place(t, |p| {
            // SAFETY: `p` is a private NUL-terminated copy.
            unsafe { libc::mkstemp(p) }
        })
    }
}

wrapper! {
    /// `int mkostemp(char *template, int flags)`.
    fn mkostemp(t: FlightPtr, flags: i32) -> i32 {
        temp_in_place(t, |p| {
            // SAFETY: `p` is a private NUL-terminated copy.
            unsafe { libc::mkostemp(p, flags) }
        })
    }
}

wrapper! {
    /// `char *mkdtemp(char *template)`.
    fn mkdtemp(t: FlightPtr) -> FlightPtr {
        let r = temp_in_place(t, |p| {
            // SAFETY: `p` is a private NUL-terminated copy.
            if unsafe { libc::mkdtemp(p) }.is_null() { -1 } else { 0 }
        });
        if r == -1 { FlightPtr::NULL } else { t }
    }
}

/// An optional struct argument of `N` bytes: NULL, or its checked image.
fn optional<const N: usize>(p: FlightPtr) -> Option<Raw<N>> {
    (p.intval() != 0).then(|| Raw::<N>::read(p))
}

/// A pointer to an optional image, or NULL.
fn opt_ptr<T, const N: usize>(r: &Option<Raw<N>>) -> *const T {
    match r {
        Some(r) => r.as_const::<T>(),
        None => core::ptr::null(),
    }
}

const UTIMBUF: usize = size_of::<libc::utimbuf>();
const TIMEVAL2: usize = 2 * size_of::<libc::timeval>();
const TIMESPEC2: usize = 2 * size_of::<libc::timespec>();

wrapper! {
    /// `int utime(const char *path, const struct utimbuf *times)`.
    fn utime(p: FlightPtr, times: FlightPtr) -> i32 {
        let path = path(p);
        let t = optional::<UTIMBUF>(times);
        let tp = opt_ptr::<libc::utimbuf, UTIMBUF>(&t);
        // SAFETY: `path` is a NUL-terminated copy, `tp` NULL or a private image.
        sys32(|| unsafe { libc::utime(path.as_ptr().cast(), tp) })
    }
}

wrapper! {
    /// `int utimes(const char *path, const struct timeval tv[2])`.
    fn utimes(p: FlightPtr, tv: FlightPtr) -> i32 {
        let path = path(p);
        let t = optional::<TIMEVAL2>(tv);
        let tp = opt_ptr::<[libc::timeval; 2], TIMEVAL2>(&t);
        // SAFETY: `path` is a NUL-terminated copy, `tp` NULL or a private image.
        sys32(|| unsafe { libc::utimes(path.as_ptr().cast(), tp.cast()) })
    }
}

wrapper! {
    /// `int futimens(int fd, const struct timespec times[2])`.
    fn futimens(fd: i32, times: FlightPtr) -> i32 {
        let t = optional::<TIMESPEC2>(times);
        let tp = opt_ptr::<[libc::timespec; 2], TIMESPEC2>(&t);
        // SAFETY: `tp` is NULL or a private image.
        sys32(|| unsafe { libc::futimens(fd, tp.cast()) })
    }
}

wrapper! {
    /// `int utimensat(int dirfd, const char *path, const struct timespec times[2], int flags)`.
    fn utimensat(dirfd: i32, p: FlightPtr, times: FlightPtr, flags: i32) -> i32 {
        if p.intval() == 0 {
            return fail(libc::EINVAL);
        }
        let path = path(p);
        let t = optional::<TIMESPEC2>(times);
        let tp = opt_ptr::<[libc::timespec; 2], TIMESPEC2>(&t);
        // SAFETY: `path` is a NUL-terminated copy, `tp` NULL or a private image.
        sys32(|| unsafe { libc::utimensat(dirfd, path.as_ptr().cast(), tp.cast(), flags) })
    }
}
