//! The driver's errors: each one a value, printed once.

use std::fmt;
use std::io;

use super::toolchain::*;

/// Exit status of an internal compiler error (`EX_SOFTWARE`).
pub const EXIT_INTERNAL: i32 = 70;

/// Why a `gimso-cc` run failed. [`DriverError::message`] is what is left
/// to print (some failures have printed their output already) and
/// [`DriverError::exit_code`] the process status.
#[derive(Debug)]
pub enum DriverError {
    /// A clang process failed; it printed its own errors.
    Tool { program: String, code: i32 },
    /// A program could not be started.
    Spawn { program: String, error: io::Error },
    /// The pass reported (and printed) this many diagnostics.
    Diagnostics { count: usize },
    /// A bug in gimso: a translated module LLVM rejects, a panic, a
    /// front-half output that does not load.
    Internal(String),
    /// `libgimso.a` was not found.
    RuntimeNotFound(RuntimeNotFound),
    /// The C++ standard library built by gimso-c++ is not next to the
    /// runtime (this directory was searched).
    CxxLibraryMissing(std::path::PathBuf),
    /// A file could not be read, written or created.
    Io { what: String, error: io::Error },
    /// The link failed; its (rewritten) output has been printed.
    Link { code: i32 },
    /// Several sources failed; each error has been printed already.
    Reported { code: i32 },
}

impl DriverError {
    /// The process exit status for this failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            DriverError::Tool { code, .. }
            | DriverError::Link { code }
            | DriverError::Reported { code } => *code,
            DriverError::Internal(_) => EXIT_INTERNAL,
            _ => 1,
        }
    }

    /// What still has to be printed on stderr, if anything.
    pub fn message(&self) -> Option<String> {
        match self {
            DriverError::Tool { .. }
            | DriverError::Diagnostics { .. }
            | DriverError::Link { .. }
            | DriverError::Reported { .. } => None,
            _ => Some(self.to_string()),
        }
    }
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriverError::Tool { program, code } => {
                write!(f, "gimso-cc: error: {program} failed with exit code {code}")
            }
            DriverError::Spawn { program, error } => write!(
                f,
                "gimso-cc: error: cannot run '{program}': {error} (gimso-cc needs clang-16; \
                 set GIMSO_CLANG to use another clang 16 binary)"
            ),
            DriverError::Diagnostics { count } => write!(
                f,
                "{count} error{} generated.",
                if *count == 1 { "" } else { "s" }
            ),
            DriverError::Internal(msg) => write!(
                f,
                "gimso-cc: internal compiler error: {msg}\n\
                 gimso-cc: note: this is a bug in gimso; please report it with the source \
                 file (GIMSO_KEEP_TEMPS=1 keeps the intermediate files)"
            ),
            DriverError::RuntimeNotFound(e) => write!(f, "{e}"),
            DriverError::CxxLibraryMissing(dir) => write!(
                f,
                "gimso-c++: error: the C++ standard library is not built (no {}): run \
                 scripts/build-libcxx.sh in the gimso checkout, which compiles LLVM's libc++ \
                 with gimso-c++ (about a minute on 2 cores)",
                dir.join("STAMP").display()
            ),
            DriverError::Io { what, error } => write!(f, "gimso-cc: error: {what}: {error}"),
            DriverError::Link { code } => {
                write!(f, "gimso-cc: error: linking failed with exit code {code}")
            }
            DriverError::Reported { code } => {
                write!(f, "gimso-cc: error: compilation failed (exit code {code})")
            }
        }
    }
}

impl std::error::Error for DriverError {}

pub(super) fn print_error(e: &DriverError) {
    if let Some(msg) = e.message() {
        eprintln!("{msg}");
    }
}

/// A process's exit status as a shell reports it (128 + signal).
pub(super) fn exit_code_of(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(1)
}
