//! Mutator threads: the registry, the state word, enter/exit, the
//! pollcheck, and attach/detach.
//!
//! A thread *entered* (running compiled code or runtime code that touches
//! the heap) holds its run lock; `exit` (around anything that may block)
//! saves its callee-saved registers and stack pointer and releases it. The
//! collector acts for an exited thread by taking its run lock, so a thread
//! can never re-enter while the collector scans its stack or flushes its
//! allocation cache. Whoever holds the run lock serves the thread's pending
//! requests: the thread itself at its next pollcheck (or before exiting),
//! or the collector on its behalf.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::cell::{Cell, RefCell};
use std::sync::Arc;

use gimso_abi::{
    CC_INLINE_WORDS, THREAD_REQUEST_COLLECT, THREAD_REQUEST_HANDSHAKE, THREAD_REQUEST_MASK,
    THREAD_REQUEST_STOP, THREAD_STATE_ENTERED, THREAD_STATE_EXITED, ThreadAbi,
};
use gimso_heap::{Heap, LocalHeap};
use parking_lot::lock_api::RawMutex as _;
use parking_lot::{Condvar, Mutex, RawMutex};

use crate::stack::{SAVED_REGS, current_stack_top, with_spilled_registers};
use crate::{collector, handshake, safepoint};

/// A mutator thread. Starts with the ABI prefix compiled code reads at the
/// offsets `gimso.h` publishes.
#[repr(C)]
pub struct Thread {
    abi: ThreadAbi,
    run_lock: RawMutex,
    local: UnsafeCell<LocalHeap>,
    /// Objects the store barrier marked, not yet handed to the collector.
    grey: UnsafeCell<Vec<usize>>,
    /// Capabilities runtime code holds across safepoints (`Root` guards).
    handles: UnsafeCell<Vec<usize>>,
    stack_top: usize,
    saved_sp: AtomicUsize,
    saved_regs: [AtomicUsize; SAVED_REGS],
    detached: AtomicBool,
    allocations: AtomicU64,
}

// SAFETY: the UnsafeCell fields are only touched by whoever holds the run
// lock (the thread while entered, or the collector acting for it while it
// is exited), which serialises every access; the raw pointers in the ABI
// prefix are buffers owned by the thread under the same rule.
unsafe impl Send for Thread {}
// SAFETY: as above.
unsafe impl Sync for Thread {}

const _: () = assert!(core::mem::offset_of!(Thread, abi) == 0);

static REGISTRY: Mutex<Vec<Arc<Thread>>> = Mutex::new(Vec::new());
static STOP_LOCK: Mutex<()> = Mutex::new(());
static STOP_CV: Condvar = Condvar::new();

thread_local! {
    static CURRENT: Cell<*const Thread> = const { Cell::new(core::ptr::null()) };
    static ATTACHMENT: RefCell<Option<Attachment>> = const { RefCell::new(None) };
}

/// Detaches the thread when its thread-locals are destroyed.
struct Attachment(Arc<Thread>);

impl Drop for Attachment {
    fn drop(&mut self) {
        detach_thread(&self.0);
    }
}

impl Thread {
    fn new(heap: &'static Heap) -> Thread {
        Thread {
            abi: ThreadAbi {
                state: AtomicU64::new(THREAD_STATE_EXITED),
                cc_outline_payload: core::ptr::null_mut(),
                cc_outline_caps: core::ptr::null_mut(),
                cc_outline_bytes: 0,
                cc_payload: [0; CC_INLINE_WORDS],
                cc_caps: [0; CC_INLINE_WORDS],
                unwind_frames: core::ptr::null_mut(),
            },
            run_lock: RawMutex::INIT,
            local: UnsafeCell::new(LocalHeap::new(heap)),
            grey: UnsafeCell::new(Vec::new()),
            handles: UnsafeCell::new(Vec::new()),
            stack_top: current_stack_top(),
            saved_sp: AtomicUsize::new(0),
            saved_regs: core::array::from_fn(|_| AtomicUsize::new(0)),
            detached: AtomicBool::new(false),
            allocations: AtomicU64::new(0),
        }
    }

    /// The state word (mode and request bits).
    #[inline(always)]
    pub fn state(&self) -> &AtomicU64 {
        &self.abi.state
    }

    /// The ABI prefix, as compiled code sees it.
    pub fn abi_ptr(&self) -> *const ThreadAbi {
        &self.abi
    }

    /// The thread's allocation cache.
    ///
    /// # Safety
    /// The caller must hold the thread's run lock (be the thread itself while
    /// entered, or the collector acting for it) and must not let the
    /// reference outlive that, nor create a second one.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn local_mut(&self) -> &mut LocalHeap {
        // SAFETY: exclusivity is the caller's contract (run lock held).
        unsafe { &mut *self.local.get() }
    }

    /// # Safety
    /// As for [`Thread::local_mut`].
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn grey_mut(&self) -> &mut Vec<usize> {
        // SAFETY: exclusivity is the caller's contract (run lock held).
        unsafe { &mut *self.grey.get() }
    }

    /// # Safety
    /// As for [`Thread::local_mut`].
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn handles_mut(&self) -> &mut Vec<usize> {
        // SAFETY: exclusivity is the caller's contract (run lock held).
        unsafe { &mut *self.handles.get() }
    }

    /// The capability words of the inline CC buffer.
    pub(crate) fn cc_caps(&self) -> &[usize; CC_INLINE_WORDS] {
        &self.abi.cc_caps
    }

    /// The capability words of the outline CC buffer (calls larger than
    /// the inline one), if any.
    pub(crate) fn cc_outline_caps(&self) -> &[usize] {
        let words = self.abi.cc_outline_bytes as usize / gimso_abi::WORD_SIZE;
        if self.abi.cc_outline_caps.is_null() || words == 0 {
            return &[];
        }
        // SAFETY: the outline buffer holds `cc_outline_bytes` of capability
        // words while its pointer is set; the run lock serialises us with
        // the thread that owns it.
        unsafe { core::slice::from_raw_parts(self.abi.cc_outline_caps, words) }
    }

    /// Highest address of this thread's stack.
    pub(crate) fn stack_top(&self) -> usize {
        self.stack_top
    }

    /// Registers and stack pointer saved by the last `exit`.
    pub(crate) fn saved_state(&self) -> ([usize; SAVED_REGS], usize) {
        let regs = core::array::from_fn(|i| self.saved_regs[i].load(Ordering::Relaxed));
        (regs, self.saved_sp.load(Ordering::Relaxed))
    }

    /// Whether the thread has detached (its stack may be gone).
    pub(crate) fn is_detached(&self) -> bool {
        self.detached.load(Ordering::Acquire)
    }

    /// Takes the run lock, waiting for the thread to exit.
    pub(crate) fn lock_run(&self) {
        self.run_lock.lock();
    }

    /// Releases a run lock taken by `try_lock_run`/`lock_run`.
    ///
    /// # Safety
    /// The caller must hold the lock.
    pub(crate) unsafe fn unlock_run(&self) {
        // SAFETY: the caller holds the lock.
        unsafe { self.run_lock.unlock() };
    }

    /// Counts an allocation; true every `n`-th one (torture mode).
    pub(crate) fn count_allocation(&self, n: u64) -> bool {
        let c = self.allocations.fetch_add(1, Ordering::Relaxed) + 1;
        c % n == 0
    }

    /// Asks this thread to wait for a collection at its next safepoint.
    pub fn request_collect(&self) {
        self.abi
            .state
            .fetch_or(THREAD_REQUEST_COLLECT, Ordering::AcqRel);
    }
}

// SAFETY: the run lock is a parking_lot mutex.
unsafe impl safepoint::Mutator for Thread {
    type Word = AtomicU64;
    #[inline(always)]
    fn state(&self) -> &AtomicU64 {
        &self.abi.state
    }
    #[inline(always)]
    fn lock_run(&self) {
        self.run_lock.lock();
    }
    #[inline(always)]
    fn try_lock_run(&self) -> bool {
        self.run_lock.try_lock()
    }
    #[inline(always)]
    unsafe fn unlock_run(&self) {
        // SAFETY: the caller holds the lock.
        unsafe { self.run_lock.unlock() };
    }
    #[inline(always)]
    fn is_detached(&self) -> bool {
        Thread::is_detached(self)
    }
}

/// The calling thread, attaching it on first use.
#[inline]
pub fn current() -> &'static Thread {
    let t = CURRENT.with(Cell::get);
    if !t.is_null() {
        // SAFETY: CURRENT points at the Arc'd thread this thread's
        // ATTACHMENT keeps alive until detach resets CURRENT.
        return unsafe { &*t };
    }
    attach()
}

/// The calling thread if it is attached.
#[inline]
pub fn current_if_attached() -> Option<&'static Thread> {
    let t = CURRENT.try_with(Cell::get).ok()?;
    // SAFETY: as in `current`.
    (!t.is_null()).then(|| unsafe { &*t })
}

/// Attaches the calling thread (entered) and returns it; idempotent.
#[cold]
pub fn attach() -> &'static Thread {
    if let Some(t) = current_if_attached() {
        return t;
    }
    collector::ensure_started();
    let t = Arc::new(Thread::new(Heap::global()));
    t.run_lock.lock();
    t.abi.state.store(THREAD_STATE_ENTERED, Ordering::Release);
    let ptr = Arc::as_ptr(&t);
    // Registering under the registry lock also waits out a stopped world.
    REGISTRY.lock().push(t.clone());
    CURRENT.with(|c| c.set(ptr));
    let stored = ATTACHMENT.try_with(|a| *a.borrow_mut() = Some(Attachment(t.clone())));
    if stored.is_err() {
        // Thread-locals are being destroyed (a destructor called into the
        // runtime after we detached): we cannot detach later, and a dead
        // thread's stack must never be scanned, so detach now and keep the
        // struct alive for the rest of this thread's teardown.
        detach_thread(&t);
        let _ = Arc::into_raw(t);
    }
    // SAFETY: the registry holds a reference until detach.
    unsafe { &*ptr }
}

/// Detaches the calling thread (flushes its cache, leaves the registry).
pub fn detach() {
    let _ = ATTACHMENT.try_with(|a| a.borrow_mut().take());
}

fn detach_thread(t: &Arc<Thread>) {
    if t.is_detached() {
        return;
    }
    serve_requests(t);
    // SAFETY: we are the thread, entered (holding the run lock).
    unsafe {
        t.local_mut().flush();
        // Objects our store barrier greyed must still be traced: once we
        // are detached, no handshake looks at this thread again.
        crate::mark::push_grey(t.grey_mut());
    }
    t.detached.store(true, Ordering::Release);
    // SAFETY: we are the thread, entered.
    unsafe { safepoint::exit(&**t) };
    REGISTRY.lock().retain(|x| !Arc::ptr_eq(x, t));
    let _ = CURRENT.try_with(|c| c.set(core::ptr::null()));
    handshake::notify_done();
}

/// A snapshot of the registered threads.
pub(crate) fn threads() -> Vec<Arc<Thread>> {
    REGISTRY.lock().clone()
}

/// The pollcheck: one load and a branch; the slow path serves requests.
#[inline(always)]
pub fn pollcheck(t: &Thread) {
    if t.abi.state.load(Ordering::Relaxed) & THREAD_REQUEST_MASK != 0 {
        poll_slow(t);
    }
}

/// Serves every pending request of the calling thread (entered).
#[cold]
#[inline(never)]
pub fn poll_slow(t: &Thread) {
    serve_requests(t);
}

fn serve_requests(t: &Thread) {
    loop {
        let s = t.abi.state.load(Ordering::Acquire);
        if s & THREAD_REQUEST_HANDSHAKE != 0 {
            handshake::serve(t, handshake::Context::Own);
        } else if s & THREAD_REQUEST_STOP != 0 {
            exit_raw(t);
            let mut g = STOP_LOCK.lock();
            while t.abi.state.load(Ordering::Acquire) & THREAD_REQUEST_STOP != 0 {
                STOP_CV.wait(&mut g);
            }
            drop(g);
            enter_raw(t);
        } else if s & THREAD_REQUEST_COLLECT != 0 {
            t.abi
                .state
                .fetch_and(!THREAD_REQUEST_COLLECT, Ordering::AcqRel);
            let start = std::time::Instant::now();
            exit_raw(t);
            collector::collect_and_wait();
            enter_raw(t);
            collector::note_stall(start.elapsed());
        } else {
            return;
        }
    }
}

/// Leaves the entered state around something that may block: serves pending
/// requests, saves registers and stack pointer, releases the run lock.
pub fn exit(t: &Thread) {
    serve_requests(t);
    exit_raw(t);
}

/// Returns to the entered state; serves requests that arrived meanwhile.
pub fn enter(t: &Thread) {
    enter_raw(t);
    pollcheck(t);
}

#[inline(never)]
fn exit_raw(t: &Thread) {
    with_spilled_registers(|regs, sp| {
        for (slot, r) in t.saved_regs.iter().zip(regs) {
            slot.store(*r, Ordering::Relaxed);
        }
        t.saved_sp.store(sp, Ordering::Relaxed);
    });
    // SAFETY: exit_raw is called by the thread itself, entered.
    unsafe { safepoint::exit(t) };
    handshake::notify_done();
}

fn enter_raw(t: &Thread) {
    safepoint::enter(t);
}

/// Runs `f` exited: for blocking calls (sleep, I/O, waiting on a lock).
pub fn exited<R>(f: impl FnOnce() -> R) -> R {
    let t = current();
    exit(t);
    let r = f();
    enter(t);
    r
}

/// Stops the world: sets STOP on every thread and returns once each is
/// parked at a safepoint or exited (its run lock held by the guard). No
/// thread attaches or detaches while the guard lives; dropping it resumes
/// everyone. Used by `GIMSO_GC_STW=1`, `GIMSO_GC_VERIFY=1` and `fork`.
///
/// # Panics
/// Never; must not be called from an attached thread that is entered (it
/// would wait for itself): exit first.
pub fn stop_world() -> StoppedWorld {
    let registry = REGISTRY.lock();
    let threads = registry.clone();
    for t in &threads {
        t.abi.state.fetch_or(THREAD_REQUEST_STOP, Ordering::AcqRel);
    }
    for t in &threads {
        t.lock_run();
    }
    StoppedWorld {
        _registry: registry,
        threads,
    }
}

/// Every registered thread stopped (run locks held) and the registry held.
pub struct StoppedWorld {
    _registry: parking_lot::MutexGuard<'static, Vec<Arc<Thread>>>,
    pub(crate) threads: Vec<Arc<Thread>>,
}

impl Drop for StoppedWorld {
    fn drop(&mut self) {
        let g = STOP_LOCK.lock();
        for t in &self.threads {
            t.abi
                .state
                .fetch_and(!THREAD_REQUEST_STOP, Ordering::AcqRel);
            // SAFETY: stop_world took every run lock.
            unsafe { t.unlock_run() };
        }
        STOP_CV.notify_all();
        drop(g);
    }
}
