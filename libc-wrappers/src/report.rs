//! Safety reports raised by the wrappers themselves (argument and return
//! sizes, misused `FILE` pointers, exceptions that reach a wrapper), in the
//! format of `gimso_shadow::report` (docs/safety-reports.md).

use gimso_abi::{FlightPtr, SourceLocation};
use gimso_shadow::ObjRef;
use gimso_shadow::report::{Operation, SafetyError, report_detail};

/// The source location of the compiled code that called the innermost
/// wrapper on this thread's stack, from the debug information of its
/// frame (ABI v1 passes wrappers no location). Only for reports: it
/// captures a backtrace and leaks the strings it returns; unknown when
/// reports must not symbolise ([`gimso_shadow::report::symbolise`]).
#[cold]
#[inline(never)]
pub fn caller_location() -> &'static SourceLocation {
    if !gimso_shadow::report::symbolise() {
        return &SourceLocation::UNKNOWN;
    }
    let bt = std::backtrace::Backtrace::force_capture().to_string();
    let mut frames: Vec<(String, Option<String>)> = Vec::new();
    for line in bt.lines() {
        let t = line.trim_start();
        match t.split_once(": ") {
            Some((n, name)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => {
                frames.push((name.to_owned(), None));
            }
            _ => {
                if let (Some(at), Some(f)) = (t.strip_prefix("at "), frames.last_mut()) {
                    f.1.get_or_insert_with(|| at.to_owned());
                }
            }
        }
    }
    let prefix = gimso_abi::SYMBOL_FN_PREFIX;
    let Some(wrapper) = frames.iter().position(|(n, _)| n.starts_with(prefix)) else {
        return &SourceLocation::UNKNOWN;
    };
    let Some((name, Some(at))) = frames.get(wrapper + 1) else {
        return &SourceLocation::UNKNOWN;
    };
    let mut parts = at.rsplitn(3, ':');
    let (col, line, file) = (parts.next(), parts.next(), parts.next());
    let (Some(file), Some(line), Some(col)) = (file, line, col) else {
        return &SourceLocation::UNKNOWN;
    };
    let leak = |s: &str| -> *const u8 {
        match std::ffi::CString::new(s) {
            Ok(c) => c.into_raw().cast_const().cast(),
            Err(_) => core::ptr::null(),
        }
    };
    let function = gimso_abi::compiled_function_name(name).unwrap_or(name);
    Box::leak(Box::new(SourceLocation {
        file: leak(file),
        function: leak(function),
        line: line.parse().unwrap_or(0),
        column: col.parse().unwrap_or(0),
    }))
}

/// A call passed fewer argument bytes than wrapper `name` needs.
#[cold]
#[inline(never)]
pub fn argument_size(name: &str, needed: u64, given: u64) -> ! {
    let detail = format!(
        "  function:   {name}\n  needed:     {needed} argument bytes\n  given:      {given} argument bytes\n"
    );
    report_detail(SafetyError::ArgumentSize, &detail, caller_location())
}

/// Compiled code called from a wrapper returned fewer bytes than expected.
#[cold]
#[inline(never)]
pub fn return_size(what: &str, expected: u64, given: u64) -> ! {
    let detail = format!(
        "  function:   {what}\n  expected:   {expected} return bytes\n  given:      {given} return bytes\n"
    );
    report_detail(SafetyError::ReturnSize, &detail, caller_location())
}

/// A failed access check in a wrapper, reported at its caller's location.
#[inline(always)]
pub fn access(p: FlightPtr, access: gimso_shadow::Access) -> ObjRef {
    access_parts(p, access.size, access.align, access.write)
}

/// [`access`] with the access in registers: an `Access` is 24 bytes, which
/// Rust passes through memory, and the caller's fast path would store it
/// before every check.
#[cold]
#[inline(never)]
fn access_parts(p: FlightPtr, size: usize, align: usize, write: bool) -> ObjRef {
    let access = gimso_shadow::Access { size, align, write };
    gimso_shadow::check::access_failed(p, access, caller_location())
}

/// A refused `free` (or `realloc`), reported at the caller's location.
#[cold]
#[inline(never)]
pub fn free(err: SafetyError, p: FlightPtr) -> ! {
    gimso_shadow::report::report(err, p, Operation::Free, caller_location())
}

/// A refused call through a function pointer, at the caller's location.
#[cold]
#[inline(never)]
pub fn call(err: SafetyError, f: FlightPtr) -> ! {
    gimso_shadow::report::report(err, f, Operation::Call, caller_location())
}

/// A pointer misused in a way only the wrappers see (a `FILE *` that is
/// no stream), reported at the caller's location.
#[cold]
#[inline(never)]
pub fn pointer_error(err: SafetyError, p: FlightPtr, operation: &'static str) -> ! {
    gimso_shadow::report::report(err, p, Operation::Named(operation), caller_location())
}

/// A warning on stderr (`gimso: warning: ...`); the program goes on.
pub fn warning(message: &str) {
    eprintln!("gimso: warning: {message}");
}

/// A fatal runtime error (not a safety error): `gimso: fatal error: ...`.
pub fn fatal(message: &str) -> ! {
    gimso_shadow::report::fatal(message)
}
