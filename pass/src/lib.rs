//! The gimso compiler pass: an LLVM 16 IR → IR translator (DESIGN.md §8).
//!
//! # Status of this crate
//!
//! **So far the crate loads modules, rejects unsupported constructs, runs the
//! first preparatory rewrite and the `inttoptr` analysis; the translation to
//! capabilities is not written yet.**
//!
//! - [`module`]: load `.ll`/`.bc` into an inkwell [`inkwell::module::Module`]
//!   and run the LLVM verifier, with a Rust error type ([`LoadError`]).
//! - [`reject`]: [`check_module`] walks every global, function, block and
//!   instruction and returns *all* uses of what the gimso semantics rejects:
//!   pointers outside address space 0, `callbr`, the funclet EH instructions
//!   (`catchswitch`, `catchpad`, `cleanuppad`, `catchret`, `cleanupret`),
//!   `alloca inalloca`, and inline assembly that is not register-only
//!   ([`asm_safety`]: which templates are safe, and what their pointer
//!   results carry).
//! - [`location`]: source positions from `!dbg` for clang-style diagnostics.
//! - [`intrinsics`]: which intrinsics pass, which the translation handles,
//!   which are rejected (the checker reports the rejected ones).
//! - [`prepare`]: the first rewrite: ODR and `available_externally`
//!   linkage dropped, `undef`/`poison` operands and initialisers zeroed.
//! - [`driver`]: the `gimso-cc` command line (parsing only so far).
//! - [`escape`]: which allocas may stay plain stack slots (private and
//!   provably in bounds) and which become capability objects.
//! - [`sites`]: `gimso_source_location` records for the runtime's check
//!   failure paths, one per distinct source location.
//! - [`inttoptr`]: the spec's abstract interpreter that decides which
//!   capability an `inttoptr` result carries (analysis only for now).
//!
//! # Planned architecture (later steps)
//!
//! 1. **Prepare**: drop ODR/`available_externally` linkage, replace `undef`
//!    and `poison` with zero (spec "Constants And Linking").
//! 2. **Translate** each function: every `ptr` value becomes the pair
//!    `(intval, lower)`; loads/stores get bounds checks (inline fast path) and
//!    shadow-word accesses for pointers at rest; `alloca` becomes a
//!    zero-initialised capability allocation; GEP keeps the capability;
//!    `inttoptr` yields a null capability; atomics on `ptr` use atomic boxes.
//! 3. **Calls**: arguments and returns pass through CC buffers (DESIGN §6);
//!    `invoke`/`landingpad`/`resume` map onto the runtime's Itanium unwinder;
//!    pollchecks at loop back edges and calls for the concurrent collector.
//! 4. **Globals and constants**: global initialisers become runtime-registered
//!    capabilities; intrinsics (`memcpy`, `memmove`, `memset`) and libc
//!    builtins route through checked runtime entry points.
//! 5. **Verify and write** the module; the `gimso-cc` driver runs
//!    `clang-16 -O<n> -emit-llvm` → this pass → `clang-16 -c` → link `libgimso.a`.
//!
//! The pass must be linear in function size and must never crash on valid
//! IR (`llvm-stress` is the fuzz corpus).

mod asm_safety;
pub mod atomic_ptr;
pub mod backend;
mod byval;
pub mod driver;
pub mod escape;
pub mod failure_paths;
pub mod fault_map;
mod int_words;
pub mod intrinsics;
pub mod inttoptr;
mod ir;
pub mod libc_names;
pub mod location;
pub mod module;
pub mod optimize;
pub mod personality;
pub mod prepare;
pub mod reject;
pub mod sites;
pub mod translate;

pub use location::{Location, Scope, SourceLocation};
pub use module::{LoadError, load_module, parse_module};
pub use reject::{Diagnostic, check_module};
