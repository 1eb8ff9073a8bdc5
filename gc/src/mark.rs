//! Marking: greying objects, tracing them through shadow storage, parallel
//! draining, and the free singleton.
//!
//! A grey entry is an object's `lower`. Tracing a data object marks its aux
//! allocation and every object its shadow words reference; a shadow word
//! that references a freed object is redirected to the free singleton, so
//! the freed object's memory is reclaimed at this cycle's sweep while every
//! later access through the stale pointer still traps.

use core::ptr::NonNull;
use core::sync::atomic::{AtomicUsize, Ordering};

use gimso_abi::{
    AUX_PTR_MASK, AtomicBoxPayload, FLAG_FREE, FLAG_PAD, HEADER_SIZE, ObjectHeader, SHADOW_BOX_TAG,
    SpecialKind, WORD_SIZE,
};
use gimso_heap::Slot;
use parking_lot::{Condvar, Mutex};

/// Objects newly marked since start (any cause); termination compares it
/// across a handshake round.
static MARKED: AtomicUsize = AtomicUsize::new(0);

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
    MARKED.fetch_add(1, Ordering::AcqRel);
}

/// Count of objects marked so far (monotonic).
pub fn marked_count() -> usize {
    MARKED.load(Ordering::Acquire)
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

fn mark_slot(start: NonNull<u8>) -> bool {
    // SAFETY: `start` came from heap::lookup just now.
    let newly = unsafe { gimso_heap::mark(start) };
    if newly {
        MARKED.fetch_add(1, Ordering::AcqRel);
    }
    newly
}

/// Marks the object whose capability is `lower`; returns it if it was
/// white (the caller greys it). Non-heap objects (globals, the singleton)
/// return `None`.
#[inline]
pub fn mark_lower(lower: usize) -> Option<usize> {
    if lower < HEADER_SIZE {
        return None;
    }
    let slot = gimso_heap::lookup(lower - HEADER_SIZE)?;
    mark_slot(slot.start).then_some(lower)
}

/// Marks the object containing an arbitrary word (conservative roots);
/// returns its `lower` if it was white.
#[inline]
pub fn mark_conservative(word: usize) -> Option<usize> {
    let slot = gimso_heap::lookup(word)?;
    let lower = lower_of_slot(slot);
    if lower < slot.start.as_ptr() as usize + HEADER_SIZE {
        return None; // pad not written yet by a racing allocation
    }
    mark_slot(slot.start).then_some(lower)
}

/// Traces one grey object: marks what it references, pushing newly marked
/// objects onto `out`, and redirects references to freed objects.
pub fn trace(lower: usize, out: &mut Vec<usize>) {
    references(lower, true, |target| out.extend(mark_lower(target)));
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
            if target != 0 {
                f(target);
            }
            return;
        }
        _ => return,
    }
    let shadow = (aux & AUX_PTR_MASK) as usize;
    if shadow == 0 {
        return;
    }
    f(shadow); // the aux allocation itself; nothing to trace in it
    let upper = header.upper.load(Ordering::Acquire);
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
            f(w & !SHADOW_BOX_TAG);
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
    std::thread::scope(|s| {
        for i in 1..workers {
            std::thread::Builder::new()
                .name(format!("gimso-mark-{i}"))
                .spawn_scoped(s, worker)
                .expect("spawn marker thread");
        }
        worker();
    });
}

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
        while let Some(obj) = local.pop() {
            trace(obj, &mut local);
            if local.len() > SHARE_ABOVE {
                let mut g = GREY.lock();
                if g.idle > 0 {
                    let half = local.len() / 2;
                    g.stack.extend(local.drain(..half));
                    GREY_CV.notify_all();
                }
            }
        }
    }
}
