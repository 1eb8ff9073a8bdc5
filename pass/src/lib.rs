//! The gimso compiler pass: an LLVM 16 IR → IR translator (docs/translation.md),
//! and the `gimso-cc` / `gimso-c++` drivers around it.
//!
//! A source file goes through [`driver`]'s pipeline: clang-16 compiles it
//! to IR at the user's `-O` level ([`optimize::front_half`]); [`reject`]
//! refuses what the gimso semantics cannot run, naming the construct and
//! its source position ([`location`]); [`prepare`] drops ODR linkage and
//! zeroes `undef`/`poison`; [`translate`] rewrites every function, global
//! and constant to the capability ABI of `include/gimso.h` (checked loads
//! and stores, shadow words for pointers at rest, CC buffers for calls,
//! the unwinder for `invoke`, pollchecks for the collector); [`backend`]
//! cleans the result up and generates the object in process, with
//! [`failure_paths`] and [`fault_map`] adapting it to code generation.
//!
//! The analyses the translation leans on: [`escape`] (which allocas stay
//! plain stack slots), [`inttoptr`] (which capability an `inttoptr` result
//! carries, and which parameters' capabilities callees consume),
//! [`atomic_ptr`], [`intrinsics`] (which intrinsics pass, are handled or are
//! refused) and [`sites`] (the source-location records of failure paths).
//!
//! The pass must be linear in function size, must never crash on valid IR
//! (`llvm-stress` is the fuzz corpus, `tests/stress.rs`), and must compile
//! the same source to the same object every time (`tests/reproducible.rs`).

mod aggregate_fields;
mod asm_safety;
pub mod atomic_ptr;
pub mod backend;
mod byval;
pub mod compile;
pub mod driver;
pub mod escape;
pub mod failure_paths;
pub mod fault_map;
pub mod guards;
mod int_words;
pub mod intrinsics;
pub mod inttoptr;
pub mod kept_locals;
pub mod libc_names;
pub mod llvm;
pub mod location;
pub mod module;
pub mod optimize;
pub mod param_reach;
pub mod personality;
pub mod prepare;
pub mod reject;
pub mod sites;
pub mod thread_locals;
pub mod translate;

pub use location::{Location, Scope, SourceLocation};
pub use module::{LoadError, load_module, parse_module};
pub use reject::{Diagnostic, check_module};
