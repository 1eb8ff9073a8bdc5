//! The pointer-slot protocol of gimso: how a pointer at rest is stored in and
//! loaded from its *payload word* (the intval) and its *shadow word* (the
//! capability, or an atomic box), written once and model-checked with loom.
//!
//! # The slot
//!
//! A shadow word holds either a capability `lower` (16-byte aligned, or 0 for
//! the null capability) — *non-atomic mode* — or `box | 1`
//! ([`gimso_abi::SHADOW_BOX_TAG`]) — *atomic mode* — where `box` is an
//! immutable atomic box `{intval, lower}`. In atomic mode the payload word
//! holds a replica of the box's intval for non-atomic loads.
//!
//! | operation | does |
//! | --- | --- |
//! | [`plain_store`] | payload := intval (Relaxed); shadow := lower (Release) |
//! | [`plain_load`] | w := shadow (Acquire); lower := box.lower or w; intval := payload (Relaxed) |
//! | [`atomic_store`] | shadow := new box (Release); payload := intval (Release) |
//! | [`atomic_load`] | w := shadow (Acquire); box contents, or (payload, w) re-validated |
//! | [`cmpxchg`] | read as `atomic_load`; compare intval; CAS shadow w → new box (AcqRel/Acquire); replicate |
//! | [`xchg`] | payload (Acquire); swap shadow → new box (AcqRel); replicate |
//!
//! # Guarantees
//!
//! 1. An atomic read ([`atomic_load`], and the old value of [`cmpxchg`] and
//!    [`xchg`]) racing only with atomic writers returns exactly a pair some
//!    write stored: a box is immutable, and in non-atomic mode the intval is
//!    re-validated against the shadow word (see below).
//! 2. Any load, racing with anything, returns a capability that some store
//!    really put in the slot and an intval some store really wrote. It may
//!    pair them wrongly (a *tear*), which is memory-safe: the pair either
//!    traps on access or is a genuine capability with some intval.
//!    Non-atomic stores and loads may tear; that is the spec's semantics for
//!    racing non-atomic accesses (a data race in C), including an atomic load
//!    racing a non-atomic store in non-atomic mode.
//! 3. [`cmpxchg`] and [`xchg`] are atomic read-modify-writes: the CAS / swap on
//!    the shadow word is their linearisation point, and every box is fresh,
//!    so two of them never return the same old write.
//!
//! # Why each ordering
//!
//! * **Shadow stores and RMWs are Release; shadow loads are Acquire** (the
//!   spec's "monotonic" is not enough here): a box is initialised with plain
//!   writes and read with plain reads, so its publication through the shadow
//!   word must be a Release/Acquire pair. The same pair carries the
//!   initialisation of the object a plain capability names, so the loader can
//!   read its header. On x86-64 these cost nothing over Relaxed.
//! * **A plain store's payload write is Relaxed**: it publishes nothing, and a
//!   reader that pairs it with the wrong capability is a tolerated tear.
//!   Being sequenced before the Release shadow store, it is seen by any loader
//!   that acquires that store's capability (or a later one).
//! * **Atomic writers replicate the intval with Release; non-atomic-mode
//!   atomic reads load the payload with Acquire and then re-read the shadow
//!   word.** Atomic writers publish the box *before* the replica. Without the
//!   re-validation, an atomic load starting in non-atomic mode could read the
//!   old capability, then the new writer's replica: a tear between two
//!   *atomic* accesses, which the spec forbids. With it, seeing the replica
//!   synchronises with its writer, so the box store happens-before the
//!   re-read, which therefore cannot still return the old word; the load
//!   retries and reads the box. [`xchg`] gets the same effect by reading the
//!   payload before its swap.
//! * **Box reads are Relaxed** ([`AbiBoxReader`]): boxes are immutable once
//!   published and the Acquire on the shadow word already orders their
//!   initialisation.
//! * **CAS is AcqRel on success, Acquire on failure**: success publishes the
//!   new box; failure resolves the value it failed on, possibly a box.
//!
//! A non-atomic load after a race between atomic writers may see the box of
//! one and the replica of another (the replicas race with each other): this is
//! the spec's "strange" atomic mode, and guarantee 2 still holds.
//!
//! # Boxes
//!
//! The protocol allocates boxes through [`BoxAlloc`] and reads them through
//! [`BoxRead`]; a [`Slot`] is typed by the box implementation so that loads
//! and writers agree on it. The runtime reads boxes laid out as
//! [`gimso_abi::AtomicBoxPayload`] with [`AbiBoxReader`]; tests use
//! [`LeakBoxes`].
//!
//! # Model checking
//!
//! The atomics come from [`primitive`], which is loom's under `cfg(loom)`, so
//! the models check the code the runtime runs. Run them with:
//!
//! ```text
//! RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=3 cargo test -p gimso-atomics --release --target-dir target/loom
//! ```
//!
//! `tests/loom_pairs.rs` checks every unordered pair of the six operations
//! (plus weak cmpxchg) with two threads, from a non-atomic and an atomic
//! starting state; `tests/loom_three.rs` checks store/cmpxchg/load triples.
//! Without `cfg(loom)`, `tests/stress.rs` runs the same scenarios on OS
//! threads. loom 0.7 does not keep a concurrent plain store out of an RMW's
//! read-write window (tokio-rs/loom#254), so the one check that depends on
//! it (an RMW that saw the initial value must have been overwritten by a
//! concurrent *store*) runs only in the stress tests. Weakening any of the
//! orderings above (box publication, the Release replica, the re-validation)
//! makes the models fail.

pub mod boxes;
pub mod primitive;
pub mod slot;

pub use boxes::{AbiBoxReader, BoxAlloc, BoxRead, LeakBoxes};
pub use slot::{Slot, atomic_load, atomic_store, cmpxchg, is_box, plain_load, plain_store, xchg};

use gimso_abi::FlightPtr;

/// A pointer value: its integer value and its capability (`lower`, or 0 for
/// the null capability).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Ptr {
    /// The pointer's integer value.
    pub intval: u64,
    /// The capability: payload address of the object, or 0.
    pub lower: usize,
}

impl From<FlightPtr> for Ptr {
    #[inline]
    fn from(p: FlightPtr) -> Self {
        Ptr {
            intval: p.intval() as u64,
            lower: p.lower(),
        }
    }
}

impl Ptr {
    /// The pointer as a [`FlightPtr`].
    ///
    /// # Safety
    /// `lower` is 0 or the payload address of a capability object the
    /// runtime made ([`FlightPtr`]'s invariant): it was read from a slot or
    /// box the runtime wrote from a `FlightPtr`.
    #[inline]
    pub unsafe fn into_flight(self) -> FlightPtr {
        // SAFETY: as the caller promises.
        unsafe { FlightPtr::new(self.intval as usize, self.lower) }
    }
}
