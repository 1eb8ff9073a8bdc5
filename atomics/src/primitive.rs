//! The atomics and cell the protocol is written against.
//!
//! Under `cfg(loom)` these are loom's instrumented types, so the models in
//! `tests/loom_*.rs` explore the very code the runtime runs; otherwise they are
//! the standard library's (and a zero-cost `UnsafeCell` with loom's closure
//! API). Protocol code must import atomics only from here.

#[cfg(loom)]
pub use loom::cell::UnsafeCell;
#[cfg(loom)]
pub use loom::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};

#[cfg(not(loom))]
pub use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering, fence};

/// `core::cell::UnsafeCell` behind loom's closure-based API, so code written
/// for loom's checked cell compiles unchanged (and to nothing) without loom.
#[cfg(not(loom))]
#[derive(Debug, Default)]
#[repr(transparent)]
pub struct UnsafeCell<T>(core::cell::UnsafeCell<T>);

#[cfg(not(loom))]
impl<T> UnsafeCell<T> {
    /// Wraps `value`.
    #[inline]
    pub const fn new(value: T) -> Self {
        Self(core::cell::UnsafeCell::new(value))
    }

    /// Calls `f` with a shared raw pointer to the contents.
    #[inline]
    pub fn with<R>(&self, f: impl FnOnce(*const T) -> R) -> R {
        f(self.0.get())
    }

    /// Calls `f` with an exclusive raw pointer to the contents.
    #[inline]
    pub fn with_mut<R>(&self, f: impl FnOnce(*mut T) -> R) -> R {
        f(self.0.get())
    }
}
