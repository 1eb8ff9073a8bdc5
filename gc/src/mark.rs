//! Marking: greying objects, tracing them through shadow storage, parallel
//! draining, and the free singleton.
//!
//! A grey entry is an object's `lower`. Tracing a data object marks its aux
//! allocation and every object its shadow words reference; a shadow word
//! that references a freed object is redirected to the free singleton, so
//! the freed object's memory is reclaimed at this cycle's sweep while every
//! later access through the stale pointer still traps.

use core::sync::atomic::{AtomicUsize, Ordering};

use gimso_abi::{
    AtomicBoxPayload, FLAG_FREE, FLAG_PAD, HEADER_SIZE, ObjectHeader, SHADOW_BOX_TAG, SpecialKind,
    WORD_SIZE, aux_delta, aux_shadow,
};
use gimso_heap::Slot;
use parking_lot::{Condvar, Mutex};

/// Objects newly marked since start by markers and root scans; termination
/// compares it, with [`BARRIER_MARKED`], across a handshake round.
static MARKED: Padded<AtomicUsize> = Padded(AtomicUsize::new(0));
/// Objects newly marked by the store barrier. A counter of its own, on its
/// own cache lines: markers add to `MARKED` for every object they mark, and
/// a barrier sharing that line took a cache miss on each of its increments
/// (3% of Lua's gc_heavy.lua, in the barrier's `lock xadd`).
static BARRIER_MARKED: Padded<AtomicUsize> = Padded(AtomicUsize::new(0));

/// Keeps a hot, often-written atomic on cache lines of its own.
#[repr(align(128))]
struct Padded<T>(T);

impl<T> core::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The shared grey stack.
static GREY: Mutex<GreyState> = Mutex::new(GreyState {
    stack: Vec::new(),
    idle: 0,
    workers: 0,
});
static GREY_CV: Condvar = Condvar::new();

struct GreyState {
    stack: Vec<usize>,
    idle: usize,
    workers: usize,
}

/// Counts an object marked outside this module (by the store barrier), so
/// termination sees it even before it is handed over for tracing.
pub fn note_marked() {
    BARRIER_MARKED.fetch_add(1, Ordering::AcqRel);
}

/// Count of objects marked so far (monotonic, wrapping).
pub fn marked_count() -> usize {
    MARKED
        .load(Ordering::Acquire)
        .wrapping_add(BARRIER_MARKED.load(Ordering::Acquire))
}

// ---------------------------------------------------------------------------
// The free singleton.
// ---------------------------------------------------------------------------

#[repr(C, align(16))]
struct FreeObject {
    header: ObjectHeader,
    payload: [u64; 2],
}

static FREE_SINGLETON: FreeObject = FreeObject {
    header: ObjectHeader {
        upper: AtomicUsize::new(0),
        aux: core::sync::atomic::AtomicU64::new(FLAG_FREE),
    },
    payload: [0; 2],
};

/// The capability every reference to a freed object is redirected to: a
/// permanently freed, zero-size object outside the heap.
pub fn free_singleton() -> usize {
    let lower = FREE_SINGLETON.payload.as_ptr() as usize;
    // upper == lower: idempotent, so racing first calls agree.
    FREE_SINGLETON.header.upper.store(lower, Ordering::Release);
    lower
}

// ---------------------------------------------------------------------------
// Marking single objects.
// ---------------------------------------------------------------------------

/// The `lower` of the object occupying `slot` (it may start with a pad).
fn lower_of_slot(slot: Slot) -> usize {
    let start = slot.start.as_ptr() as usize;
    // SAFETY: an allocated slot starts with a header (or a pad header).
    let h = unsafe { &*(start as *const ObjectHeader) };
    if h.aux.load(Ordering::Acquire) & FLAG_PAD != 0 {
        h.upper.load(Ordering::Acquire)
    } else {
        start + HEADER_SIZE
    }
}

/// Marks the object whose slot contains `addr`; its slot if newly marked.
#[inline]
fn mark_at(addr: usize) -> Option<Slot> {
    let (slot, newly) = gimso_heap::mark_containing(addr)?;
    if newly {
        MARKED.fetch_add(1, Ordering::AcqRel);
        Some(slot)
    } else {
        None
    }
}

/// Marks the object whose capability is `lower`; returns it if it was
/// white (the caller greys it). Non-heap objects (globals, the singleton)
/// return `None`.
#[inline]
pub fn mark_lower(lower: usize) -> Option<usize> {
    if lower < HEADER_SIZE {
        return None;
    }
    // A capability's object is allocated while anything refers to it (a
    // marked object's references were marked with it), so no allocation-bit
    // check is needed.
    if gimso_heap::mark_allocated(lower - HEADER_SIZE)? {
        MARKED.fetch_add(1, Ordering::AcqRel);
        Some(lower)
    } else {
        None
    }
}

/// Marks the object containing an arbitrary word (conservative roots);
/// returns its `lower` if it was white.
#[inline]
pub fn mark_conservative(word: usize) -> Option<usize> {
    let slot = mark_at(word)?;
    let lower = lower_of_slot(slot);
    // A pad not written yet by a racing allocation reads as zero: the slot
    // stays marked (harmless) but there is nothing to trace.
    (lower >= slot.start.as_ptr() as usize + HEADER_SIZE).then_some(lower)
}

/// Traces one grey object: marks what it references, pushing newly marked
/// objects onto `out`, and redirects references to freed objects. Stamps
/// the object with the marking epoch first (the store barrier's shortcut;
/// every surviving object must get the stamp of every cycle it lives
/// through, see `gimso_shadow::barrier`).
pub fn trace(lower: usize, out: &mut Vec<usize>) {
    let m = gimso_shadow::barrier::epoch();
    if m != 0 {
        // SAFETY: grey entries are lowers of marked heap objects.
        unsafe { gimso_shadow::barrier::stamp(lower, m) };
    }
    references(lower, true, |target| out.extend(mark_lower(target)));
}

/// Hints the CPU to start loading the cache line at `addr`.
#[inline(always)]
fn prefetch(addr: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetch never faults, whatever the address.
    unsafe {
        core::arch::x86_64::_mm_prefetch(addr as *const i8, core::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = addr;
}

/// Objects in flight between popping and tracing. Marking is bound by
/// memory latency (each object costs a miss on its header and one on its
/// aux allocation), so objects pass through two small queues: the first
/// prefetches the header, the second reads it and prefetches the aux, and
/// only then is the object traced, by which time both lines have arrived.
struct Pipeline {
    headers: [usize; DEPTH],
    auxes: [usize; DEPTH],
    h_head: usize,
    h_len: usize,
    a_head: usize,
    a_len: usize,
}

const DEPTH: usize = 8;

impl Pipeline {
    const fn new() -> Self {
        Pipeline {
            headers: [0; DEPTH],
            auxes: [0; DEPTH],
            h_head: 0,
            h_len: 0,
            a_head: 0,
            a_len: 0,
        }
    }

    /// Traces everything reachable from `stack` (used as the grey stack).
    fn run(&mut self, stack: &mut Vec<usize>, mut after_each: impl FnMut(&mut Vec<usize>)) {
        loop {
            while self.h_len < DEPTH {
                let Some(x) = stack.pop() else { break };
                prefetch(x - HEADER_SIZE);
                self.headers[(self.h_head + self.h_len) % DEPTH] = x;
                self.h_len += 1;
            }
            while self.a_len < DEPTH && self.h_len > 0 {
                let x = self.headers[self.h_head];
                self.h_head = (self.h_head + 1) % DEPTH;
                self.h_len -= 1;
                // SAFETY: grey entries are lowers of marked objects.
                let aux = unsafe { &*((x - HEADER_SIZE) as *const ObjectHeader) }
                    .aux
                    .load(Ordering::Acquire);
                prefetch(x.wrapping_add_signed(aux_delta(aux)));
                self.auxes[(self.a_head + self.a_len) % DEPTH] = x;
                self.a_len += 1;
            }
            if self.a_len == 0 {
                return;
            }
            let x = self.auxes[self.a_head];
            self.a_head = (self.a_head + 1) % DEPTH;
            self.a_len -= 1;
            trace(x, stack);
            after_each(stack);
        }
    }
}

/// Calls `f` with every object `lower` references: its aux allocation, the
/// targets of its shadow words (through atomic boxes), a box's pointee.
/// References to freed objects are skipped, and with `redirect` rewritten
/// to the free singleton. Freed and special objects reference nothing.
pub fn references(lower: usize, redirect: bool, mut f: impl FnMut(usize)) {
    // SAFETY: callers pass lowers of objects that stay allocated while they
    // run (marked objects during a cycle, or with the world stopped).
    let header = unsafe { &*((lower - HEADER_SIZE) as *const ObjectHeader) };
    let aux = header.aux.load(Ordering::Acquire);
    if aux & FLAG_FREE != 0 {
        return; // freed: its contents can never be read again
    }
    match SpecialKind::from_aux(aux) {
        Some(SpecialKind::None) => {}
        Some(SpecialKind::AtomicBox) => {
            // SAFETY: a box's payload is an AtomicBoxPayload.
            let b = unsafe { &*(lower as *const AtomicBoxPayload) };
            let target = b.lower.load(Ordering::Acquire);
            // A dead box brought back (see below) may name a reclaimed
            // object: `GIMSO_GC_VERIFY` caught that, and the verifier then
            // read the reclaimed header.
            if target != 0 && names_live_object(target) {
                f(target);
            }
            return;
        }
        _ => return,
    }
    let Some(shadow) = aux_shadow(aux, lower) else {
        return;
    };
    let upper = header.upper.load(Ordering::Acquire);
    if !gimso_shadow::alloc::is_inline_aux(shadow, upper) {
        if !names_live_object(shadow) {
            // A dead object brought back (see below) whose shadow storage
            // was reclaimed: its words are another object's now, or
            // decommitted memory.
            return;
        }
        f(shadow); // the aux allocation itself; nothing to trace in it
    }
    let words = upper.saturating_sub(lower) / WORD_SIZE;
    for i in 0..words {
        // SAFETY: the aux allocation holds one word per payload word of the
        // object as it was when the aux was made, and bounds never grow.
        let cell = unsafe { &*(shadow as *const AtomicUsize).add(i) };
        let w = cell.load(Ordering::Acquire);
        if w == 0 {
            continue;
        }
        if w & SHADOW_BOX_TAG != 0 {
            if names_live_object(w & !SHADOW_BOX_TAG) {
                f(w & !SHADOW_BOX_TAG);
            }
            continue;
        }
        if redirect && gimso_heap::marked_at(w.wrapping_sub(HEADER_SIZE)) {
            // Marked this cycle (by another reference or a root): nothing
            // to do, and no need to read its header. Should it be freed
            // (marked through a root), this word is redirected in a later
            // cycle, once nothing keeps the object marked.
            continue;
        }
        if !names_live_object(w) {
            // A dead object the conservative stack scan brought back (a
            // stale word in a frame) may still name objects reclaimed since
            // it died (it outlived them unswept, in a page an allocation
            // cache held during a sweep); nothing can read it, so its
            // references are dropped.
            if redirect {
                let _ =
                    cell.compare_exchange(w, free_singleton(), Ordering::AcqRel, Ordering::Relaxed);
            }
            continue;
        }
        if points_at_freed(w) {
            if redirect {
                // A racing store wins: it wrote a capability the barrier marks.
                let _ =
                    cell.compare_exchange(w, free_singleton(), Ordering::AcqRel, Ordering::Relaxed);
            }
            continue;
        }
        f(w);
    }
}

/// Whether capability `lower` names an allocated heap object (its own
/// `lower`, not some other address in the slot) or something outside the
/// heap (a global, the free singleton). Reads only the heap's tables.
fn names_live_object(lower: usize) -> bool {
    if lower < HEADER_SIZE {
        return false;
    }
    match gimso_heap::residence(lower - HEADER_SIZE) {
        gimso_heap::Residence::Outside => true,
        gimso_heap::Residence::Unallocated => false,
        gimso_heap::Residence::Allocated(slot) => lower_of_slot(slot) == lower,
    }
}

fn points_at_freed(lower: usize) -> bool {
    // SAFETY: a shadow word holds a runtime-issued capability, whose header
    // is readable while anything references it.
    let header = unsafe { &*((lower - HEADER_SIZE) as *const ObjectHeader) };
    header.aux.load(Ordering::Acquire) & FLAG_FREE != 0
}

// ---------------------------------------------------------------------------
// The shared grey stack and parallel draining.
// ---------------------------------------------------------------------------

/// Adds grey objects for the markers.
pub fn push_grey(objs: &mut Vec<usize>) {
    if objs.is_empty() {
        return;
    }
    let mut g = GREY.lock();
    g.stack.append(objs);
    if g.idle > 0 {
        GREY_CV.notify_all();
    }
}

/// Whether the shared grey stack is empty.
pub fn grey_is_empty() -> bool {
    GREY.lock().stack.is_empty()
}

const BATCH: usize = 128;
const SHARE_ABOVE: usize = 1024;

/// Traces until no grey object remains, with `workers` threads (the caller
/// is one of them).
pub fn drain(workers: usize) {
    let workers = workers.max(1);
    {
        let mut g = GREY.lock();
        if g.stack.is_empty() {
            return;
        }
        g.workers = workers;
        g.idle = 0;
    }
    if workers == 1 {
        worker();
        return;
    }
    helpers::run(workers - 1, worker);
}

/// The marking helpers: threads started on first use and kept, parked
/// between drains. (Starting them per drain cost a thread creation, its
/// stack's page faults and, at exit, a 2 MiB `madvise` each time: Lua's
/// gc_heavy.lua started ~2 000 of them.)
mod helpers {
    use std::thread::JoinHandle;

    use parking_lot::{Condvar, Mutex};

    struct Pool {
        /// Bumped for each drain the helpers join.
        generation: u64,
        /// Helpers `1..=wanted` join the current generation.
        wanted: usize,
        /// Helpers of the current generation not finished yet.
        running: usize,
        stop: bool,
        threads: Vec<JoinHandle<()>>,
    }

    static POOL: Mutex<Pool> = Mutex::new(Pool {
        generation: 0,
        wanted: 0,
        running: 0,
        stop: false,
        threads: Vec::new(),
    });
    static CV: Condvar = Condvar::new();

    /// Runs `work` on the caller and on `n` helpers; returns once all are
    /// done.
    pub(super) fn run(n: usize, work: fn()) {
        {
            let mut p = POOL.lock();
            while p.threads.len() < n {
                let index = p.threads.len() + 1;
                let seen = p.generation;
                let t = std::thread::Builder::new()
                    .name(format!("gimso-mark-{index}"))
                    .spawn(move || helper(index, seen, work))
                    .expect("spawn marker thread");
                p.threads.push(t);
            }
            p.generation += 1;
            p.wanted = n;
            p.running = n;
            CV.notify_all();
        }
        work();
        let mut p = POOL.lock();
        while p.running > 0 {
            CV.wait(&mut p);
        }
    }

    fn helper(index: usize, mut seen: u64, work: fn()) {
        loop {
            let mut p = POOL.lock();
            while p.generation == seen && !p.stop {
                CV.wait(&mut p);
            }
            if p.stop {
                return;
            }
            seen = p.generation;
            let join = index <= p.wanted;
            drop(p);
            if join {
                work();
                let mut p = POOL.lock();
                p.running -= 1;
                if p.running == 0 {
                    CV.notify_all();
                }
            }
        }
    }

    /// Ends every helper (joined), for `fork`: neither process may inherit
    /// a thread parked on these locks. The next drain starts them again.
    pub(crate) fn stop() {
        let threads = {
            let mut p = POOL.lock();
            p.stop = true;
            CV.notify_all();
            std::mem::take(&mut p.threads)
        };
        for t in threads {
            let _ = t.join();
        }
        POOL.lock().stop = false;
    }
}

pub(crate) use helpers::stop as stop_helpers;

fn worker() {
    let mut local: Vec<usize> = Vec::with_capacity(BATCH * 4);
    loop {
        if local.is_empty() {
            let mut g = GREY.lock();
            loop {
                if !g.stack.is_empty() {
                    let n = g.stack.len().min(BATCH);
                    let at = g.stack.len() - n;
                    local.extend(g.stack.drain(at..));
                    break;
                }
                g.idle += 1;
                if g.idle == g.workers {
                    GREY_CV.notify_all();
                    return;
                }
                GREY_CV.wait(&mut g);
                if g.idle == g.workers {
                    return;
                }
                g.idle -= 1;
            }
        }
        Pipeline::new().run(&mut local, |local| {
            if local.len() > SHARE_ABOVE {
                let mut g = GREY.lock();
                if g.idle > 0 {
                    let half = local.len() / 2;
                    g.stack.extend(local.drain(..half));
                    GREY_CV.notify_all();
                }
            }
        });
    }
}
