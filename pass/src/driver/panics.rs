//! A panic in the pass is an internal compiler error with a clear
//! message and exit status, never a Rust panic message.

use std::path::PathBuf;

use super::errors::*;

/// What the panic hook needs: the source being compiled and the temporary
/// directories to remove (the workspace builds with `panic = "abort"`, so
/// no destructor runs after a panic).
pub(super) struct PanicState {
    /// The source being compiled, named in the report.
    pub(super) source: Option<PathBuf>,
    /// Temporary directories to remove (or keep, when `true`) on the way
    /// out.
    pub(super) temp_dirs: Vec<(PathBuf, bool)>,
}

static PANIC_STATE: std::sync::Mutex<PanicState> = std::sync::Mutex::new(PanicState {
    source: None,
    temp_dirs: Vec::new(),
});

pub(super) fn with_panic_state(f: impl FnOnce(&mut PanicState)) {
    // `try_lock`: never block (or die) inside the panic hook.
    if let Ok(mut state) = PANIC_STATE.try_lock() {
        f(&mut state);
    }
}

/// Makes a panic anywhere in the process an internal compiler error: the
/// message names the source being compiled, the temporary directories are
/// removed (unless kept) and the process exits with [`EXIT_INTERNAL`]
/// instead of aborting. The binary installs it; [`run_pass`](super::pass_step::run_pass) also catches
/// panics itself where unwinding is enabled (tests).
pub fn install_panic_hook() {
    crate::llvm::install_fatal_error_handler(llvm_fatal_error);
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        internal_exit(&format!("panic{place}: {}", panic_message(info.payload())));
    }));
}

/// LLVM's `report_fatal_error` (it exits afterwards): the same internal
/// compiler error as a panic.
fn llvm_fatal_error(reason: &str) {
    internal_exit(&format!("LLVM fatal error: {reason}"));
}

/// Reports an internal compiler error while compiling the current source,
/// removes the temporary directories and exits with [`EXIT_INTERNAL`].
pub(super) fn internal_exit(what: &str) -> ! {
    let mut source = None;
    let mut dirs = Vec::new();
    with_panic_state(|state| {
        source = state.source.clone();
        dirs = std::mem::take(&mut state.temp_dirs);
    });
    let compiling = source
        .map(|s| format!("compiling {}: ", s.display()))
        .unwrap_or_default();
    eprintln!("{}", DriverError::Internal(format!("{compiling}{what}")));
    for (dir, keep) in dirs {
        if keep {
            eprintln!("gimso-cc: keeping temporary files in {}", dir.display());
        } else {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    std::process::exit(EXIT_INTERNAL);
}

pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic payload".to_owned())
}
