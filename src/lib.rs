//! The gimso runtime library: `libgimso.a` / `libgimso.so`.
//!
//! This crate only binds the member crates to the stable C ABI declared in
//! `include/gimso.h`; every behaviour lives below it:
//! `gimso-abi` (layouts), `gimso-heap` (memory), `gimso-shadow` (capability
//! objects), `gimso-atomics` (the pointer-slot protocol), `gimso-gc`,
//! `gimso-unwind` and `gimso-libc-wrappers` (the C library surface).

pub mod capi;
pub mod compiled;
pub mod mutator;
pub mod preserve_most;
pub mod tls;

pub use gimso_abi as abi;
pub use gimso_atomics as atomics;
pub use gimso_gc as gc;
pub use gimso_heap as heap;
pub use gimso_libc_wrappers as libc_wrappers;
pub use gimso_shadow as shadow;
