//! File descriptors: `open`, `read`, `write`, `lseek`, `fcntl`, `pipe`, ...
//!
//! Reads go straight into the program's buffer: the destination is checked
//! for the whole count first, and the capabilities of the bytes the kernel
//! returned are nulled after, so a short read leaves the rest of the buffer
//! (bytes and capabilities) as it was, as natively.

use gimso_abi::FlightPtr;

use super::{Raw, fail, path, sys, sys32};
use crate::cc::VarArgs;
use crate::{mem, wrapper};

/// Whether `open`'s flags take the mode argument.
fn needs_mode(flags: i32) -> bool {
    flags & libc::O_CREAT != 0 || flags & libc::O_TMPFILE == libc::O_TMPFILE
}

/// `openat` with the mode read from the variadic arguments only when the
/// flags need it (reading a missing one is an argument-size error).
fn open_at(dirfd: i32, p: FlightPtr, flags: i32, mut va: VarArgs) -> i32 {
    let path = path(p);
    let mode = if needs_mode(flags) {
        va.args().next_word() as u32
    } else {
        0
    };
    sys32(|| {
        // SAFETY: `path` is a NUL-terminated copy.
        unsafe { libc::openat(dirfd, path.as_ptr().cast(), flags, mode) }
    })
}

wrapper! {
    /// `int open(const char *path, int flags, ...)`.
    fn open | open64(p: FlightPtr, flags: i32, va: VarArgs) -> i32 {
        open_at(libc::AT_FDCWD, p, flags, va)
    }
}

wrapper! {
    /// `int openat(int dirfd, const char *path, int flags, ...)`.
    fn openat | openat64(dirfd: i32, p: FlightPtr, flags: i32, va: VarArgs) -> i32 {
        open_at(dirfd, p, flags, va)
    }
}

wrapper! {
    /// `int creat(const char *path, mode_t mode)`.
    fn creat | creat64(p: FlightPtr, mode: u32) -> i32 {
        let path = path(p);
        sys32(|| {
            // SAFETY: `path` is a NUL-terminated copy.
            unsafe { libc::creat(path.as_ptr().cast(), mode) }
        })
    }
}

/// Reads up to `n` bytes into `buf` (checked for all `n` first) with
/// `f`, which the kernel fills directly and which returns the count or -1.
///
/// The bytes the kernel writes are integer stores (gimso-semantics, "Int
/// Stores"): a word that held a pointer keeps its capability and takes the
/// new bytes as its intval, exactly as if the program had stored them
/// itself, so a pointer read back from such a word is still bounded by the
/// object it was stored with. Nulling the capabilities instead meant a scan
/// of the buffer's shadow after every read; SQLite's page buffers share
/// their objects with page headers that hold pointers, so each 4 KiB
/// `pread` scanned 512 shadow words (4.6% of its run time) to null nothing.
///
/// The kernel writes while the thread is exited, so a collection may run
/// meanwhile: `buf`'s object stays allocated because this frame (scanned
/// conservatively) holds its capability, even if another thread frees it
/// (a freed object referenced from a stack is kept, inaccessible; exiting
/// spills the registers for that scan).
pub(super) fn read_into(buf: FlightPtr, n: usize, f: impl FnOnce(*mut u8, usize) -> isize) -> i64 {
    mem::check_write(buf, n);
    sys(|| f(buf.intval() as *mut u8, n) as i64)
}

wrapper! {
    /// `ssize_t read(int fd, void *buf, size_t n)`.
    fn read(fd: i32, buf: FlightPtr, n: usize) -> i64 {
        read_into(buf, n, |b, len| {
            // SAFETY: `b` is `len` bytes of a live object, checked writable.
            unsafe { libc::read(fd, b.cast(), len) }
        })
    }
}

/// `pread` at `off`.
fn pread_at(fd: i32, buf: FlightPtr, n: usize, off: i64) -> i64 {
    read_into(buf, n, |b, len| {
        // SAFETY: `b` is `len` bytes of a live object, checked writable.
        unsafe { libc::pread(fd, b.cast(), len, off) }
    })
}

wrapper! {
    /// `ssize_t pread(int fd, void *buf, size_t n, off_t off)`.
    fn pread | pread64(fd: i32, buf: FlightPtr, n: usize, off: i64) -> i64 {
        pread_at(fd, buf, n, off)
    }
}

/// Writes up to `n` bytes of `buf` (checked for all `n` first) with `f`,
/// which the kernel reads directly and which returns the count or -1.
///
/// No private copy: the object stays allocated while the thread is exited
/// for the call, as for [`read_into`], and a freed one keeps its bytes
/// until nothing refers to it. (A copy cost SQLite a 4 KiB allocation and
/// `memcpy` per page written.)
pub(super) fn write_from(
    buf: FlightPtr,
    n: usize,
    f: impl FnOnce(*const u8, usize) -> isize,
) -> i64 {
    mem::check_read(buf, n);
    sys(|| f(buf.intval() as *const u8, n) as i64)
}

wrapper! {
    /// `ssize_t write(int fd, const void *buf, size_t n)`.
    fn write(fd: i32, buf: FlightPtr, n: usize) -> i64 {
        write_from(buf, n, |b, len| {
            // SAFETY: `b` is `len` bytes of a live object, checked readable.
            unsafe { libc::write(fd, b.cast(), len) }
        })
    }
}

/// `pwrite` at `off`.
fn pwrite_at(fd: i32, buf: FlightPtr, n: usize, off: i64) -> i64 {
    write_from(buf, n, |b, len| {
        // SAFETY: `b` is `len` bytes of a live object, checked readable.
        unsafe { libc::pwrite(fd, b.cast(), len, off) }
    })
}

wrapper! {
    /// `ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)`.
    fn pwrite | pwrite64(fd: i32, buf: FlightPtr, n: usize, off: i64) -> i64 {
        pwrite_at(fd, buf, n, off)
    }
}

wrapper! {
    /// `int close(int fd)`.
    fn close(fd: i32) -> i32 {
        // SAFETY: close has no memory preconditions.
        let r = sys32(|| unsafe { libc::close(fd) });
        crate::posix::epoll::closed(fd);
        r
    }
}

wrapper! {
    /// `off_t lseek(int fd, off_t off, int whence)`.
    fn lseek | lseek64(fd: i32, off: i64, whence: i32) -> i64 {
        // SAFETY: lseek has no memory preconditions.
        sys(|| unsafe { libc::lseek(fd, off, whence) })
    }
}

wrapper! {
    /// `ssize_t sendfile(int out_fd, int in_fd, off_t *offset, size_t count)`:
    /// the kernel copies between the files; the offset, when given, is read
    /// and written back through one checked 8-byte access.
    fn sendfile | sendfile64(out_fd: i32, in_fd: i32, offset: FlightPtr, count: usize) -> i64 {
        let mut off = (offset.intval() != 0).then(|| {
            mem::check_write(offset, 8);
            let b = mem::read_bytes(offset, 8);
            i64::from_ne_bytes(b[..8].try_into().unwrap_or([0; 8]))
        });
        let p = off.as_mut().map_or(core::ptr::null_mut(), |o| o as *mut i64);
        // SAFETY: `p` is null or a private offset; the rest are integers.
        let r = sys(|| unsafe { libc::sendfile(out_fd, in_fd, p, count) } as i64);
        if let Some(o) = off {
            mem::write_bytes(offset, &o.to_ne_bytes());
        }
        r
    }
}

wrapper! {
    /// `int fsync(int fd)`.
    fn fsync(fd: i32) -> i32 {
        // SAFETY: fsync has no memory preconditions.
        sys32(|| unsafe { libc::fsync(fd) })
    }
}

wrapper! {
    /// `int fdatasync(int fd)`.
    fn fdatasync(fd: i32) -> i32 {
        // SAFETY: fdatasync has no memory preconditions.
        sys32(|| unsafe { libc::fdatasync(fd) })
    }
}

wrapper! {
    /// `int posix_fadvise(int fd, off_t offset, off_t len, int advice)`: a
    /// hint about the file; returns an error number, errno unchanged.
    fn posix_fadvise | posix_fadvise64(fd: i32, offset: i64, len: i64, advice: i32) -> i32 {
        // SAFETY: posix_fadvise has no memory preconditions.
        gimso_gc::exited(|| unsafe { libc::posix_fadvise(fd, offset, len, advice) })
    }
}

wrapper! {
    /// `int posix_fallocate(int fd, off_t offset, off_t len)`: returns an
    /// error number, errno unchanged (it may write the disk for a while).
    fn posix_fallocate | posix_fallocate64(fd: i32, offset: i64, len: i64) -> i32 {
        // SAFETY: posix_fallocate has no memory preconditions.
        gimso_gc::exited(|| unsafe { libc::posix_fallocate(fd, offset, len) })
    }
}

wrapper! {
    /// `int ftruncate(int fd, off_t len)`.
    fn ftruncate | ftruncate64(fd: i32, len: i64) -> i32 {
        // SAFETY: ftruncate has no memory preconditions.
        sys32(|| unsafe { libc::ftruncate(fd, len) })
    }
}

wrapper! {
    /// `int dup(int fd)`.
    fn dup(fd: i32) -> i32 {
        // SAFETY: dup has no memory preconditions.
        sys32(|| unsafe { libc::dup(fd) })
    }
}

wrapper! {
    /// `int dup2(int fd, int to)`.
    fn dup2(fd: i32, to: i32) -> i32 {
        // SAFETY: dup2 has no memory preconditions.
        let r = sys32(|| unsafe { libc::dup2(fd, to) });
        if r >= 0 && fd != to {
            crate::posix::epoll::closed(to);
        }
        r
    }
}

wrapper! {
    /// `int dup3(int fd, int to, int flags)`.
    fn dup3(fd: i32, to: i32, flags: i32) -> i32 {
        // SAFETY: dup3 has no memory preconditions.
        let r = sys32(|| unsafe { libc::dup3(fd, to, flags) });
        if r >= 0 {
            crate::posix::epoll::closed(to);
        }
        r
    }
}

/// `pipe2` into the program's `int fds[2]` (checked before the call, so
/// a short array never leaks two descriptors).
fn pipe_into(fds: FlightPtr, flags: i32) -> i32 {
    mem::check_write(fds, 8);
    let mut out = [0i32; 2];
    // SAFETY: `out` is a local int[2].
    let r = sys32(|| unsafe { libc::pipe2(out.as_mut_ptr(), flags) });
    if r == 0 {
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&out[0].to_ne_bytes());
        bytes[4..].copy_from_slice(&out[1].to_ne_bytes());
        mem::write_bytes(fds, &bytes);
    }
    r
}

wrapper! {
    /// `int pipe(int fds[2])`.
    fn pipe(fds: FlightPtr) -> i32 {
        pipe_into(fds, 0)
    }
}

wrapper! {
    /// `int pipe2(int fds[2], int flags)`.
    fn pipe2(fds: FlightPtr, flags: i32) -> i32 {
        pipe_into(fds, flags)
    }
}

/// Bytes of `struct flock` (and `flock64`) on x86-64.
const FLOCK: usize = size_of::<libc::flock>();
const _: () = assert!(FLOCK == 32 && size_of::<libc::flock64>() == FLOCK);

/// `F_SETSIG`/`F_GETSIG` (not bound by the `libc` crate on Linux).
const F_SETSIG: i32 = 10;
const F_GETSIG: i32 = 11;

/// The `F_OFD_*` lock commands (not bound by every `libc` version).
const F_OFD_GETLK: i32 = 36;
const F_OFD_SETLK: i32 = 37;
const F_OFD_SETLKW: i32 = 38;

/// `fcntl` by command: no argument, an `int`, or a checked `struct flock`
/// (read in full, and written back by the `GETLK` commands); other
/// commands are refused with EINVAL.
fn fcntl_any(fd: i32, cmd: i32, mut va: VarArgs) -> i32 {
    match cmd {
        libc::F_GETFD
        | libc::F_GETFL
        | libc::F_GETOWN
        | F_GETSIG
        | libc::F_GETLEASE
        | libc::F_GETPIPE_SZ
        | libc::F_GET_SEALS => {
            // SAFETY: these commands take no argument.
            sys32(|| unsafe { libc::fcntl(fd, cmd) })
        }
        libc::F_DUPFD
        | libc::F_DUPFD_CLOEXEC
        | libc::F_SETFD
        | libc::F_SETFL
        | libc::F_SETOWN
        | F_SETSIG
        | libc::F_SETLEASE
        | libc::F_NOTIFY
        | libc::F_SETPIPE_SZ
        | libc::F_ADD_SEALS => {
            let arg = va.args().next_word() as i32;
            // SAFETY: these commands take an int.
            sys32(|| unsafe { libc::fcntl(fd, cmd, arg) })
        }
        libc::F_GETLK
        | libc::F_SETLK
        | libc::F_SETLKW
        | F_OFD_GETLK
        | F_OFD_SETLK
        | F_OFD_SETLKW => {
            let p = va.args().next_ptr();
            let get = cmd == libc::F_GETLK || cmd == F_OFD_GETLK;
            if get {
                // Checked for writing before the call too.
                mem::check_write(p, FLOCK);
            }
            let mut lock = Raw::<FLOCK>::read(p);
            let ptr = lock.as_mut::<libc::flock>();
            // SAFETY: `ptr` is a private struct flock image.
            let r = sys32(|| unsafe { libc::fcntl(fd, cmd, ptr) });
            if r != -1 && get {
                lock.write(p);
            }
            r
        }
        _ => fail(libc::EINVAL),
    }
}

wrapper! {
    /// `int fcntl(int fd, int cmd, ...)`.
    fn fcntl | fcntl64(fd: i32, cmd: i32, va: VarArgs) -> i32 {
        fcntl_any(fd, cmd, va)
    }
}

/// Bytes of `struct winsize`.
const WINSIZE: usize = size_of::<libc::winsize>();

wrapper! {
    /// `int ioctl(int fd, unsigned long req, ...)`: only `FIONREAD` (an
    /// `int *`) and `TIOCGWINSZ` (a `struct winsize *`), checked; any
    /// other request fails with ENOTTY.
    fn ioctl(fd: i32, req: u64, va: VarArgs) -> i32 {
        let mut va = va;
        match req {
            libc::FIONREAD => {
                let p = va.args().next_ptr();
                mem::check_write(p, 4);
                let mut n: i32 = 0;
                let out = &raw mut n;
                // SAFETY: FIONREAD writes one int at `out`, a local.
                let r = sys32(|| unsafe { libc::ioctl(fd, libc::FIONREAD, out) });
                if r != -1 {
                    mem::write_int(p, &n.to_ne_bytes());
                }
                r
            }
            libc::TIOCGWINSZ => {
                let p = va.args().next_ptr();
                mem::check_write(p, WINSIZE);
                let mut ws = Raw::<WINSIZE>::zeroed();
                let out = ws.as_mut::<libc::winsize>();
                // SAFETY: TIOCGWINSZ writes one struct winsize at `out`.
                let r = sys32(|| unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, out) });
                if r != -1 {
                    ws.write(p);
                }
                r
            }
            _ => fail(libc::ENOTTY),
        }
    }
}

wrapper! {
    /// `int isatty(int fd)`: 0 with errno set when `fd` is no terminal.
    fn isatty(fd: i32) -> i32 {
        let (r, e) = gimso_gc::exited(|| {
            // SAFETY: isatty has no memory preconditions; __errno_location
            // returns the calling thread's errno.
            unsafe { (libc::isatty(fd), *libc::__errno_location()) }
        });
        if r == 0 {
            crate::errno::set(e);
        }
        r
    }
}

wrapper! {
    /// `int flock(int fd, int operation)`: may wait for the lock, exited.
    fn flock(fd: i32, operation: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::flock(fd, operation) })
    }
}

wrapper! {
    /// `int lockf(int fd, int cmd, off_t len)`.
    fn lockf | lockf64(fd: i32, cmd: i32, len: i64) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::lockf(fd, cmd, len) })
    }
}
