//! Signals with handlers compiled by gimso-cc (docs/architecture.md, "Threads and safepoints").
//!
//! A handler never runs on the native signal stack: the runtime's own
//! native handler only marks the signal pending and asks the thread for a
//! safepoint (`THREAD_REQUEST_SIGNAL`); the compiled handler then runs from
//! the next pollcheck of compiled code ([`deliver_pending`], called by
//! `gimso_pollcheck_slow`), or before a wrapper that may have been
//! interrupted returns (`raise`, `pause`, `sleep`, ...), where no runtime
//! lock is held. So a handler may do anything compiled code may do.
//!
//! Handlers for the signals that report memory and arithmetic faults
//! (`SIGSEGV`, `SIGBUS`, `SIGFPE`, `SIGILL`, `SIGTRAP`, `SIGSYS`) are
//! accepted quietly and recorded (`sigaction` gives them back) but never
//! installed: under gimso a bad access is a safety report, never a signal
//! to handle, and the runtime's own `SIGSEGV` handler (null capabilities
//! found by a fault) stays in place. Programs install such handlers to
//! print a last message before dying (bzip2); they simply never run.

use core::ffi::c_int;
use core::sync::atomic::{AtomicPtr, AtomicU64, Ordering};

use gimso_abi::{FlightPtr, THREAD_REQUEST_SIGNAL};
use parking_lot::Mutex;

use gimso_unwind::frames::BarrierKind;

use crate::call::{Callee, CcArg};
use crate::{errno, mem, wrapper};

/// Highest signal number handled (glibc's `_NSIG - 1`).
const MAX_SIGNAL: usize = 64;
/// Bytes of a `sigset_t`.
const SIGSET_BYTES: usize = 128;
/// `struct sigaction` on x86-64 glibc: handler, mask, flags, restorer.
const SA_MASK_OFFSET: usize = 8;
const SA_FLAGS_OFFSET: usize = 136;

/// What the program installed for one signal.
#[derive(Clone, Copy)]
struct Installed {
    /// `SIG_DFL` (0), `SIG_IGN` (1) or a compiled function.
    handler: FlightPtr,
    flags: c_int,
    mask: libc::sigset_t,
}

static HANDLERS: Mutex<[Option<Installed>; MAX_SIGNAL + 1]> = Mutex::new([None; MAX_SIGNAL + 1]);
/// Signals caught natively and not yet delivered (bit `n` for signal `n`).
static PENDING: AtomicU64 = AtomicU64::new(0);
/// The state word of the thread that last installed a handler: a signal
/// arriving on a thread the collector does not know (the collector's own)
/// is delivered there.
static FALLBACK_STATE: AtomicPtr<AtomicU64> = AtomicPtr::new(core::ptr::null_mut());

/// The runtime's native handler: async-signal-safe (atomics only).
extern "C" fn on_signal(sig: c_int) {
    if sig <= 0 || sig as usize > MAX_SIGNAL {
        return;
    }
    PENDING.fetch_or(1 << sig, Ordering::SeqCst);
    let state = match gimso_gc::thread::current_if_attached() {
        Some(t) => t.state() as *const AtomicU64,
        None => FALLBACK_STATE.load(Ordering::Acquire),
    };
    if !state.is_null() {
        // SAFETY: thread state words live as long as their threads, and
        // the fallback is a thread that installed a handler (attached
        // threads are never freed while the program runs).
        unsafe { (*state).fetch_or(THREAD_REQUEST_SIGNAL, Ordering::SeqCst) };
    }
}

/// Runs the compiled handlers of every pending signal. Called at
/// safepoints of compiled code and by wrappers that return to it.
///
/// A `longjmp` out of a handler run here is refused (the caller may hold
/// something it must release); [`deliver_pending_leavable`] allows it.
pub fn deliver_pending() {
    deliver_all(BarrierKind::Closed);
}

/// [`deliver_pending`] where a handler may leave with `longjmp` or
/// `siglongjmp`, as POSIX allows: the signals still pending then stay
/// pending for the next safepoint.
///
/// # Safety
/// No frame between the caller and the compiled code it returns to holds
/// anything that must be dropped or released (a lock guard, a buffer): a
/// jump leaves them without returning.
pub unsafe fn deliver_pending_leavable() {
    deliver_all(BarrierKind::LeavableByJump);
}

/// Asks the calling thread for a safepoint if a signal is still pending:
/// a handler that left with a jump skipped the rest of its delivery.
pub fn rearm() {
    if PENDING.load(Ordering::SeqCst) != 0 {
        if let Some(t) = gimso_gc::thread::current_if_attached() {
            t.state().fetch_or(THREAD_REQUEST_SIGNAL, Ordering::SeqCst);
        }
    }
}

/// Delivers the pending signals one at a time, lowest number first, each
/// taken off the pending set just before its handler runs.
fn deliver_all(kind: BarrierKind) {
    if let Some(t) = gimso_gc::thread::current_if_attached() {
        t.state()
            .fetch_and(!THREAD_REQUEST_SIGNAL, Ordering::SeqCst);
    }
    loop {
        let bits = PENDING.load(Ordering::SeqCst);
        if bits == 0 {
            return;
        }
        let lowest = bits & bits.wrapping_neg();
        if PENDING.fetch_and(!lowest, Ordering::SeqCst) & lowest != 0 {
            deliver(lowest.trailing_zeros() as c_int, kind);
        }
    }
}

fn deliver(sig: c_int, kind: BarrierKind) {
    let installed = HANDLERS.lock()[sig as usize];
    let Some(h) = installed else { return };
    if h.handler.lower() == 0 {
        // SIG_DFL/SIG_IGN were installed natively; nothing compiled to run.
        return;
    }
    if h.flags & libc::SA_RESETHAND != 0 {
        HANDLERS.lock()[sig as usize] = None;
        set_native(sig, libc::SIG_DFL, 0, None);
    }
    // The signal (unless SA_NODEFER) and the handler's mask are blocked
    // while it runs, as the kernel would.
    let mut block = h.mask;
    let mut old: libc::sigset_t;
    // SAFETY: local sigset_t values; the calls only read/write them.
    unsafe {
        old = core::mem::zeroed();
        if h.flags & libc::SA_NODEFER == 0 {
            libc::sigaddset(&mut block, sig);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &block, &mut old);
    }
    let callee = Callee::check(h.handler);
    if h.flags & libc::SA_SIGINFO != 0 {
        // A zeroed siginfo with the signal number: what the runtime knows.
        let info = mem::alloc(128, 16, 0);
        mem::write_int(info, &sig.to_ne_bytes());
        call_handler(
            callee,
            kind,
            &[
                CcArg::I32(sig),
                CcArg::Ptr(info),
                CcArg::Ptr(FlightPtr::NULL),
            ],
        );
    } else {
        call_handler(callee, kind, &[CcArg::I32(sig)]);
    }
    // SAFETY: restores the mask saved above.
    unsafe { libc::pthread_sigmask(libc::SIG_SETMASK, &old, core::ptr::null_mut()) };
}

fn call_handler(callee: Callee, kind: BarrierKind, args: &[CcArg]) {
    match kind {
        BarrierKind::Closed => {
            callee.call(args, 0, "a signal handler");
        }
        BarrierKind::LeavableByJump => {
            // SAFETY: `deliver_pending_leavable`'s caller vouches for the
            // frames up to compiled code; `deliver` and `deliver_all` hold
            // plain values only (masks, signal bits, the callee), and the
            // handler table's lock is released before the call.
            unsafe { callee.call_leavable(args, 0, "a signal handler") };
        }
    }
}

/// Installs the native disposition for `sig`.
fn set_native(
    sig: c_int,
    handler: libc::sighandler_t,
    flags: c_int,
    mask: Option<&libc::sigset_t>,
) -> c_int {
    // SAFETY: a zeroed sigaction filled field by field; `on_signal` is
    // async-signal-safe.
    unsafe {
        let mut sa: libc::sigaction = core::mem::zeroed();
        sa.sa_sigaction = handler;
        // Interrupted calls return EINTR so the wrapper can deliver.
        sa.sa_flags = flags & (libc::SA_NOCLDSTOP | libc::SA_NOCLDWAIT);
        if let Some(m) = mask {
            sa.sa_mask = *m;
        }
        libc::sigaction(sig, &sa, core::ptr::null_mut())
    }
}

/// Whether `sig` reports a memory or arithmetic fault: its handlers are
/// recorded, never installed.
pub(crate) fn fault_signal(sig: c_int) -> bool {
    matches!(
        sig,
        libc::SIGSEGV | libc::SIGBUS | libc::SIGFPE | libc::SIGILL | libc::SIGTRAP | libc::SIGSYS
    )
}

/// Installs `handler` for `sig`; returns the previous one, or `Err(errno)`.
fn install(
    sig: c_int,
    handler: FlightPtr,
    flags: c_int,
    mask: libc::sigset_t,
) -> Result<FlightPtr, c_int> {
    if sig <= 0 || sig as usize > MAX_SIGNAL || sig == libc::SIGKILL || sig == libc::SIGSTOP {
        return Err(libc::EINVAL);
    }
    let compiled = handler.lower() != 0;
    if !compiled && handler.intval() > 1 {
        // Neither SIG_DFL, SIG_IGN nor a function.
        return Err(libc::EINVAL);
    }
    if let Some(t) = gimso_gc::thread::current_if_attached() {
        FALLBACK_STATE.store(
            t.state() as *const AtomicU64 as *mut AtomicU64,
            Ordering::Release,
        );
    }
    let mut table = HANDLERS.lock();
    let old = table[sig as usize].map_or(FlightPtr::NULL, |i| i.handler);
    table[sig as usize] = Some(Installed {
        handler,
        flags,
        mask,
    });
    drop(table);
    if fault_signal(sig) {
        // Recorded only: the fault signals stay the runtime's.
        return Ok(old);
    }
    let native = if compiled {
        on_signal as extern "C" fn(c_int) as libc::sighandler_t
    } else {
        handler.intval() as libc::sighandler_t
    };
    if set_native(sig, native, flags, Some(&mask)) != 0 {
        errno::sync_from_libc();
        return Err(errno::get());
    }
    Ok(old)
}

fn empty_set() -> libc::sigset_t {
    // SAFETY: sigemptyset initialises the local set.
    unsafe {
        let mut s: libc::sigset_t = core::mem::zeroed();
        libc::sigemptyset(&mut s);
        s
    }
}

fn read_set(p: FlightPtr) -> libc::sigset_t {
    let bytes = mem::read_int::<SIGSET_BYTES>(p);
    // SAFETY: sigset_t is SIGSET_BYTES of plain bits on x86-64 glibc.
    unsafe { core::mem::transmute::<[u8; SIGSET_BYTES], libc::sigset_t>(bytes) }
}

fn write_set(p: FlightPtr, s: &libc::sigset_t) {
    // SAFETY: as in read_set.
    let bytes = unsafe { core::mem::transmute::<libc::sigset_t, [u8; SIGSET_BYTES]>(*s) };
    mem::write_int(p, &bytes);
}

const _: () = assert!(size_of::<libc::sigset_t>() == SIGSET_BYTES);

wrapper! {
    /// `sighandler_t signal(int sig, sighandler_t handler)`.
    fn signal(sig: i32, handler: FlightPtr) -> FlightPtr {
        match install(sig, handler, libc::SA_RESTART, empty_set()) {
            Ok(old) => old,
            Err(e) => {
                errno::set(e);
                // SIG_ERR
                FlightPtr::from_int(usize::MAX)
            }
        }
    }
}

wrapper! {
    /// `int sigaction(int sig, const struct sigaction *act, struct sigaction *old)`.
    fn sigaction(sig: i32, act: FlightPtr, old: FlightPtr) -> i32 {
        let previous = HANDLERS
            .lock()
            .get(sig.max(0) as usize)
            .copied()
            .flatten();
        if act.intval() != 0 {
            let handler = mem::load_ptr(act);
            let mask = read_set(act.offset(SA_MASK_OFFSET as isize));
            let flags = i32::from_ne_bytes(mem::read_int::<4>(act.offset(SA_FLAGS_OFFSET as isize)));
            if let Err(e) = install(sig, handler, flags, mask) {
                errno::set(e);
                return -1;
            }
        } else if sig <= 0 || sig as usize > MAX_SIGNAL {
            errno::set(libc::EINVAL);
            return -1;
        }
        if old.intval() != 0 {
            let (h, flags, mask) = previous.map_or((FlightPtr::NULL, 0, empty_set()), |p| {
                (p.handler, p.flags, p.mask)
            });
            mem::store_ptr(old, h);
            write_set(old.offset(SA_MASK_OFFSET as isize), &mask);
            mem::write_int(old.offset(SA_FLAGS_OFFSET as isize), &flags.to_ne_bytes());
        }
        0
    }
}

wrapper! {
    /// `int raise(int sig)`: the handler has run when it returns.
    fn raise(sig: i32) -> i32 {
        // SAFETY: raise has no memory preconditions.
        let r = unsafe { libc::raise(sig) };
        if r != 0 {
            errno::sync_from_libc();
        }
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { deliver_pending_leavable() };
        r
    }
}

wrapper! {
    /// `int kill(pid_t pid, int sig)`.
    fn kill(pid: i32, sig: i32) -> i32 {
        // SAFETY: kill has no memory preconditions.
        let r = unsafe { libc::kill(pid, sig) };
        if r != 0 {
            errno::sync_from_libc();
        }
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { deliver_pending_leavable() };
        r
    }
}

wrapper! {
    /// `unsigned alarm(unsigned seconds)`.
    fn alarm(seconds: u32) -> u32 {
        // SAFETY: alarm has no preconditions.
        unsafe { libc::alarm(seconds) }
    }
}

wrapper! {
    /// `int pause(void)`: returns -1 (EINTR) once a handler has run.
    fn pause() -> i32 {
        // SAFETY: pause has no preconditions.
        gimso_gc::exited(|| unsafe { libc::pause() });
        errno::set(libc::EINTR);
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { deliver_pending_leavable() };
        -1
    }
}

/// `sigprocmask`/`pthread_sigmask` on program memory.
fn mask(how: i32, set: FlightPtr, old: FlightPtr) -> i32 {
    let new = (set.intval() != 0).then(|| read_set(set));
    let mut previous = empty_set();
    // SAFETY: local sets; null means "no change" as in the C API.
    let r = unsafe {
        libc::pthread_sigmask(
            how,
            new.as_ref().map_or(core::ptr::null(), |s| s as *const _),
            &mut previous,
        )
    };
    if r != 0 {
        errno::set(r);
        return -1;
    }
    if old.intval() != 0 {
        write_set(old, &previous);
    }
    // Unblocking may have let pending signals in.
    // SAFETY: this wrapper's frame holds plain values only.
    unsafe { deliver_pending_leavable() };
    0
}

wrapper! {
    /// `int sigprocmask(int how, const sigset_t *set, sigset_t *old)`.
    fn sigprocmask(how: i32, set: FlightPtr, old: FlightPtr) -> i32 {
        mask(how, set, old)
    }
}

wrapper! {
    /// `int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)`.
    fn pthread_sigmask(how: i32, set: FlightPtr, old: FlightPtr) -> i32 {
        if mask(how, set, old) == 0 { 0 } else { errno::get() }
    }
}

wrapper! {
    /// `int sigsuspend(const sigset_t *mask)`.
    fn sigsuspend(set: FlightPtr) -> i32 {
        let s = read_set(set);
        // SAFETY: a local set.
        gimso_gc::exited(|| unsafe { libc::sigsuspend(&s) });
        errno::set(libc::EINTR);
        // SAFETY: this wrapper's frame holds plain values only.
        unsafe { deliver_pending_leavable() };
        -1
    }
}

wrapper! {
    /// `int sigwait(const sigset_t *set, int *sig)`: waits (outside the
    /// collector's handshakes) for a signal of `set`, which the caller has
    /// blocked, and takes it without running a handler.
    fn sigwait(set: FlightPtr, sig: FlightPtr) -> i32 {
        let s = read_set(set);
        mem::check_write(sig, 4);
        let mut got: c_int = 0;
        // SAFETY: a local set and a local result.
        let r = gimso_gc::exited(|| unsafe { libc::sigwait(&s, &mut got) });
        if r == 0 {
            mem::write_int(sig, &got.to_ne_bytes());
        }
        r
    }
}

wrapper! {
    /// `int sigpending(sigset_t *set)`.
    fn sigpending(set: FlightPtr) -> i32 {
        let mut s = empty_set();
        // SAFETY: a local set.
        unsafe { libc::sigpending(&mut s) };
        write_set(set, &s);
        0
    }
}

/// Applies `f` to a copy of the program's set `p` and writes it back.
fn edit_set(p: FlightPtr, f: impl FnOnce(&mut libc::sigset_t) -> c_int) -> i32 {
    let mut s = read_set(p);
    let r = f(&mut s);
    if r != 0 {
        errno::set(libc::EINVAL);
        return -1;
    }
    write_set(p, &s);
    0
}

wrapper! {
    /// `int sigemptyset(sigset_t *set)`.
    fn sigemptyset(set: FlightPtr) -> i32 {
        write_set(set, &empty_set());
        0
    }
}

wrapper! {
    /// `int sigfillset(sigset_t *set)`.
    fn sigfillset(set: FlightPtr) -> i32 {
        // SAFETY: a local set.
        edit_set(set, |s| unsafe { libc::sigfillset(s) })
    }
}

wrapper! {
    /// `int sigaddset(sigset_t *set, int sig)`.
    fn sigaddset(set: FlightPtr, sig: i32) -> i32 {
        // SAFETY: a local set.
        edit_set(set, |s| unsafe { libc::sigaddset(s, sig) })
    }
}

wrapper! {
    /// `int sigdelset(sigset_t *set, int sig)`.
    fn sigdelset(set: FlightPtr, sig: i32) -> i32 {
        // SAFETY: a local set.
        edit_set(set, |s| unsafe { libc::sigdelset(s, sig) })
    }
}

wrapper! {
    /// `int sigismember(const sigset_t *set, int sig)`.
    fn sigismember(set: FlightPtr, sig: i32) -> i32 {
        let s = read_set(set);
        // SAFETY: a local set.
        let r = unsafe { libc::sigismember(&s, sig) };
        if r < 0 {
            errno::set(libc::EINVAL);
        }
        r
    }
}
