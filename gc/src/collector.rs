//! The collector thread and its cycle (docs/architecture.md, "The collector"):
//!
//! 1. clear all mark bits; turn on the store barrier and black allocation;
//! 2. handshake: every thread flushes its allocation cache and scans its
//!    roots; mark the registered globals; drain the grey stack in parallel;
//! 3. repeat root handshakes until one marks nothing new (grey-stack
//!    fixpoint, no load barrier);
//! 4. barrier off; optionally verify; sweep concurrently; black allocation
//!    off; next trigger = max(live × (multiplier − 1), threshold), where
//!    live leaves out what was allocated (black) during the cycle.
//!
//! `GIMSO_GC_STW=1` runs steps 1–3 with every thread stopped instead.

use core::sync::atomic::{AtomicBool, Ordering};
use std::collections::HashSet;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use gimso_abi::{FATAL_REPORT_PREFIX, HEADER_SIZE};
use gimso_heap::Heap;
use parking_lot::{Condvar, Mutex};

use crate::config::config;
use crate::handshake::{self, Context, soft_handshake};
use crate::mark::{self, drain, marked_count, push_grey};
use crate::pacing::{self, Pacer};
use crate::roots::{mark_globals, scan_thread};
use crate::thread::{self, Thread, current_if_attached, stop_world};

struct State {
    requested: bool,
    /// The collector thread is asked to end (`fork_with`).
    stop: bool,
    running: bool,
    completed: u64,
}

static STATE: Mutex<State> = Mutex::new(State {
    requested: false,
    stop: false,
    running: false,
    completed: 0,
});
static WAKE: Condvar = Condvar::new();
static DONE: Condvar = Condvar::new();
static STARTED: OnceLock<()> = OnceLock::new();
/// The collector thread (taken to join it before a `fork`).
static COLLECTOR: Mutex<Option<std::thread::JoinHandle<()>>> = Mutex::new(None);
static PACER: Pacer = Pacer::new();
static LAST: Mutex<Option<CycleStats>> = Mutex::new(None);

/// What one cycle did, for tests, benchmarks and `GIMSO_GC_TRACE`.
#[derive(Clone, Copy, Debug, Default)]
pub struct CycleStats {
    /// Cycle number (1-based).
    pub cycle: u64,
    /// Committed heap bytes before the cycle.
    pub heap_before: usize,
    /// Committed heap bytes after sweeping.
    pub heap_after: usize,
    /// Live bytes found by the sweep.
    pub live_bytes: usize,
    /// Bytes freed by the sweep.
    pub freed_bytes: usize,
    /// Time from the start of the cycle to the end of marking.
    pub mark: Duration,
    /// Time sweeping.
    pub sweep: Duration,
    /// Longest time any thread spent in a handshake callback.
    pub max_pause: Duration,
    /// Handshake rounds until the grey-stack fixpoint.
    pub rounds: u32,
    /// Registered threads at the end of the cycle.
    pub threads: usize,
}

/// Set when `GIMSO_GC_TORTURE` or `GIMSO_HEAP_MAX` asks every allocation
/// for extra work, so the common case tests one flag.
static ALLOC_CHECKS: AtomicBool = AtomicBool::new(false);

/// Whether allocations must run the torture and heap-limit checks.
#[inline(always)]
pub fn alloc_checks_enabled() -> bool {
    ALLOC_CHECKS.load(Ordering::Relaxed)
}

/// Starts the collector thread (once) and installs the heap and barrier
/// hooks.
pub fn ensure_started() {
    STARTED.get_or_init(|| {
        let cfg = config();
        ALLOC_CHECKS.store(cfg.torture != 0 || cfg.heap_max != 0, Ordering::Relaxed);
        let heap = Heap::global();
        mark::free_singleton();
        gimso_shadow::barrier::set_grey_hook(Some(barrier_grey));
        heap.set_trigger(config().threshold);
        heap.set_pressure_hook(Some(on_pressure));
        spawn_collector();
    });
}

fn spawn_collector() {
    let handle = std::thread::Builder::new()
        .name("gimso-gc".into())
        .spawn(collector_main)
        .unwrap_or_else(|e| fatal(&format!("cannot start the collector thread: {e}")));
    *COLLECTOR.lock() = Some(handle);
}

fn fatal(msg: &str) -> ! {
    eprintln!("{FATAL_REPORT_PREFIX} {msg}");
    // SAFETY: _exit never returns and is always safe to call.
    unsafe { libc::_exit(134) }
}

/// The store barrier's grey sink: the marking thread's own grey list (it
/// is handed over at the next handshake), or the shared stack for threads
/// the collector does not know.
fn barrier_grey(lower: usize) {
    // Counted now: a round that ends with this object still in a thread's
    // list must not be taken for the fixpoint.
    mark::note_marked();
    match current_if_attached() {
        // SAFETY: the barrier runs on the thread itself, entered.
        Some(t) => unsafe { t.grey_mut().push(lower) },
        None => push_grey(&mut vec![lower]),
    }
}

/// Allocation crossed the trigger: wake the collector; if the program
/// outruns it by far, make the allocating thread wait at its next
/// safepoint (pacing), which also bounds the heap.
fn on_pressure(heap: &'static Heap) {
    if PACER.pressure() {
        request();
    }
    let budget = PACER.budget();
    let over_pace = pacing::over_pace(heap.allocated(), config().threshold, budget);
    let limit = config().heap_max;
    let over_max = limit != 0 && heap.stats().committed_bytes > limit;
    if over_pace || over_max {
        if let Some(t) = current_if_attached() {
            t.request_collect();
        }
    }
}

/// Asks for a cycle without waiting.
pub fn request() {
    ensure_started();
    let mut s = STATE.lock();
    s.requested = true;
    WAKE.notify_one();
}

/// Runs `f`, a `fork`, for the runtime: returns `None` without calling it
/// when more than one mutator thread is registered (the child would hold
/// only the caller, and whatever the others hold forever). Otherwise lets
/// a running cycle finish, ends the collector thread (joined: it holds no
/// lock and waits in no queue, so neither process inherits a waiter that
/// does not exist), calls `f`, and starts a new collector thread in the
/// parent and in the child alike. A collection requested meanwhile runs on
/// the new thread.
///
/// Call exited: a cycle in progress must be able to finish.
pub fn fork_with<E>(f: impl FnOnce() -> (i32, E)) -> Option<(i32, E)> {
    ensure_started();
    // A thread that has finished may still be detaching: give it a moment.
    for _ in 0..1000 {
        if thread::threads().len() <= 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    {
        let mut s = STATE.lock();
        while s.running {
            DONE.wait(&mut s);
        }
        if thread::threads().len() > 1 {
            return None;
        }
        s.stop = true;
        WAKE.notify_all();
    }
    if let Some(h) = COLLECTOR.lock().take() {
        let _ = h.join();
    }
    crate::mark::stop_helpers();
    let r = f();
    STATE.lock().stop = false;
    spawn_collector();
    Some(r)
}

/// Runs a full collection that starts after this call and waits for it.
/// Call exited (or from a thread the collector does not know).
pub fn collect_and_wait() {
    ensure_started();
    let mut s = STATE.lock();
    // A cycle already running may have scanned our roots before we asked.
    let target = wait_target(s.completed, s.running);
    s.requested = true;
    WAKE.notify_one();
    while s.completed < target {
        DONE.wait(&mut s);
    }
}

/// The count of completed cycles at which a collection asked for now has
/// run: a cycle already running may have scanned the caller's roots before
/// it asked.
fn wait_target(completed: u64, running: bool) -> u64 {
    completed + if running { 2 } else { 1 }
}

/// Collects now and waits. Attaches the calling thread (its stack holds
/// the caller's pointers, which must count as roots) and exits around the
/// wait so the collector scans it on its behalf.
pub fn collect() {
    let t = thread::current();
    thread::exit(t);
    collect_and_wait();
    thread::enter(t);
}

static STALLS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);
static STALL_NS: core::sync::atomic::AtomicU64 = core::sync::atomic::AtomicU64::new(0);

/// Records a thread waiting for a collection it was asked to wait for
/// (pacing, heap limit, torture).
pub(crate) fn note_stall(d: Duration) {
    STALLS.fetch_add(1, Ordering::Relaxed);
    STALL_NS.fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
}

/// How many times threads waited for a collection, and for how long in
/// total, since the start.
pub fn stalls() -> (u64, Duration) {
    (
        STALLS.load(Ordering::Relaxed),
        Duration::from_nanos(STALL_NS.load(Ordering::Relaxed)),
    )
}

/// Statistics of the last completed cycle.
pub fn last_cycle() -> Option<CycleStats> {
    *LAST.lock()
}

/// Number of completed cycles.
pub fn cycles_completed() -> u64 {
    STATE.lock().completed
}

fn collector_main() {
    loop {
        {
            let mut s = STATE.lock();
            while !s.requested && !s.stop {
                WAKE.wait(&mut s);
            }
            if s.stop {
                return;
            }
            s.requested = false;
            s.running = true;
        }
        PACER.woken();
        let stats = run_cycle();
        *LAST.lock() = Some(stats);
        if config().trace {
            trace_line(&stats);
        }
        let mut s = STATE.lock();
        s.running = false;
        s.completed += 1;
        DONE.notify_all();
    }
}

fn trace_line(s: &CycleStats) {
    const MIB: f64 = (1 << 20) as f64;
    let (stalls, stalled) = stalls();
    eprintln!(
        "gimso-gc: cycle {}: heap {:.1} MiB -> {:.1} MiB (live {:.1} MiB), mark {:.2} ms, sweep {:.2} ms, \
         max pause {} us, rounds {}, threads {}, pacing waits {stalls} ({:.1} ms in all)",
        s.cycle,
        s.heap_before as f64 / MIB,
        s.heap_after as f64 / MIB,
        s.live_bytes as f64 / MIB,
        s.mark.as_secs_f64() * 1e3,
        s.sweep.as_secs_f64() * 1e3,
        s.max_pause.as_micros(),
        s.rounds,
        s.threads,
        stalled.as_secs_f64() * 1e3,
    );
}

fn cb_start(t: &Thread, ctx: Context) {
    // SAFETY: handshake callbacks run with t's run lock held.
    unsafe { t.local_mut().flush() };
    scan_thread(t, ctx);
}

fn cb_nothing(_: &Thread, _: Context) {}

fn cb_roots(t: &Thread, ctx: Context) {
    scan_thread(t, ctx);
}

fn set_marking(on: bool) {
    gimso_shadow::barrier::set_marking(on);
}

fn run_cycle() -> CycleStats {
    let cfg = config();
    let heap = Heap::global();
    let start = Instant::now();
    let heap_before = heap.stats().committed_bytes;
    heap.take_allocated();
    PACER.cycle_started();
    handshake::take_max_pause();
    let workers = cfg.markers;
    let mut rounds = 0;

    heap.clear_marks();
    set_marking(true);
    gimso_heap::set_allocate_black(gimso_shadow::barrier::epoch());
    if cfg.stw {
        let world = stop_world();
        for t in &world.threads {
            // SAFETY: stop_world holds every run lock.
            unsafe { t.local_mut().flush() };
            scan_thread(t, Context::OnBehalf);
        }
        mark_globals();
        drain(workers);
        rounds = 1;
        set_marking(false);
        if cfg.verify {
            verify(&world.threads);
        }
        drop(world);
    } else {
        soft_handshake(cb_start);
        mark_globals();
        drain(workers);
        loop {
            rounds += 1;
            let before = marked_count();
            soft_handshake(cb_roots);
            drain(workers);
            if marked_count() == before && mark::grey_is_empty() {
                break;
            }
        }
        set_marking(false);
        if cfg.verify {
            let world = stop_world();
            verify(&world.threads);
            drop(world);
        }
    }
    let mark_time = start.elapsed();

    let sweep_start = Instant::now();
    let swept = heap.sweep();
    gimso_heap::set_allocate_black(0);
    // A thread that read "marking" or "black" just before they went off
    // may still be about to set a mark bit; such a late mark landing after
    // the next cycle's clear_marks would make an object look traced when
    // it is not. Barriers and allocations never poll, so once every thread
    // has passed a safepoint none is left in flight.
    soft_handshake(cb_nothing);
    let sweep = sweep_start.elapsed();

    let next = pacing::next_trigger(
        swept.live_bytes,
        heap.allocated(),
        cfg.multiplier,
        cfg.threshold,
    );
    PACER.cycle_ended(next);
    heap.set_trigger(next);
    heap.set_retain_bytes(retain_bytes(next, swept.freed_bytes));

    let heap_after = heap.stats().committed_bytes;
    if cfg.heap_max != 0 && swept.live_bytes > cfg.heap_max {
        fatal(&format!(
            "heap limit exceeded: {} bytes live after a collection, GIMSO_HEAP_MAX is {}",
            swept.live_bytes, cfg.heap_max
        ));
    }
    CycleStats {
        cycle: cycles_completed() + 1,
        heap_before,
        heap_after,
        live_bytes: swept.live_bytes,
        freed_bytes: swept.freed_bytes,
        mark: mark_time,
        sweep,
        max_pause: handshake::take_max_pause(),
        rounds,
        threads: thread::threads().len(),
    }
}

/// Bytes of empty committed pages the heap keeps after a cycle that set the
/// trigger to `next` and freed `freed`.
fn retain_bytes(next: usize, freed: usize) -> usize {
    // Empty pages the program will fill again before the next cycle stay
    // committed: returning them to the OS only to fault them back in costs
    // more than it saves. Beyond that, they go back. As much as this cycle
    // freed, at least twice the trigger: a concurrent cycle also frees what
    // was allocated while it marked (with the trigger alone, Lua's
    // gc_heavy.lua decommitted 2 835 pages and took 23 000 page faults).
    let retain = next.saturating_mul(2).max(freed);
    retain.max(gimso_heap::DEFAULT_RETAIN_BYTES)
}

/// With the world stopped after marking: checks the tri-colour invariant
/// the sweep relies on. Every precise root (globals, CC buffers, handles) is
/// marked, and every object referenced by a marked object reachable from
/// the roots is marked. Stack words are conservative: stack slots below the
/// last root scan may hold stale values, so an unmarked object found only
/// on a stack is not an error, but everything a marked one references must
/// be.
fn verify(threads: &[std::sync::Arc<Thread>]) {
    let mut stack: Vec<usize> = Vec::new();
    let mut precise: Vec<usize> = Vec::new();
    for t in threads {
        if t.is_detached() {
            continue;
        }
        let (regs, sp) = t.saved_state();
        let mut words: Vec<usize> = regs.to_vec();
        if sp != 0 && sp < t.stack_top() {
            // SAFETY: the thread is stopped (its run lock held) and attached.
            unsafe { crate::stack::scan_words(sp, t.stack_top(), |w| words.push(w)) };
        }
        for w in words {
            if let Some(obj) = gimso_shadow::lookup::object_containing(w) {
                stack.push(obj.lower());
            }
        }
        precise.extend(
            t.cc_caps()
                .iter()
                .chain(t.cc_outline_caps())
                .copied()
                .filter(|&c| c != 0),
        );
        // SAFETY: the thread is stopped; we hold its run lock.
        precise.extend(unsafe { t.handles_mut() }.iter().copied());
    }
    let globals: HashSet<usize> = crate::roots::global_objects().into_iter().collect();
    precise.extend(globals.iter().copied());
    for &lower in &precise {
        if !is_marked_or_static(lower) {
            fatal(&format!(
                "GIMSO_GC_VERIFY: root {lower:#x} is not marked (collector bug)"
            ));
        }
    }
    stack.extend(precise);
    let mut seen: HashSet<usize> = HashSet::new();
    while let Some(lower) = stack.pop() {
        if !seen.insert(lower) || !is_marked_or_static(lower) {
            continue;
        }
        // Outside the heap only registered globals are traced (as the
        // marker does): a capability of a frame object left in an argument
        // buffer may name a frame long gone, whose "header" is whatever the
        // stack holds now.
        if gimso_heap::lookup(lower.wrapping_sub(HEADER_SIZE)).is_none()
            && !globals.contains(&lower)
        {
            continue;
        }
        mark::references(lower, false, |target| {
            match gimso_heap::residence(target.wrapping_sub(HEADER_SIZE)) {
                // Its header is no object's: not read, not described.
                gimso_heap::Residence::Unallocated => fatal(&format!(
                    "GIMSO_GC_VERIFY: marked object {lower:#x} ({}) references reclaimed \
                     memory at {target:#x} (collector bug)",
                    describe(lower)
                )),
                gimso_heap::Residence::Allocated(slot) => {
                    // SAFETY: residence found an allocated slot.
                    if !unsafe { gimso_heap::is_marked(slot.start) } {
                        fatal(&format!(
                            "GIMSO_GC_VERIFY: marked object {lower:#x} ({}) references \
                             unmarked {target:#x} ({}) (collector bug)",
                            describe(lower),
                            describe(target)
                        ))
                    }
                }
                gimso_heap::Residence::Outside => {}
            }
            stack.push(target);
        });
    }
}

/// Kind and size of an object, for verify failures.
fn describe(lower: usize) -> String {
    // SAFETY: called on lowers of allocated objects (the world is stopped).
    let obj = unsafe { gimso_shadow::ObjRef::from_lower(lower) };
    format!(
        "{}, {} bytes",
        obj.describe(),
        obj.upper().wrapping_sub(lower)
    )
}

/// Marked, or not a heap object at all (a static global or the singleton).
fn is_marked_or_static(lower: usize) -> bool {
    match gimso_heap::lookup(lower.wrapping_sub(HEADER_SIZE)) {
        // SAFETY: lookup returned an allocated slot.
        Some(slot) => unsafe { gimso_heap::is_marked(slot.start) },
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use super::{retain_bytes, wait_target};

    #[test]
    fn a_request_during_a_cycle_waits_for_the_next_one() {
        assert_eq!(wait_target(0, false), 1);
        assert_eq!(wait_target(0, true), 2);
        assert_eq!(wait_target(41, false), 42);
        assert_eq!(wait_target(41, true), 43);
    }

    #[test]
    fn retained_pages_cover_twice_the_trigger_or_what_was_freed() {
        let min = gimso_heap::DEFAULT_RETAIN_BYTES;
        let big = min * 4;
        assert_eq!(retain_bytes(big, 0), 2 * big);
        assert_eq!(retain_bytes(big, 3 * big), 3 * big);
        assert_eq!(retain_bytes(0, 0), min);
        assert_eq!(retain_bytes(usize::MAX, 0), usize::MAX);
    }
}
