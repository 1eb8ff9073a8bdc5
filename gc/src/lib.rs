//! The collector: on-the-fly, concurrent, parallel, non-moving (docs/architecture.md, "The collector").
//!
//! - [`thread`]: the registry of mutator threads, their state word,
//!   `enter`/`exit`, the pollcheck, attach/detach, stop-the-world.
//! - [`handshake`]: soft handshakes (callbacks run by each thread at its
//!   next poll, or on its behalf while it is exited).
//! - [`stack`]: stack bounds and register spilling for conservative scans.
//! - [`roots`]: globals, root ranges, handles (`Root`), thread roots.
//! - [`mark`]: marking, tracing through shadow storage, parallel draining,
//!   the free singleton.
//! - [`collector`]: the collector thread and its cycle, triggers, pacing.
//! - [`config`]: the `GIMSO_GC_*` switches.
//! - [`safepoint`] and [`pacing`]: the protocol cores of handshakes and
//!   pacing, on [`primitive`]'s atomics; under `cfg(loom)` only these are
//!   built, for the models in `tests/loom_*.rs`.
//!
//! No cycle stops all threads (except under `GIMSO_GC_STW=1` and for
//! `GIMSO_GC_VERIFY=1`'s check); the store barrier (`gimso-shadow`), black
//! allocation (`gimso-heap`) and repeated root handshakes until nothing new
//! is marked make concurrent marking complete.

pub mod pacing;
pub mod primitive;
pub mod safepoint;

#[cfg(not(loom))]
pub mod collector;
#[cfg(not(loom))]
pub mod config;
#[cfg(not(loom))]
pub mod handshake;
#[cfg(not(loom))]
pub mod mark;
#[cfg(not(loom))]
pub mod roots;
#[cfg(not(loom))]
pub mod stack;
#[cfg(not(loom))]
pub mod thread;

#[cfg(not(loom))]
pub use collector::{CycleStats, collect, fork_with, last_cycle};
#[cfg(not(loom))]
pub use roots::{Root, register_global_object, register_root_range};
#[cfg(not(loom))]
pub use thread::{
    StoppedWorld, Thread, attach, current, current_if_attached, detach, enter, exit, exited,
    pollcheck, stop_world,
};

#[cfg(not(loom))]
/// Allocates a data object for the calling thread (see
/// [`gimso_shadow::alloc_object`]), honouring `GIMSO_GC_TORTURE` and the
/// heap limit. A safepoint: call only where the thread holds no uncovered
/// capability (all in registers, stack or roots, as compiled code does).
#[inline]
pub fn alloc(size: usize, align: usize, flags: u64) -> gimso_shadow::ObjRef {
    let t = current();
    before_alloc(t, size);
    // SAFETY: the calling thread is entered and owns its cache.
    gimso_shadow::alloc_object(unsafe { t.local_mut() }, size, align, flags)
}

#[cfg(not(loom))]
/// [`alloc`] for an object known to hold pointers: its shadow words are
/// inline for larger payloads too (see [`gimso_shadow::alloc_object_shadowed`]).
#[inline]
pub fn alloc_shadowed(size: usize, align: usize, flags: u64) -> gimso_shadow::ObjRef {
    let t = current();
    before_alloc(t, size);
    // SAFETY: the calling thread is entered and owns its cache.
    gimso_shadow::alloc_object_shadowed(unsafe { t.local_mut() }, size, align, flags)
}

#[cfg(not(loom))]
/// The safepoint work an allocation does first: torture collections, the
/// heap limit, and pending requests.
#[inline]
pub fn before_alloc(t: &Thread, size: usize) {
    if collector::alloc_checks_enabled() {
        alloc_checks(t, size);
    }
    pollcheck(t);
}

#[cfg(not(loom))]
#[cold]
#[inline(never)]
fn alloc_checks(t: &Thread, size: usize) {
    let cfg = config::config();
    if cfg.torture != 0 && t.count_allocation(cfg.torture) {
        t.request_collect();
    }
    if cfg.heap_max != 0 && size > cfg.heap_max {
        gimso_heap::fatal_oom(size);
    }
}
