//! Threads: `pthread_create`, `pthread_join`, `pthread_detach`,
//! `pthread_self`, `pthread_equal`, `pthread_exit`.
//!
//! A program thread is a native thread that attaches to the collector,
//! calls the compiled start routine through the call check, publishes what
//! it returned and detaches. A `pthread_t` is a number naming a record in
//! a runtime table, never an address: the program can forge any integer,
//! and one that names no thread is `ESRCH`. The main thread (and any
//! thread that asks) gets its record on first use.
//!
//! `pthread_exit` cannot unwind: the frames between the start routine and
//! the call are compiled C (which has no unwind information usable by the
//! runtime without `-fexceptions`) and runtime frames that must not be
//! unwound by a foreign unwinder. So it finishes the thread exactly as a
//! return from the start routine would (thread-specific data destructors,
//! the value published to `pthread_join`, the collector detached) and then
//! ends the native thread with the `exit` system call. The abandoned frames
//! are never resumed and the thread's stack mapping is never reused (it is
//! leaked, so nothing can observe those frames' memory being recycled);
//! `__attribute__((cleanup))` handlers in them do not run. In the main
//! thread it waits for every other thread to end, then exits the process
//! with status 0 (running `atexit` handlers), as POSIX specifies.

use core::cell::{Cell, RefCell};
use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::BTreeMap;
use std::sync::Arc;

use gimso_abi::FlightPtr;
use parking_lot::{Condvar, Mutex};

use super::attr;
use super::slots::Held;
use super::{key, once};
use crate::call::{Callee, CcArg};
use crate::{mem, wrapper};

/// One thread's record, shared by the thread and its joiner.
struct Record {
    id: u64,
    state: Mutex<State>,
    finished: Condvar,
}

#[derive(Default)]
struct State {
    finished: bool,
    detached: bool,
    /// A `pthread_join` is waiting or done.
    joined: bool,
    /// The value for `pthread_join` once finished.
    value: Option<Held>,
}

/// Threads that may still be joined or detached, by id.
static THREADS: Mutex<BTreeMap<u64, Arc<Record>>> = Mutex::new(BTreeMap::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
/// Threads made by `pthread_create` that have not finished.
static RUNNING: Mutex<usize> = Mutex::new(0);
static RUNNING_CHANGED: Condvar = Condvar::new();

/// How far the calling thread is in ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Running,
    /// Running thread-specific data destructors.
    Destructors,
    /// Finished: its value is published.
    Finished,
}

thread_local! {
    static ME: RefCell<Option<Arc<Record>>> = const { RefCell::new(None) };
    /// Whether `pthread_create` made this thread.
    static CREATED: Cell<bool> = const { Cell::new(false) };
    static PHASE: Cell<Phase> = const { Cell::new(Phase::Running) };
}

fn new_record(detached: bool) -> Arc<Record> {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let rec = Arc::new(Record {
        id,
        state: Mutex::new(State {
            detached,
            ..State::default()
        }),
        finished: Condvar::new(),
    });
    THREADS.lock().insert(id, rec.clone());
    rec
}

/// The calling thread's record, made on first use for threads that
/// `pthread_create` did not make (the main thread).
fn me() -> Arc<Record> {
    ME.with(|m| {
        m.borrow_mut()
            .get_or_insert_with(|| new_record(false))
            .clone()
    })
}

/// The calling thread's `pthread_t`.
pub fn self_id() -> u64 {
    me().id
}

/// What a new thread receives: its record and its start routine and
/// argument, held for the collector until the thread has them.
struct Start {
    record: Arc<Record>,
    routine: Held,
    arg: Held,
}

/// Threads created by `pthread_create` that have not finished yet
/// (including ones not yet started), for `fork`.
pub fn running_threads() -> usize {
    *RUNNING.lock()
}

/// Creates a thread running `routine(arg)`; its id goes to `out` (checked
/// before the call). Returns 0 or `EAGAIN`.
fn create(out: FlightPtr, attrs: attr::Attrs, routine: FlightPtr, arg: FlightPtr) -> i32 {
    if attrs.stack_size == 0 {
        return libc::EAGAIN;
    }
    let record = new_record(attrs.detached);
    let id = record.id;
    mem::write_int(out, &id.to_ne_bytes());
    let start = Start {
        record,
        routine: Held::new(routine),
        arg: Held::new(arg),
    };
    *RUNNING.lock() += 1;
    let spawned = std::thread::Builder::new()
        .name(format!("gimso-pthread-{id}"))
        .stack_size(attrs.stack_size)
        .spawn(move || run(start));
    match spawned {
        // Dropping the handle detaches the native thread: joining is ours.
        Ok(_) => 0,
        Err(_) => {
            THREADS.lock().remove(&id);
            *RUNNING.lock() -= 1;
            libc::EAGAIN
        }
    }
}

/// The body of a created thread.
fn run(start: Start) {
    gimso_gc::attach();
    ME.with(|m| *m.borrow_mut() = Some(start.record));
    CREATED.with(|c| c.set(true));
    // From here the two pointers are on this thread's stack, which the
    // collector scans.
    let (routine, arg) = (start.routine.get(), start.arg.get());
    drop(start.routine);
    drop(start.arg);
    let r = Callee::check(routine).call(&[CcArg::Ptr(arg)], 8, "a thread start routine");
    finish(r.ptr());
    gimso_gc::detach();
}

/// Ends the calling thread's life as a POSIX thread: destructors, then the
/// value published to a joiner. Compiled code may run (destructors).
fn finish(value: FlightPtr) {
    if PHASE.with(Cell::get) == Phase::Running {
        PHASE.with(|p| p.set(Phase::Destructors));
        // Held before the destructors run, which may allocate.
        let held = Held::new(value);
        me().state.lock().value = Some(held);
        key::run_destructors();
    }
    publish();
}

/// Marks the calling thread finished (its value was stored by `finish`).
fn publish() {
    PHASE.with(|p| p.set(Phase::Finished));
    key::forget_thread_values();
    // Counted out before a joiner can see the thread finished, so that a
    // `fork` right after `pthread_join` sees a single-threaded program.
    if CREATED.with(Cell::get) {
        *RUNNING.lock() -= 1;
        RUNNING_CHANGED.notify_all();
    }
    let rec = me();
    let mut s = rec.state.lock();
    s.finished = true;
    if s.detached {
        s.value = None;
        THREADS.lock().remove(&rec.id);
    }
    drop(s);
    rec.finished.notify_all();
}

/// `pthread_exit` (see the module documentation).
fn exit_thread(value: FlightPtr) -> ! {
    once::abandon_running();
    match PHASE.with(Cell::get) {
        Phase::Running => finish(value),
        // Called by a destructor: the remaining ones are skipped.
        Phase::Destructors => publish(),
        Phase::Finished => {}
    }
    if CREATED.with(Cell::get) {
        gimso_gc::detach();
        // SAFETY: the thread holds no runtime lock (it is in a wrapper
        // called by compiled code) and has left the collector; the frames
        // above are abandoned without being unwound and their stack is never
        // unmapped or reused (module documentation). The kernel ends only
        // this thread.
        unsafe { libc::syscall(libc::SYS_exit, 0) };
        crate::report::fatal("pthread_exit: the exit system call returned")
    }
    // The main thread: the process ends when the last thread does.
    gimso_gc::exited(|| {
        let mut n = RUNNING.lock();
        while *n > 0 {
            RUNNING_CHANGED.wait(&mut n);
        }
    });
    crate::start::exit_program(0)
}

/// `pthread_join`: waits, then stores the value at `out` unless NULL.
fn join(id: u64, out: FlightPtr) -> i32 {
    let Some(rec) = THREADS.lock().get(&id).cloned() else {
        return libc::ESRCH;
    };
    if rec.id == self_id() {
        return libc::EDEADLK;
    }
    {
        let mut s = rec.state.lock();
        if s.detached || s.joined {
            return libc::EINVAL;
        }
        s.joined = true;
    }
    gimso_gc::exited(|| {
        let mut s = rec.state.lock();
        while !s.finished {
            rec.finished.wait(&mut s);
        }
    });
    let held = rec.state.lock().value.take();
    THREADS.lock().remove(&id);
    let value = held.as_ref().map_or(FlightPtr::NULL, Held::get);
    drop(held);
    if out.intval() != 0 {
        mem::store_ptr(out, value);
    }
    0
}

fn detach(id: u64) -> i32 {
    let Some(rec) = THREADS.lock().get(&id).cloned() else {
        return libc::ESRCH;
    };
    let mut s = rec.state.lock();
    if s.detached || s.joined {
        return libc::EINVAL;
    }
    s.detached = true;
    if s.finished {
        s.value = None;
        THREADS.lock().remove(&id);
    }
    0
}

wrapper! {
    /// `int pthread_create(pthread_t *out, const pthread_attr_t *attr,
    /// void *(*start)(void *), void *arg)`.
    fn pthread_create(out: FlightPtr, attr_p: FlightPtr, start: FlightPtr, arg: FlightPtr) -> i32 {
        mem::check_write(out, 8);
        let attrs = attr::Attrs::read(attr_p);
        // A bad start routine is reported here, at the caller.
        Callee::check(start);
        create(out, attrs, start, arg)
    }
}

wrapper! {
    /// `int pthread_join(pthread_t t, void **value)`.
    fn pthread_join(t: u64, value: FlightPtr) -> i32 {
        join(t, value)
    }
}

wrapper! {
    /// `int pthread_detach(pthread_t t)`.
    fn pthread_detach(t: u64) -> i32 {
        detach(t)
    }
}

wrapper! {
    /// `pthread_t pthread_self(void)`.
    fn pthread_self() -> u64 {
        self_id()
    }
}

wrapper! {
    /// `int pthread_equal(pthread_t a, pthread_t b)`.
    fn pthread_equal(a: u64, b: u64) -> i32 {
        i32::from(a == b)
    }
}

wrapper! {
    /// `void pthread_exit(void *value)`.
    fn pthread_exit(value: FlightPtr) -> () {
        exit_thread(value)
    }
}
