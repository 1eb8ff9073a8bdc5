//! The Itanium two-phase unwinder on gimso's call ABI (docs/architecture.md, "Exceptions and the unwinder").
//!
//! Compiled functions with a personality keep a [`FrameRecord`] on their
//! native stack, linked from the thread while they run, and set its LSDA
//! before every `invoke` (null before a plain call). The runtime pushes a
//! barrier record wherever it calls compiled code.
//!
//! - [`frames`]: walking the record chain; barrier records.
//! - [`engine`]: phase 1 (search: personalities consulted with
//!   `_UA_SEARCH_PHASE`, nothing run), the per-thread stack of exceptions in
//!   flight, and phase 2, which is ordinary returns with
//!   `EntryResult::has_exception` set: each `invoke` that sees the flag asks
//!   [`engine::landing_pad`] whether its landing pad runs.
//!
//! The engine is safe Rust over a [`engine::Personalities`] trait: the
//! runtime's binding (libc-wrappers' `unwind` module) calls personality and
//! stop functions through the call ABI, tests call Rust closures.
//!
//! [`FrameRecord`]: gimso_abi::FrameRecord

pub mod engine;
pub mod frames;
