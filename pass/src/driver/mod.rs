//! The `gimso-cc` driver (DESIGN §8): a drop-in C compiler command line.
//! This step parses the command line into an [`args::Invocation`]; running
//! the pipeline (`clang-16 -O<n> -emit-llvm` → pass → `clang-16 -c` → link
//! with `libgimso.a`) comes with the translation.

pub mod args;
