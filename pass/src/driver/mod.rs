//! The `gimso-cc` driver (docs/gimso-cc.md): a drop-in C compiler command line.
//!
//! - [`flag_table`]: every option the driver knows, and what becomes of it
//!   (refused, a mode, a setting, or which half of the pipeline gets it).
//! - [`args`]: the command line, parsed into an [`args::Invocation`].
//! - [`pipeline`]: running it: `clang-16 -O<n> -emit-llvm` (with the
//!   [`flags`] that keep UB-based deletions away from memory operations) →
//!   the pass in process ([`pass_step`]) → code generation → link with
//!   `libgimso.a` ([`toolchain`] finds it and the linker; [`link_errors`]
//!   rewrites what the linker says about gimso's symbols).
//! - [`errors`], [`diagnostics`], [`panics`], [`temp`], [`environment`]:
//!   what every step shares.
//! - [`main`]: the whole program, for the thin `gimso-cc` binary.

pub mod args;
pub mod diagnostics;
pub mod environment;
pub mod errors;
pub mod flag_table;
pub mod flags;
pub mod link_errors;
pub mod panics;
pub mod pass_step;
pub mod pipeline;
pub mod temp;
pub mod toolchain;

/// Runs `gimso-cc` with `args` (without the program name) in the process's
/// environment and returns the exit status.
pub fn main(args: &[String]) -> i32 {
    main_as(args, invoked_as_cxx())
}

/// Whether the program was started as `gimso-c++` (or `gimso-cxx`).
fn invoked_as_cxx() -> bool {
    std::env::args_os()
        .next()
        .map(std::path::PathBuf::from)
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .is_some_and(|n| n.ends_with("++") || n.ends_with("cxx"))
}

/// Runs the driver for C (`gimso-cc`) or C++ (`gimso-c++`).
pub fn main_as(args: &[String], cxx: bool) -> i32 {
    panics::install_panic_hook();
    let inv = match args::parse_as(args, cxx) {
        Ok(inv) => inv,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let env = environment::Environment::from_process();
    match pipeline::run(&inv, &env) {
        Ok(()) => 0,
        Err(e) => {
            if let Some(msg) = e.message() {
                eprintln!("{msg}");
            }
            e.exit_code()
        }
    }
}
