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

    /// Traces everything reachable from `stack` (used as the grey stack)
    /// with `trace` (always [`trace`] but in tests).
    fn run(
        &mut self,
        stack: &mut Vec<usize>,
        mut trace: impl FnMut(usize, &mut Vec<usize>),
        mut after_each: impl FnMut(&mut Vec<usize>),
    ) {
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
        Pipeline::new().run(&mut local, trace, |local| {
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

#[cfg(test)]
mod tests {
    use core::sync::atomic::AtomicU64;
    use std::collections::HashMap;

    use gimso_abi::{FLAG_SHADOW, aux_with_delta};

    use super::*;

    /// An object outside the heap, laid out as the runtime lays out
    /// globals: a header, then the payload.
    #[repr(C, align(16))]
    struct Fake {
        header: ObjectHeader,
        payload: [usize; 4],
    }

    impl Fake {
        /// Leaked, so its address stays valid for `references` and the
        /// pipeline, which take bare `lower`s.
        fn leak(aux: u64) -> &'static Fake {
            let f: &'static Fake = Box::leak(Box::new(Fake {
                header: ObjectHeader {
                    upper: AtomicUsize::new(0),
                    aux: AtomicU64::new(aux),
                },
                payload: [0; 4],
            }));
            f.header.upper.store(f.lower() + 32, Ordering::Relaxed);
            f
        }

        fn lower(&self) -> usize {
            self.payload.as_ptr() as usize
        }
    }

    fn refs(lower: usize, redirect: bool) -> Vec<usize> {
        let mut out = Vec::new();
        references(lower, redirect, |t| out.push(t));
        out
    }

    /// A data object whose four payload words' shadow holds: nothing, a
    /// live object, a freed one, and a live one through an atomic box tag.
    struct Graph {
        object: &'static Fake,
        shadow: &'static [AtomicUsize; 4],
        live: usize,
        freed: usize,
        boxed: usize,
    }

    fn graph() -> Graph {
        let live = Fake::leak(0).lower();
        let freed = Fake::leak(FLAG_FREE).lower();
        let boxed = Fake::leak(0).lower();
        let shadow: &'static [AtomicUsize; 4] = Box::leak(Box::new([
            AtomicUsize::new(0),
            AtomicUsize::new(live),
            AtomicUsize::new(freed),
            AtomicUsize::new(boxed | SHADOW_BOX_TAG),
        ]));
        let object = Fake::leak(0);
        let delta = shadow.as_ptr() as isize - object.lower() as isize;
        object
            .header
            .aux
            .store(aux_with_delta(0, delta), Ordering::Relaxed);
        assert_ne!(object.header.aux.load(Ordering::Relaxed) & FLAG_SHADOW, 0);
        Graph {
            object,
            shadow,
            live,
            freed,
            boxed,
        }
    }

    #[test]
    fn references_are_the_aux_and_the_live_targets_of_the_shadow_words() {
        let g = graph();
        let shadow = g.shadow.as_ptr() as usize;
        assert_eq!(refs(g.object.lower(), false), [shadow, g.live, g.boxed]);
        // Without redirection (the verifier), nothing is rewritten.
        assert_eq!(g.shadow[2].load(Ordering::Relaxed), g.freed);
    }

    #[test]
    fn references_to_freed_objects_go_to_the_free_singleton() {
        let g = graph();
        let shadow = g.shadow.as_ptr() as usize;
        assert_eq!(refs(g.object.lower(), true), [shadow, g.live, g.boxed]);
        assert_eq!(g.shadow[2].load(Ordering::Relaxed), free_singleton());
        assert_eq!(g.shadow[1].load(Ordering::Relaxed), g.live);
        assert_eq!(
            g.shadow[3].load(Ordering::Relaxed),
            g.boxed | SHADOW_BOX_TAG
        );
        // The singleton is freed itself: a second pass skips it.
        assert_eq!(refs(g.object.lower(), true), [shadow, g.live, g.boxed]);
    }

    #[test]
    fn freed_objects_reference_nothing() {
        let g = graph();
        let aux = g.object.header.aux.load(Ordering::Relaxed);
        g.object
            .header
            .aux
            .store(aux | FLAG_FREE, Ordering::Relaxed);
        assert!(refs(g.object.lower(), true).is_empty());
        assert_eq!(g.shadow[2].load(Ordering::Relaxed), g.freed);
    }

    #[test]
    fn objects_without_shadow_reference_nothing() {
        assert!(refs(Fake::leak(0).lower(), true).is_empty());
    }

    #[test]
    fn an_atomic_box_references_its_pointee() {
        let target = Fake::leak(0).lower();
        let b = Fake::leak(SpecialKind::AtomicBox.to_aux());
        assert!(refs(b.lower(), true).is_empty(), "an empty box");
        // SAFETY: the payload is large enough for a box and aligned.
        let payload = unsafe { &*(b.lower() as *const AtomicBoxPayload) };
        payload.lower.store(target, Ordering::Relaxed);
        assert_eq!(refs(b.lower(), true), [target]);
    }

    #[test]
    fn other_specials_reference_nothing() {
        let f = Fake::leak(SpecialKind::Function.to_aux());
        // SAFETY: as above.
        let payload = unsafe { &*(f.lower() as *const AtomicBoxPayload) };
        payload
            .lower
            .store(Fake::leak(0).lower(), Ordering::Relaxed);
        assert!(refs(f.lower(), true).is_empty());
    }

    #[test]
    fn the_free_singleton_is_a_freed_empty_object_outside_the_heap() {
        let lower = free_singleton();
        assert_eq!(free_singleton(), lower);
        assert_eq!(FREE_SINGLETON.header.upper.load(Ordering::Relaxed), lower);
        assert_ne!(
            FREE_SINGLETON.header.aux.load(Ordering::Relaxed) & FLAG_FREE,
            0
        );
        assert!(names_live_object(lower));
        assert!(points_at_freed(lower));
        assert!(refs(lower, true).is_empty());
    }

    #[test]
    fn small_words_are_not_capabilities() {
        assert!(!names_live_object(0));
        assert!(!names_live_object(HEADER_SIZE - 1));
        assert_eq!(mark_lower(0), None);
        assert_eq!(mark_lower(HEADER_SIZE - 1), None);
    }

    #[test]
    fn the_pipeline_traces_every_grey_object_once() {
        // Objects 0..64; tracing object i greys 2i+1 and 2i+2 (a binary
        // tree), so objects are also pushed while the pipeline is full.
        let objects: Vec<usize> = (0..64).map(|_| Fake::leak(0).lower()).collect();
        let index: HashMap<usize, usize> =
            objects.iter().enumerate().map(|(i, &o)| (o, i)).collect();
        let mut traced = vec![0u32; objects.len()];
        let mut after = 0;
        let mut stack = vec![objects[0]];
        Pipeline::new().run(
            &mut stack,
            |x, out| {
                let i = index[&x];
                traced[i] += 1;
                for child in [2 * i + 1, 2 * i + 2] {
                    if child < objects.len() {
                        out.push(objects[child]);
                    }
                }
            },
            |_| after += 1,
        );
        assert!(stack.is_empty());
        assert!(traced.iter().all(|&n| n == 1), "{traced:?}");
        assert_eq!(after, objects.len());
    }

    #[test]
    fn the_pipeline_lets_after_each_take_work_away() {
        // What `after_each` removes (shared with other markers) is not
        // traced here.
        let objects: Vec<usize> = (0..40).map(|_| Fake::leak(0).lower()).collect();
        let mut stack = objects.clone();
        let mut traced = Vec::new();
        let mut shared = Vec::new();
        Pipeline::new().run(
            &mut stack,
            |x, _| traced.push(x),
            |stack| shared.append(stack),
        );
        // The first pops fill the header queue, which moves on to the aux
        // queue at once: DEPTH objects are in flight when the rest is
        // shared away.
        assert_eq!(traced.len(), DEPTH);
        assert_eq!(shared.len(), objects.len() - DEPTH);
        traced.extend(&shared);
        traced.sort_unstable();
        let mut all = objects;
        all.sort_unstable();
        assert_eq!(traced, all);
    }

    #[test]
    fn the_hot_counters_have_cache_lines_of_their_own() {
        assert!(core::mem::align_of::<Padded<AtomicUsize>>() >= 128);
        let a = &MARKED as *const _ as usize;
        let b = &BARRIER_MARKED as *const _ as usize;
        assert!(a.abs_diff(b) >= 128);
    }

    #[test]
    fn barrier_marks_count_towards_termination() {
        let before = marked_count();
        note_marked();
        assert_ne!(marked_count(), before);
    }

    /// Runs on the caller and the helpers, counting.
    static RUNS: AtomicUsize = AtomicUsize::new(0);

    fn count_run() {
        RUNS.fetch_add(1, Ordering::Relaxed);
    }

    #[test]
    fn helpers_join_as_many_as_asked_and_restart_after_stop() {
        RUNS.store(0, Ordering::Relaxed);
        helpers::run(2, count_run);
        assert_eq!(RUNS.load(Ordering::Relaxed), 3);
        // Fewer this time: the third thread stays parked.
        helpers::run(1, count_run);
        assert_eq!(RUNS.load(Ordering::Relaxed), 5);
        helpers::stop();
        helpers::run(2, count_run);
        assert_eq!(RUNS.load(Ordering::Relaxed), 8);
        helpers::stop();
    }
}
