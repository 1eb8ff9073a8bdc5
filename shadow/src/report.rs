//! Safety reports (docs/safety-reports.md): one report on stderr, then the program stops.
//!
//! ```text
//! gimso: safety error: out-of-bounds write
//!   pointer:    0x00007f3a10000458
//!   capability: lower 0x00007f3a10000450, upper 0x00007f3a10000458 (8 bytes, data object)
//!   operation:  8-byte write
//!   location:   list.c:42:7 in push
//! backtrace:
//!   ...
//! ```

use std::fmt::Write as _;
use std::io::Write as _;

use gimso_abi::{FlightPtr, SAFETY_EXIT_CODE, SAFETY_REPORT_PREFIX, SourceLocation};

use crate::check::Access;
use crate::object::ObjRef;

/// Every kind of safety error the runtime reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SafetyError {
    /// Read outside the capability's bounds.
    OutOfBoundsRead,
    /// Write outside the capability's bounds.
    OutOfBoundsWrite,
    /// Access through the capability of a freed object.
    UseAfterFree,
    /// Access or free through a pointer with the null capability.
    NullCapability,
    /// Pointer or vector access at a misaligned address.
    Misaligned,
    /// Write through a read-only capability.
    WriteToReadonly,
    /// Data access through a special (function, box, ...) capability.
    AccessToSpecial,
    /// `free` of an object already freed.
    DoubleFree,
    /// `free` of a pointer that is not the start of its object.
    InvalidFreeInterior,
    /// `free` of a global variable.
    InvalidFreeGlobal,
    /// `free` of a stack (`alloca`) object.
    InvalidFreeStack,
    /// `free` of a special object (function, ...).
    InvalidFreeSpecial,
    /// `free` of a non-null pointer without a capability.
    InvalidFreeNoCapability,
    /// Call through a capability that is not a function.
    CallNonFunction,
    /// Call through a function capability at an address other than its entry.
    CallWrongAddress,
    /// A callee needs more argument bytes than its caller passed.
    ArgumentSize,
    /// A caller expects more return bytes than its callee returned.
    ReturnSize,
    /// Control reached an LLVM `unreachable`.
    Unreachable,
    /// `indirectbr` (computed goto) to an address that is no label of the function.
    BadIndirectBranch,
    /// A C library call given a `FILE *` that is no open stream object.
    InvalidFile,
    /// A C library call given a `DIR *` that is no directory stream object.
    InvalidDir,
    /// `longjmp` through a `jmp_buf` no `setjmp` filled.
    InvalidJmpBuf,
    /// `longjmp` to a `setjmp` whose function has returned (or that ran on
    /// another thread).
    LongjmpDeadFrame,
    /// A C library call given a `locale_t` that is no live locale object.
    InvalidLocale,
    /// A C library call given an `nl_catd` no open catalog has.
    InvalidCatalog,
}

impl SafetyError {
    /// The text after `gimso: safety error:`; tests match on it.
    pub const fn title(self) -> &'static str {
        match self {
            SafetyError::OutOfBoundsRead => "out-of-bounds read",
            SafetyError::OutOfBoundsWrite => "out-of-bounds write",
            SafetyError::UseAfterFree => "use after free",
            SafetyError::NullCapability => "access through pointer with null capability",
            SafetyError::Misaligned => "misaligned pointer access",
            SafetyError::WriteToReadonly => "write to read-only object",
            SafetyError::AccessToSpecial => "data access through special capability",
            SafetyError::DoubleFree => "double free",
            SafetyError::InvalidFreeInterior => "invalid free of interior pointer",
            SafetyError::InvalidFreeGlobal => "invalid free of global object",
            SafetyError::InvalidFreeStack => "invalid free of stack object",
            SafetyError::InvalidFreeSpecial => "invalid free of special object",
            SafetyError::InvalidFreeNoCapability => "invalid free of pointer with no capability",
            SafetyError::CallNonFunction => "call through non-function pointer",
            SafetyError::CallWrongAddress => "call through function capability at wrong address",
            SafetyError::ArgumentSize => "argument size mismatch",
            SafetyError::ReturnSize => "return size mismatch",
            SafetyError::Unreachable => "unreachable executed",
            SafetyError::BadIndirectBranch => "indirect branch to non-label",
            SafetyError::InvalidFile => "invalid FILE pointer",
            SafetyError::InvalidDir => "invalid DIR pointer",
            SafetyError::InvalidJmpBuf => "invalid jmp_buf",
            SafetyError::LongjmpDeadFrame => "longjmp to a frame no longer on the stack",
            SafetyError::InvalidLocale => "invalid locale_t",
            SafetyError::InvalidCatalog => "invalid nl_catd",
        }
    }
}

/// What the failing operation was, for the report's `operation:` line.
#[derive(Clone, Copy, Debug)]
pub enum Operation {
    /// A load or store.
    Access(Access),
    /// `free`.
    Free,
    /// An indirect call.
    Call,
    /// Another use of a pointer, named for the report (`use as FILE *`).
    Named(&'static str),
}

/// Reports `err` for `p` and stops the program.
///
/// The exit status is 134 unless `GIMSO_ERROR_EXIT_CODE` says otherwise.
#[cold]
#[inline(never)]
pub fn report(err: SafetyError, p: FlightPtr, op: Operation, loc: &SourceLocation) -> ! {
    let text = format_report(err, p, op, loc);
    emit_and_exit(&text)
}

/// Reports `err`, which concerns no pointer, with `detail` lines (each
/// `"  name:  value"`), and stops the program.
#[cold]
#[inline(never)]
pub fn report_detail(err: SafetyError, detail: &str, loc: &SourceLocation) -> ! {
    let mut s = String::with_capacity(1024);
    let _ = writeln!(s, "{SAFETY_REPORT_PREFIX} {}", err.title());
    s.push_str(detail);
    let _ = writeln!(s, "  location:   {}", describe_location(loc));
    s.push_str("backtrace:\n");
    append_backtrace(&mut s);
    emit_and_exit(&s)
}

/// A fatal runtime error (not a safety error): `gimso: fatal error: ...`,
/// with the safety exit status.
#[cold]
#[inline(never)]
pub fn fatal(message: &str) -> ! {
    emit_and_exit(&format!("{} {message}\n", gimso_abi::FATAL_REPORT_PREFIX))
}

fn emit_and_exit(text: &str) -> ! {
    // SAFETY: fflush(NULL) flushes every open C stream; always valid.
    unsafe { libc::fflush(core::ptr::null_mut()) };
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(text.as_bytes());
    let _ = stderr.flush();
    let code = std::env::var("GIMSO_ERROR_EXIT_CODE")
        .ok()
        .and_then(|v| v.trim().parse::<i32>().ok())
        .unwrap_or(SAFETY_EXIT_CODE);
    // SAFETY: _exit ends the process without running anything that could
    // observe the unsafe state the program was about to create.
    unsafe { libc::_exit(code) }
}

/// The report text (without exiting), for reuse by the collector and tests.
pub fn format_report(
    err: SafetyError,
    p: FlightPtr,
    op: Operation,
    loc: &SourceLocation,
) -> String {
    let mut s = String::with_capacity(1024);
    let _ = writeln!(s, "{SAFETY_REPORT_PREFIX} {}", err.title());
    let _ = writeln!(s, "  pointer:    {:#018x}", p.intval());
    if p.lower() == 0 {
        let _ = writeln!(s, "  capability: null");
    } else {
        // SAFETY: a non-zero lower is a runtime-issued capability.
        let obj = unsafe { ObjRef::from_lower(p.lower()) };
        let upper = obj.upper();
        let mut notes = String::from(obj.describe());
        if obj.is_free() {
            notes.push_str(", freed");
        }
        if obj.is_readonly() {
            notes.push_str(", read-only");
        }
        if obj.is_global() {
            notes.push_str(", global");
        }
        if obj.is_stack() {
            notes.push_str(", stack");
        }
        let _ = writeln!(
            s,
            "  capability: lower {:#018x}, upper {:#018x} ({} bytes, {notes})",
            p.lower(),
            upper,
            upper.wrapping_sub(p.lower())
        );
        let offset = p.intval().wrapping_sub(p.lower()) as isize;
        let _ = writeln!(s, "  offset:     {offset} bytes from lower");
    }
    let _ = match op {
        Operation::Access(a) => writeln!(
            s,
            "  operation:  {}-byte {}{}",
            a.size,
            if a.write { "write" } else { "read" },
            if a.align > 1 {
                format!(" (aligned to {})", a.align)
            } else {
                String::new()
            }
        ),
        Operation::Free => writeln!(s, "  operation:  free"),
        Operation::Call => writeln!(s, "  operation:  call"),
        Operation::Named(what) => writeln!(s, "  operation:  {what}"),
    };
    let _ = writeln!(s, "  location:   {}", describe_location(loc));
    s.push_str("backtrace:\n");
    append_backtrace(&mut s);
    s
}

fn c_str(p: *const u8) -> Option<String> {
    if p.is_null() {
        return None;
    }
    // SAFETY: locations come from compiled code's string constants, which
    // are NUL-terminated and immutable.
    let cs = unsafe { core::ffi::CStr::from_ptr(p.cast()) };
    Some(cs.to_string_lossy().into_owned())
}

/// `file:line:column in function` (or what of it is known).
pub fn describe_location(loc: &SourceLocation) -> String {
    match (c_str(loc.file_name()), c_str(loc.function_name())) {
        (None, None) => "unknown (compile with -g for source locations)".to_owned(),
        (file, function) => {
            let mut out = file.unwrap_or_else(|| "<unknown file>".to_owned());
            if loc.line != 0 {
                let _ = write!(out, ":{}", loc.line);
                if loc.column_number() != 0 {
                    let _ = write!(out, ":{}", loc.column_number());
                }
            }
            if let Some(f) = function {
                let _ = write!(out, " in {f}");
            }
            out
        }
    }
}

/// Frames printed at most.
const MAX_FRAMES: usize = 32;

/// Whether reports may symbolise the stack (`GIMSO_BACKTRACE` is not `0`).
///
/// Symbolising reads the executable's debug information, the bulk of a
/// report's cost (about a tenth of a second), which matters to a harness
/// that provokes thousands of reports. Without it a report from compiled
/// code still names its line (compiled in), one from a C library wrapper
/// names none, and neither has a backtrace.
pub fn symbolise() -> bool {
    std::env::var_os("GIMSO_BACKTRACE").is_none_or(|v| v != "0")
}

/// Appends a symbolised backtrace without the reporting machinery's frames
/// (nothing but a note when [`symbolise`] says no).
fn append_backtrace(s: &mut String) {
    if !symbolise() {
        s.push_str("  (not shown: GIMSO_BACKTRACE=0)\n");
        return;
    }
    let bt = std::backtrace::Backtrace::force_capture().to_string();
    let mut frames: Vec<Vec<&str>> = Vec::new();
    for line in bt.lines() {
        let t = line.trim_start();
        let starts_frame = t
            .split_once(':')
            .is_some_and(|(n, _)| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty());
        if starts_frame || frames.is_empty() {
            frames.push(vec![line]);
        } else if let Some(f) = frames.last_mut() {
            f.push(line);
        }
    }
    let internal = |f: &Vec<&str>| {
        let head = f[0];
        head.contains("std::backtrace")
            || head.contains("gimso_shadow::report")
            || head.contains("gimso_shadow::")
            || head.contains("gimso::capi::")
            || head.contains("gimso_libc_wrappers::report")
    };
    let skip = frames
        .iter()
        .take_while(|f| {
            // Also the C API entry that reported (`gimso_access_failed`, ...).
            let runtime_export = f[0]
                .trim_start()
                .split_once(": ")
                .is_some_and(|(_, name)| name.starts_with("gimso_"));
            internal(f) || runtime_export || f[0].contains("__rust")
        })
        .count();
    let mut n = 0;
    let mut previous = "";
    for f in frames.iter().skip(skip) {
        if n == MAX_FRAMES {
            break;
        }
        let symbol = f[0]
            .trim_start()
            .split_once(": ")
            .map_or(f[0], |(_, name)| name);
        // Compiled functions are `gimso.fn.NAME` and `gimso.fd.NAME.HASH`
        // (gimso.h); show NAME.
        let name = gimso_abi::compiled_function_name(symbol).unwrap_or(symbol);
        // A generic entry calling its function's body is one C frame.
        let entry_of_previous =
            symbol.starts_with(gimso_abi::SYMBOL_FN_PREFIX) && f.len() == 1 && name == previous;
        previous = name;
        if entry_of_previous {
            continue;
        }
        let _ = writeln!(s, "  #{n:<2} {name}");
        n += 1;
        for line in &f[1..] {
            let _ = writeln!(s, "        {}", line.trim_start());
        }
    }
}
