//! LLVM's fatal errors (`report_fatal_error`) routed to a Rust function.

use std::sync::Mutex;

/// The handler [`install_fatal_error_handler`] installed last.
static HANDLER: Mutex<Option<fn(&str)>> = Mutex::new(None);

/// Has LLVM call `handler` with its reason (`unknown` when it gives none)
/// on a fatal error, instead of printing the reason itself; LLVM exits
/// when the handler returns.
#[track_caller]
pub fn install_fatal_error_handler(handler: fn(&str)) {
    if let Ok(mut h) = HANDLER.lock() {
        *h = Some(handler);
    }
    // SAFETY: installs a plain function that stays valid for the whole
    // process; LLVM calls it with null or a NUL-terminated reason.
    unsafe { inkwell::llvm_sys::error_handling::LLVMInstallFatalErrorHandler(Some(on_fatal_error)) }
}

extern "C" fn on_fatal_error(reason: *const std::ffi::c_char) {
    let reason = if reason.is_null() {
        "unknown".to_owned()
    } else {
        // SAFETY: LLVM passes a valid NUL-terminated string.
        unsafe { std::ffi::CStr::from_ptr(reason) }
            .to_string_lossy()
            .into_owned()
    };
    // Copied out so the lock is not held while the handler runs (it may
    // not return).
    let handler = HANDLER.lock().ok().and_then(|h| *h);
    if let Some(handler) = handler {
        handler(&reason);
    }
}
