//! Safety reports raised by the wrappers themselves (argument and return
//! sizes, misused `FILE` pointers, exceptions that reach a wrapper), in the
//! format of `gimso_shadow::report` (DESIGN §9).

use std::fmt::Write as _;
use std::io::Write as _;

use gimso_abi::{FlightPtr, SAFETY_EXIT_CODE, SAFETY_REPORT_PREFIX, SourceLocation};
use gimso_shadow::ObjRef;
use gimso_shadow::report::{Operation, SafetyError, report_detail};

/// The source location of the compiled code that called the innermost
/// wrapper on this thread's stack, from the debug information of its
/// frame (ABI v1 passes wrappers no location). Only for reports: it
/// captures a backtrace and leaks the strings it returns.
#[cold]
#[inline(never)]
pub fn caller_location() -> &'static SourceLocation {
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
    let function = name.strip_prefix(prefix).unwrap_or(name);
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
#[cold]
#[inline(never)]
pub fn access(p: FlightPtr, access: gimso_shadow::Access) -> ObjRef {
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

/// A safety error whose kind only the wrappers know (such as "invalid FILE
/// pointer"), about pointer `p`, reported like the runtime's own.
#[cold]
#[inline(never)]
pub fn pointer_error(title: &str, p: FlightPtr, operation: &str) -> ! {
    let mut s = String::with_capacity(1024);
    let _ = writeln!(s, "{SAFETY_REPORT_PREFIX} {title}");
    let _ = writeln!(s, "  pointer:    {:#018x}", p.intval);
    if p.lower == 0 {
        let _ = writeln!(s, "  capability: null");
    } else {
        // SAFETY: a non-zero lower is a runtime-issued capability.
        let obj = unsafe { ObjRef::from_lower(p.lower) };
        let upper = obj.upper();
        let mut notes = String::from(obj.describe());
        if obj.is_free() {
            notes.push_str(", freed");
        }
        if obj.is_global() {
            notes.push_str(", global");
        }
        let _ = writeln!(
            s,
            "  capability: lower {:#018x}, upper {:#018x} ({} bytes, {notes})",
            p.lower,
            upper,
            upper.wrapping_sub(p.lower)
        );
    }
    let _ = writeln!(s, "  operation:  {operation}");
    let _ = writeln!(s, "  location:   {}", describe(caller_location()));
    s.push_str("backtrace:\n");
    append_backtrace(&mut s);
    emit(&s, exit_code())
}

/// Frames printed at most.
const MAX_FRAMES: usize = 32;

/// Appends a symbolised backtrace in the runtime's format, without the
/// reporting machinery's own frames.
fn append_backtrace(s: &mut String) {
    let bt = std::backtrace::Backtrace::force_capture().to_string();
    let mut frames: Vec<Vec<&str>> = Vec::new();
    for line in bt.lines() {
        let t = line.trim_start();
        let starts_frame = t
            .split_once(':')
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        match frames.last_mut() {
            Some(f) if !starts_frame => f.push(line),
            _ => frames.push(vec![line]),
        }
    }
    let internal = |f: &Vec<&str>| {
        let head = f[0];
        head.contains("std::backtrace")
            || head.contains("gimso_libc_wrappers::report")
            || head.contains("__rust")
    };
    let skip = frames.iter().take_while(|f| internal(f)).count();
    for (n, f) in frames.iter().skip(skip).take(MAX_FRAMES).enumerate() {
        let name = f[0]
            .trim_start()
            .split_once(": ")
            .map_or(f[0], |(_, name)| name);
        let name = name
            .strip_prefix(gimso_abi::SYMBOL_FN_PREFIX)
            .unwrap_or(name);
        let _ = writeln!(s, "  #{n:<2} {name}");
        for line in &f[1..] {
            let _ = writeln!(s, "        {}", line.trim_start());
        }
    }
}

fn describe(loc: &SourceLocation) -> String {
    let text = |p: *const u8| {
        // SAFETY: location strings are NUL-terminated and never freed.
        (!p.is_null()).then(|| unsafe { core::ffi::CStr::from_ptr(p.cast()) }.to_string_lossy())
    };
    match (text(loc.file), text(loc.function)) {
        (None, None) => "unknown (compile with -g for source locations)".to_owned(),
        (file, function) => {
            let mut out = file.map_or_else(|| "<unknown file>".to_owned(), |f| f.into_owned());
            if loc.line != 0 {
                let _ = write!(out, ":{}", loc.line);
                if loc.column != 0 {
                    let _ = write!(out, ":{}", loc.column);
                }
            }
            if let Some(f) = function {
                let _ = write!(out, " in {f}");
            }
            out
        }
    }
}

/// A fatal runtime error (not a safety error): `gimso: fatal error: ...`.
#[cold]
#[inline(never)]
pub fn fatal(message: &str) -> ! {
    emit(
        &format!("{} {message}\n", gimso_abi::FATAL_REPORT_PREFIX),
        exit_code(),
    )
}

fn exit_code() -> i32 {
    std::env::var("GIMSO_ERROR_EXIT_CODE")
        .ok()
        .and_then(|v| v.trim().parse::<i32>().ok())
        .unwrap_or(SAFETY_EXIT_CODE)
}

fn emit(text: &str, code: i32) -> ! {
    // SAFETY: fflush(NULL) flushes every open C stream; always valid.
    unsafe { libc::fflush(core::ptr::null_mut()) };
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
    // SAFETY: _exit ends the process at once, as every safety report does.
    unsafe { libc::_exit(code) }
}
