//! The process environment the driver reads, captured once.

use std::ffi::OsString;
use std::path::PathBuf;

use super::toolchain::*;

/// What the driver takes from its surroundings; [`Environment::from_process`]
/// reads the real ones, tests build their own.
#[derive(Clone, Debug, Default)]
pub struct Environment {
    /// The clang to run (`$GIMSO_CLANG`, default [`DEFAULT_CLANG`]).
    pub clang: OsString,
    /// The running `gimso-cc` binary (`libgimso.a` is looked for next to it).
    pub exe: Option<PathBuf>,
    /// `$GIMSO_LIBDIR`.
    pub env_libdir: Option<PathBuf>,
    /// `$GIMSO_KEEP_TEMPS` set to anything but empty or `0`.
    pub keep_temps: bool,
    /// The working directory (diagnostics name files relative to it).
    pub cwd: Option<PathBuf>,
}

impl Environment {
    /// The process's environment.
    pub fn from_process() -> Self {
        let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Environment {
            clang: non_empty("GIMSO_CLANG").unwrap_or_else(|| DEFAULT_CLANG.into()),
            exe: std::env::current_exe().ok(),
            env_libdir: non_empty("GIMSO_LIBDIR").map(PathBuf::from),
            keep_temps: non_empty("GIMSO_KEEP_TEMPS").is_some_and(|v| v != "0"),
            cwd: std::env::current_dir().ok(),
        }
    }
}
