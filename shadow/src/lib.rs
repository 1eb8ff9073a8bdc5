//! Capability objects: the object model of docs/architecture.md.
//!
//! Every object is `[ header (16 B) | payload ]`; a capability is the
//! payload address (`lower`). This crate owns everything that reads or
//! writes headers: allocation of data and special objects on top of
//! `gimso-heap`, the access check and its failure classification, `free`
//! with all its error cases, function capabilities and the call check,
//! shadow (aux) storage for pointers at rest, `memmove`/`memset` with the
//! spec's capability rules, the store-barrier hook, and safety reports.
//!
//! The slot protocol for a single pointer word (plain and atomic, with
//! atomic boxes) lives in `gimso-atomics`, where loom checks it; this crate
//! adds the bounds checks and heap-allocated boxes around it.
//!
//! Capabilities are trusted: a non-zero `lower` always comes from this
//! crate's allocator, because compiled code cannot forge one.

pub mod alloc;
pub mod barrier;
pub mod check;
pub mod exposed;
pub mod free;
pub mod function;
pub mod lookup;
pub mod memops;
pub mod object;
pub mod pointer;
pub mod report;
pub mod zero;

pub use alloc::{alloc_object, alloc_object_shadowed, alloc_special};
pub use check::{Access, check_access};
pub use gimso_abi::{FlightPtr, SourceLocation};
pub use gimso_heap::{Heap, LocalHeap};
pub use object::ObjRef;
