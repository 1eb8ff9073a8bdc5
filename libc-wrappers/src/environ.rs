//! `extern char **environ` and its agreement with libc's environment.
//!
//! The program's `environ` is an array of GC strings built from libc's
//! environment; libc keeps its own (what `getenv`, `exec*` and child
//! processes read). The two are kept in step as natively:
//!
//! - `environ` is set before the program's constructors run (and `main`'s
//!   `envp` is the same array);
//! - after `setenv`, `unsetenv`, `putenv` or `clearenv`, `environ` is a new
//!   array of the new environment (glibc, too, moves `environ` when it
//!   grows the array);
//! - a program that assigns `environ` its own array (`environ = env;
//!   execvp(...)`) has that array become libc's environment the next time
//!   libc reads or changes it through a wrapper (`getenv`, `exec*` without
//!   an explicit environment, `system`, `popen`, the `setenv` family).
//!
//! Changing the strings of the current array in place (`environ[0] =
//! "X=1"`) is not seen by libc.

use core::ffi::c_char;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

use gimso_abi::FlightPtr;

use crate::mem;
use crate::object::PointerGlobal;
use crate::start::build_string_array;

/// `extern char **environ`.
#[unsafe(export_name = "gimso.obj.environ")]
pub static ENVIRON: PointerGlobal = PointerGlobal::new(&raw const ENVIRON, core::ptr::null());

/// The address of the array last stored in [`ENVIRON`] by the runtime (0
/// for NULL): any other value there is an array the program assigned.
static BUILT: AtomicUsize = AtomicUsize::new(0);
/// Whether [`ENVIRON`] was set at start-up, and whether it was rebuilt
/// since.
static STARTED: AtomicBool = AtomicBool::new(false);
static CHANGED: AtomicBool = AtomicBool::new(false);

/// Serialises the runtime's changes of both environments.
static LOCK: Mutex<()> = Mutex::new(());

/// Takes [`LOCK`], waiting exited: the holder may allocate (a safepoint),
/// and a thread blocked here must not hold up the collector meanwhile.
fn lock() -> MutexGuard<'static, ()> {
    gimso_gc::exited(|| LOCK.lock().unwrap_or_else(|e| e.into_inner()))
}

unsafe extern "C" {
    /// libc's environment.
    static mut environ: *const *const c_char;
}

/// Entries of libc's environment.
fn libc_entries() -> (*const *const c_char, usize) {
    // SAFETY: libc's environ is null or a NULL-terminated array of C
    // strings; the runtime's LOCK keeps wrappers from changing it meanwhile.
    unsafe {
        let env = environ;
        let mut n = 0;
        if !env.is_null() {
            while !(*env.add(n)).is_null() {
                n += 1;
            }
        }
        (env, n)
    }
}

/// Stores a fresh array of libc's environment in [`ENVIRON`] (NULL when
/// libc's is, as after `clearenv`).
fn rebuild() -> FlightPtr {
    let (env, n) = libc_entries();
    let array = if env.is_null() {
        FlightPtr::NULL
    } else {
        // SAFETY: `env` holds `n` C strings (libc_entries).
        unsafe { build_string_array(env, n) }
    };
    mem::store_ptr(ENVIRON.pointer(), array);
    BUILT.store(array.intval(), Ordering::Relaxed);
    array
}

/// The program's `environ` at start-up (built on first use; `main`'s
/// `envp`).
pub fn at_start() -> FlightPtr {
    let _guard = lock();
    if !STARTED.swap(true, Ordering::Relaxed) {
        gimso_gc::register_global_object(ENVIRON.lower());
        return rebuild();
    }
    mem::load_ptr(ENVIRON.pointer())
}

/// Whether `envp` is libc's current environment array.
pub fn is_libc_environment(envp: *const *const c_char) -> bool {
    // SAFETY: reads the pointer libc's environ holds.
    core::ptr::eq(envp, unsafe { environ })
}

/// Whether the runtime gave the program a new `environ` since start-up (a
/// constructor changed the environment) or the program assigned one.
pub fn changed_since_start() -> bool {
    CHANGED.load(Ordering::Relaxed)
        || mem::load_ptr(ENVIRON.pointer()).intval() != BUILT.load(Ordering::Relaxed)
}

extern "C" fn build_at_start() {
    // Building allocates, so the thread attaches; a thread that was not
    // attached before (this runs ahead of any compiled constructor) leaves
    // again, so a host that never runs compiled code on it (a Rust test
    // harness) is not a thread the collector waits for.
    let was_attached = gimso_gc::current_if_attached().is_some();
    gimso_gc::attach();
    at_start();
    if !was_attached {
        gimso_gc::detach();
    }
}

/// Builds `environ` before the program's constructors (those run from
/// `.init_array` and higher-numbered `.init_array.N`).
#[used]
#[unsafe(link_section = ".init_array.00100")]
static BUILD_AT_START: extern "C" fn() = build_at_start;

/// Makes an array the program assigned to `environ` libc's environment.
fn adopt_assigned() {
    let current = mem::load_ptr(ENVIRON.pointer());
    if current.intval() == BUILT.load(Ordering::Relaxed) {
        return;
    }
    let entries = crate::posix::process::string_array(current);
    // SAFETY: clearenv and putenv change libc's environment under LOCK;
    // each string given to putenv is leaked, so it outlives its use there
    // (as natively, the environment keeps the program's strings).
    unsafe {
        libc::clearenv();
        for mut entry in entries {
            if entry.contains(&b'=') {
                entry.push(0);
                libc::putenv(Box::leak(entry.into_boxed_slice()).as_mut_ptr().cast());
            }
        }
    }
    BUILT.store(current.intval(), Ordering::Relaxed);
}

/// Makes the program's own `environ`, if it assigned one, libc's
/// environment, before a child process inherits it (`system`, `popen`).
pub fn sync_to_libc() {
    let _guard = lock();
    adopt_assigned();
}

/// Runs `f` (which reads libc's environment) after the program's own
/// `environ`, if it assigned one, became libc's.
pub fn reading<R>(f: impl FnOnce() -> R) -> R {
    let _guard = lock();
    adopt_assigned();
    f()
}

/// Runs `f` (which changes libc's environment) as [`reading`] does, and
/// then gives the program a new `environ` if `f` returned 0 (success).
pub fn changing(f: impl FnOnce() -> i32) -> i32 {
    let _guard = lock();
    adopt_assigned();
    let r = f();
    if r == 0 {
        rebuild();
        CHANGED.store(true, Ordering::Relaxed);
    }
    r
}
