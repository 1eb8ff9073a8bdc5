//! The atomics the collector's protocol cores ([`crate::pacing`],
//! [`crate::safepoint`]) are written against.
//!
//! Under `cfg(loom)` these are loom's instrumented types, so the models in
//! `tests/loom_*.rs` explore the very code the collector runs; otherwise they
//! are the standard library's. Protocol code must import atomics only from
//! here.

#[cfg(loom)]
pub use loom::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

#[cfg(not(loom))]
pub use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
