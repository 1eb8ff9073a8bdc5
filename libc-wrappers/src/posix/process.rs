//! Processes: ids, `sysconf`, `gethostname`, `uname`, resource usage and
//! limits, scheduling priority, `fork`, the `exec` family,
//! `wait`/`waitpid`, `system`, and the refused dynamic loader (`dlopen` &
//! co).
//!
//! `fork` is supported while the program has one thread: the runtime lets
//! a running collection finish, ends its collector thread, forks when the
//! calling thread is the only native thread left, and starts a fresh
//! collector thread in parent and child (`gimso_gc::fork_with`), so the
//! child is a complete gimso program. While other threads run (created and
//! not finished, or, a second after finishing, still not gone) `fork`
//! fails with EAGAIN and a warning: the child would hold only the forking
//! thread, with the other threads' locks possibly held forever, and
//! neither the collector nor the program could recover them.

use core::cell::Cell;

use gimso_abi::FlightPtr;

use super::{Raw, fail, path, sys, sys32, until_nul};
use crate::cc::VarArgs;
use crate::{errno, mem, report, wrapper};

/// Defines wrappers for calls with no arguments and no failure.
macro_rules! id_call {
    ($($(#[$meta:meta])* fn $name:ident() -> $ty:ty;)*) => {$(
        wrapper! {
            $(#[$meta])*
            fn $name() -> $ty {
                // SAFETY: no arguments, no memory preconditions.
                unsafe { libc::$name() }
            }
        }
    )*};
}

id_call! {
    /// `pid_t getpid(void)`.
    fn getpid() -> i32;
    /// `pid_t getppid(void)`.
    fn getppid() -> i32;
    /// `pid_t gettid(void)`.
    fn gettid() -> i32;
    /// `uid_t getuid(void)`.
    fn getuid() -> u32;
    /// `uid_t geteuid(void)`.
    fn geteuid() -> u32;
    /// `gid_t getgid(void)`.
    fn getgid() -> u32;
    /// `gid_t getegid(void)`.
    fn getegid() -> u32;
}

wrapper! {
    /// `long sysconf(int name)`.
    fn sysconf(name: i32) -> i64 {
        // -1 is also the answer for unlimited values (errno untouched).
        // SAFETY: no memory preconditions.
        minus_one_valid(|| unsafe { libc::sysconf(name) })
    }
}

wrapper! {
    /// `int getpagesize(void)`.
    fn getpagesize() -> i32 {
        // SAFETY: no memory preconditions.
        unsafe { libc::sysconf(libc::_SC_PAGESIZE) as i32 }
    }
}

wrapper! {
    /// `int gethostname(char *buf, size_t len)`: `buf` checked for `len`
    /// bytes; the name and its NUL are written, truncated to `len`.
    fn gethostname(buf: FlightPtr, len: usize) -> i32 {
        mem::check_write(buf, len);
        let mut tmp = vec![0u8; len];
        // SAFETY: `tmp` is a private buffer of `len` bytes.
        let r = sys32(|| unsafe { libc::gethostname(tmp.as_mut_ptr().cast(), tmp.len()) });
        if r == 0 {
            let n = (until_nul(&tmp).len() + 1).min(len);
            mem::write_bytes(buf, &tmp[..n]);
        }
        r
    }
}

/// Bytes of `struct utsname`.
const UTSNAME: usize = size_of::<libc::utsname>();
const _: () = assert!(UTSNAME == 390);

wrapper! {
    /// `int uname(struct utsname *buf)`.
    fn uname(buf: FlightPtr) -> i32 {
        mem::check_write(buf, UTSNAME);
        let mut u = Raw::<UTSNAME>::zeroed();
        let out = u.as_mut::<libc::utsname>();
        // SAFETY: `out` is a private struct utsname image.
        let r = sys32(|| unsafe { libc::uname(out) });
        if r == 0 {
            u.write(buf);
        }
        r
    }
}

/// Bytes of `struct rusage` and `struct rlimit`.
const RUSAGE: usize = size_of::<libc::rusage>();
const RLIMIT: usize = size_of::<libc::rlimit>();
const _: () = assert!(RUSAGE == 144 && RLIMIT == 16);

wrapper! {
    /// `int getrusage(int who, struct rusage *usage)`.
    fn getrusage(who: i32, usage: FlightPtr) -> i32 {
        mem::check_write(usage, RUSAGE);
        let mut u = Raw::<RUSAGE>::zeroed();
        let out = u.as_mut::<libc::rusage>();
        // SAFETY: `out` is a private struct rusage image.
        let r = sys32(|| unsafe { libc::getrusage(who, out) });
        if r == 0 {
            u.write(usage);
        }
        r
    }
}

/// `getrlimit` into the program's `struct rlimit` (checked first).
fn get_limit(resource: i32, rl: FlightPtr) -> i32 {
    mem::check_write(rl, RLIMIT);
    let mut l = Raw::<RLIMIT>::zeroed();
    let out = l.as_mut::<libc::rlimit>();
    // SAFETY: `out` is a private struct rlimit image.
    let r = sys32(|| unsafe { libc::getrlimit(resource as _, out) });
    if r == 0 {
        l.write(rl);
    }
    r
}

/// `setrlimit` from the program's `struct rlimit` (a checked read).
fn set_limit(resource: i32, rl: FlightPtr) -> i32 {
    let l = Raw::<RLIMIT>::read(rl);
    let p = l.as_const::<libc::rlimit>();
    // SAFETY: `p` is a private struct rlimit image.
    sys32(|| unsafe { libc::setrlimit(resource as _, p) })
}

wrapper! {
    /// `int getrlimit(int resource, struct rlimit *rl)`.
    fn getrlimit | getrlimit64(resource: i32, rl: FlightPtr) -> i32 {
        get_limit(resource, rl)
    }
}

wrapper! {
    /// `int setrlimit(int resource, const struct rlimit *rl)`.
    fn setrlimit | setrlimit64(resource: i32, rl: FlightPtr) -> i32 {
        set_limit(resource, rl)
    }
}

wrapper! {
    /// `int getpriority(int which, id_t who)`: -1 is also a valid nice
    /// value.
    fn getpriority(which: i32, who: u32) -> i32 {
        // SAFETY: integers only, no memory preconditions.
        minus_one_valid(|| unsafe { libc::getpriority(which as _, who) })
    }
}

wrapper! {
    /// `int setpriority(int which, id_t who, int prio)`.
    fn setpriority(which: i32, who: u32, prio: i32) -> i32 {
        // SAFETY: integers only, no memory preconditions.
        sys32(|| unsafe { libc::setpriority(which as _, who, prio) })
    }
}

wrapper! {
    /// `int nice(int inc)`.
    fn nice(inc: i32) -> i32 {
        // SAFETY: an integer only, no memory preconditions.
        minus_one_valid(|| unsafe { libc::nice(inc) })
    }
}

/// Runs the call `f`, for which -1 is also a valid answer: libc's errno is
/// cleared before it, and the program's errno is set only if the call set
/// one (callers clear errno and test it).
fn minus_one_valid<R: Copy + Into<i64>>(f: impl FnOnce() -> R) -> R {
    let (r, e) = gimso_gc::exited(|| {
        // SAFETY: __errno_location returns the calling thread's errno.
        unsafe { *libc::__errno_location() = 0 };
        let r = f();
        // SAFETY: as above.
        (r, unsafe { *libc::__errno_location() })
    });
    if r.into() == -1 && e != 0 {
        errno::set(e);
    }
    r
}

/// Native threads of the process (`/proc/self/task`), if known.
fn native_threads() -> Option<usize> {
    Some(std::fs::read_dir("/proc/self/task").ok()?.count())
}

/// Whether the calling thread is the only native thread, waiting a little
/// for finished threads still on their way out (a joined thread may still
/// be running its last runtime code, which takes locks a child must not
/// inherit held).
fn alone() -> bool {
    for _ in 0..1000 {
        match native_threads() {
            None | Some(1) => return true,
            Some(_) => std::thread::sleep(std::time::Duration::from_millis(1)),
        }
    }
    false
}

/// `fork` by the rules of the module documentation.
pub(crate) fn fork_process() -> i32 {
    if crate::pthread::thread::running_threads() > 0 {
        report::warning("fork refused: the program has more than one thread");
        return fail(libc::EAGAIN);
    }
    super::extras::run_at_fork(0);
    let (r, e) = gimso_gc::exited(|| {
        gimso_gc::fork_with(|| {
            if !alone() {
                return (-1, libc::EAGAIN);
            }
            // SAFETY: fork_with calls this with the runtime quiescent and
            // the calling thread the only mutator, and alone() saw no other
            // native thread; __errno_location returns the calling thread's
            // errno.
            unsafe { (libc::fork(), *libc::__errno_location()) }
        })
    })
    .unwrap_or_else(|| {
        report::warning("fork refused: the program has more than one thread");
        (-1, libc::EAGAIN)
    });
    if r == -1 {
        errno::set(e);
    }
    super::extras::run_at_fork(if r == 0 { 2 } else { 1 });
    r
}

wrapper! {
    /// `pid_t fork(void)`: see the module documentation.
    fn fork | vfork() -> i32 {
        fork_process()
    }
}

/// A NULL-terminated array of C strings at `p` (each element and string
/// checked), copied; NULL is an empty array.
pub(crate) fn string_array(p: FlightPtr) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    if p.intval() == 0 {
        return out;
    }
    loop {
        let at = p.with_intval(p.intval().wrapping_add(8 * out.len()));
        let s = mem::load_ptr(at);
        if s.intval() == 0 {
            return out;
        }
        out.push(mem::c_string_nul(s));
    }
}

/// Native `char *[]` over `strings`, NULL-terminated.
pub(super) fn native_array(strings: &[Vec<u8>]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr().cast())
        .chain(core::iter::once(core::ptr::null()))
        .collect()
}

/// The variadic list of `execl` & co: C strings up to a NULL pointer.
fn string_list(first: FlightPtr, va: &mut VarArgs) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut s = first;
    while s.intval() != 0 {
        out.push(mem::c_string_nul(s));
        s = va.args().next_ptr();
    }
    out
}

/// How an `exec` finds its program and environment.
enum Exec {
    /// `path` as given, the current environment.
    Path,
    /// `PATH` search for a name without a slash.
    Search,
    /// `path` as given, this environment.
    Env(Vec<Vec<u8>>),
}

/// Replaces the process image; returns only on failure (-1, errno).
fn exec(file: FlightPtr, argv: Vec<Vec<u8>>, how: Exec) -> i32 {
    let file = path(file);
    let args = native_array(&argv);
    // Without an explicit environment, libc's is the program's `environ`.
    crate::environ::reading(|| {
        sys32(|| {
            // SAFETY: every string is a NUL-terminated copy and each array is
            // NULL-terminated; all live across the call.
            unsafe {
                match &how {
                    Exec::Path => libc::execv(file.as_ptr().cast(), args.as_ptr()),
                    Exec::Search => libc::execvp(file.as_ptr().cast(), args.as_ptr()),
                    Exec::Env(env) => {
                        let envp = native_array(env);
                        libc::execve(file.as_ptr().cast(), args.as_ptr(), envp.as_ptr())
                    }
                }
            }
        })
    })
}

wrapper! {
    /// `int execv(const char *path, char *const argv[])`.
    fn execv(p: FlightPtr, argv: FlightPtr) -> i32 {
        exec(p, string_array(argv), Exec::Path)
    }
}

wrapper! {
    /// `int execvp(const char *file, char *const argv[])`.
    fn execvp(p: FlightPtr, argv: FlightPtr) -> i32 {
        exec(p, string_array(argv), Exec::Search)
    }
}

wrapper! {
    /// `int execve(const char *path, char *const argv[], char *const envp[])`.
    fn execve(p: FlightPtr, argv: FlightPtr, envp: FlightPtr) -> i32 {
        let argv = string_array(argv);
        exec(p, argv, Exec::Env(string_array(envp)))
    }
}

wrapper! {
    /// `int execl(const char *path, const char *arg, ... /*, NULL */)`.
    fn execl(p: FlightPtr, arg: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        exec(p, string_list(arg, &mut va), Exec::Path)
    }
}

wrapper! {
    /// `int execlp(const char *file, const char *arg, ... /*, NULL */)`.
    fn execlp(p: FlightPtr, arg: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        exec(p, string_list(arg, &mut va), Exec::Search)
    }
}

wrapper! {
    /// `int execle(const char *path, const char *arg, ... /*, NULL, char *const envp[] */)`.
    fn execle(p: FlightPtr, arg: FlightPtr, va: VarArgs) -> i32 {
        let mut va = va;
        let argv = string_list(arg, &mut va);
        let envp = va.args().next_ptr();
        exec(p, argv, Exec::Env(string_array(envp)))
    }
}

/// `waitpid` with the status written to `status` (checked before the
/// wait) unless it is NULL.
fn wait_for(pid: i32, status: FlightPtr, options: i32) -> i32 {
    if status.intval() != 0 {
        mem::check_write(status, 4);
    }
    let mut st: i32 = 0;
    let out = &raw mut st;
    // SAFETY: `out` is a local int.
    let r = sys32(|| unsafe { libc::waitpid(pid, out, options) });
    if r > 0 && status.intval() != 0 {
        mem::write_int(status, &st.to_ne_bytes());
    }
    r
}

wrapper! {
    /// `pid_t waitpid(pid_t pid, int *status, int options)`.
    fn waitpid(pid: i32, status: FlightPtr, options: i32) -> i32 {
        wait_for(pid, status, options)
    }
}

wrapper! {
    /// `pid_t wait(int *status)`.
    fn wait(status: FlightPtr) -> i32 {
        wait_for(-1, status, 0)
    }
}

wrapper! {
    /// `int system(const char *command)`: `/bin/sh -c command`, waited
    /// for exited.
    fn system(cmd: FlightPtr) -> i32 {
        if cmd.intval() == 0 {
            // SAFETY: system(NULL) asks whether a shell exists.
            return sys32(|| unsafe { libc::system(core::ptr::null()) });
        }
        let cmd = mem::c_string_nul(cmd);
        // The shell gets the program's `environ`; the lock is not held
        // while the command runs (a signal handler may call getenv).
        crate::environ::sync_to_libc();
        // SAFETY: `cmd` is a NUL-terminated copy.
        sys(|| i64::from(unsafe { libc::system(cmd.as_ptr().cast()) })) as i32
    }
}

/// What `dlerror` reports after a refused call.
const DL_MESSAGE: &[u8] =
    b"gimso: dlopen is not supported: code loaded at run time would bypass the checks";

thread_local! {
    /// A refused `dl*` call not yet reported by `dlerror`.
    static DL_PENDING: Cell<bool> = const { Cell::new(false) };
}

fn dl_refused() {
    DL_PENDING.with(|p| p.set(true));
}

wrapper! {
    /// `void *dlopen(const char *file, int flags)`: refused (NULL).
    fn dlopen(_file: FlightPtr, _flags: i32) -> FlightPtr {
        dl_refused();
        FlightPtr::NULL
    }
}

wrapper! {
    /// `void *dlsym(void *handle, const char *name)`: refused (NULL).
    fn dlsym(_handle: FlightPtr, _name: FlightPtr) -> FlightPtr {
        dl_refused();
        FlightPtr::NULL
    }
}

wrapper! {
    /// `int dlclose(void *handle)`: no handle is valid (non-zero).
    fn dlclose(_handle: FlightPtr) -> i32 {
        dl_refused();
        -1
    }
}

wrapper! {
    /// `char *dlerror(void)`: after a refused call, a fresh read-only
    /// string explaining why (once); otherwise NULL.
    fn dlerror() -> FlightPtr {
        if DL_PENDING.with(|p| p.replace(false)) {
            mem::alloc_c_string(DL_MESSAGE, true)
        } else {
            FlightPtr::NULL
        }
    }
}

wrapper! {
    /// `pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)`.
    fn wait4(pid: i32, status: FlightPtr, options: i32, usage: FlightPtr) -> i32 {
        if status.intval() != 0 {
            mem::check_write(status, 4);
        }
        if usage.intval() != 0 {
            mem::check_write(usage, RUSAGE);
        }
        let mut st: i32 = 0;
        let mut u = Raw::<RUSAGE>::zeroed();
        let (out, ru) = (&raw mut st, u.as_mut::<libc::rusage>());
        // SAFETY: a local int and a private struct rusage image.
        let r = sys32(|| unsafe { libc::wait4(pid, out, options, ru) });
        if r > 0 {
            if status.intval() != 0 {
                mem::write_int(status, &st.to_ne_bytes());
            }
            if usage.intval() != 0 {
                u.write(usage);
            }
        }
        r
    }
}

wrapper! {
    /// `pid_t wait3(int *status, int options, struct rusage *ru)`.
    fn wait3(status: FlightPtr, options: i32, usage: FlightPtr) -> i32 {
        wait4::call(-1, status, options, usage)
    }
}

/// Bytes of `struct tms` and `struct sysinfo`.
const TMS: usize = size_of::<libc::tms>();
const SYSINFO: usize = size_of::<libc::sysinfo>();

wrapper! {
    /// `clock_t times(struct tms *buf)`.
    fn times(buf: FlightPtr) -> i64 {
        mem::check_write(buf, TMS);
        let mut t = Raw::<TMS>::zeroed();
        let out = t.as_mut::<libc::tms>();
        // SAFETY: `out` is a private struct tms image.
        let r = sys(|| unsafe { libc::times(out) });
        if r != -1 {
            t.write(buf);
        }
        r
    }
}

wrapper! {
    /// `int sysinfo(struct sysinfo *info)`.
    fn sysinfo(info: FlightPtr) -> i32 {
        mem::check_write(info, SYSINFO);
        let mut s = Raw::<SYSINFO>::zeroed();
        let out = s.as_mut::<libc::sysinfo>();
        // SAFETY: `out` is a private struct sysinfo image.
        let r = sys32(|| unsafe { libc::sysinfo(out) });
        if r == 0 {
            s.write(info);
        }
        r
    }
}

/// glibc functions the `libc` crate does not declare.
mod native {
    unsafe extern "C" {
        pub fn get_nprocs() -> i32;
        pub fn get_nprocs_conf() -> i32;
    }
}

wrapper! {
    /// `int get_nprocs(void)`.
    fn get_nprocs() -> i32 {
        // SAFETY: no arguments.
        unsafe { native::get_nprocs() }
    }
}

wrapper! {
    /// `int get_nprocs_conf(void)`.
    fn get_nprocs_conf() -> i32 {
        // SAFETY: no arguments.
        unsafe { native::get_nprocs_conf() }
    }
}

wrapper! {
    /// `ssize_t getrandom(void *buf, size_t n, unsigned flags)`: the
    /// buffer checked for all `n` bytes first; the capabilities of the bytes
    /// written are nulled.
    fn getrandom(buf: FlightPtr, n: usize, flags: u32) -> i64 {
        mem::check_write(buf, n);
        let mut bytes = vec![0u8; n];
        let p = bytes.as_mut_ptr();
        // SAFETY: `p` is a private buffer of n bytes.
        let r = sys(|| unsafe { libc::getrandom(p.cast(), n, flags) as i64 });
        if r > 0 {
            mem::write_bytes(buf, &bytes[..r as usize]);
        }
        r
    }
}

id_call! {
    /// `pid_t setsid(void)`.
    fn setsid() -> i32;
    /// `pid_t getpgrp(void)`.
    fn getpgrp() -> i32;
}

wrapper! {
    /// `pid_t getpgid(pid_t pid)`.
    fn getpgid(pid: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::getpgid(pid) })
    }
}

wrapper! {
    /// `pid_t getsid(pid_t pid)`.
    fn getsid(pid: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::getsid(pid) })
    }
}

wrapper! {
    /// `int setpgid(pid_t pid, pid_t pgid)`.
    fn setpgid(pid: i32, pgid: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::setpgid(pid, pgid) })
    }
}

wrapper! {
    /// `int killpg(pid_t pgrp, int sig)`.
    fn killpg(pgrp: i32, sig: i32) -> i32 {
        // SAFETY: no memory preconditions.
        let r = sys32(|| unsafe { libc::killpg(pgrp, sig) });
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { crate::signal::deliver_pending_leavable() };
        r
    }
}
