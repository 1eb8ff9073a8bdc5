//! The standard streams and the program's `FILE` objects.
//!
//! `stdin`, `stdout` and `stderr` are global variables of the program
//! (`gimso.obj.stdin`, ...) holding pointers to `FILE` special objects,
//! whose payload names the real libc stream. Streams the program opens
//! (`fopen`, `fdopen`, `tmpfile`, `popen`) get a fresh `FILE` special
//! object of their own whose payload word is the libc `FILE *`; closing
//! one frees the object, so any later use is a use after free.

use gimso_abi::{FlightPtr, SpecialKind};
use gimso_shadow::ObjRef;
use gimso_shadow::report::SafetyError;

use crate::mem;
use crate::object::{PointerGlobal, SpecialObject};
use crate::{errno, report};

unsafe extern "C" {
    #[link_name = "stdin"]
    static mut C_STDIN: *mut libc::FILE;
    #[link_name = "stdout"]
    static mut C_STDOUT: *mut libc::FILE;
    #[link_name = "stderr"]
    static mut C_STDERR: *mut libc::FILE;
}

/// Payload word of the standard streams' `FILE` objects: which stream.
const STDIN_WORD: u64 = 0;
const STDOUT_WORD: u64 = 1;
const STDERR_WORD: u64 = 2;

/// The `FILE` object of `stdin`.
pub static STDIN_FILE: SpecialObject =
    SpecialObject::new(&raw const STDIN_FILE, SpecialKind::File, STDIN_WORD);
/// The `FILE` object of `stdout`.
pub static STDOUT_FILE: SpecialObject =
    SpecialObject::new(&raw const STDOUT_FILE, SpecialKind::File, STDOUT_WORD);
/// The `FILE` object of `stderr`.
pub static STDERR_FILE: SpecialObject =
    SpecialObject::new(&raw const STDERR_FILE, SpecialKind::File, STDERR_WORD);

/// `extern FILE *stdin`.
#[unsafe(export_name = "gimso.obj.stdin")]
pub static STDIN: PointerGlobal = PointerGlobal::new(
    &raw const STDIN,
    SpecialObject::payload_address(&raw const STDIN_FILE),
);
/// `extern FILE *stdout`.
#[unsafe(export_name = "gimso.obj.stdout")]
pub static STDOUT: PointerGlobal = PointerGlobal::new(
    &raw const STDOUT,
    SpecialObject::payload_address(&raw const STDOUT_FILE),
);
/// `extern FILE *stderr`.
#[unsafe(export_name = "gimso.obj.stderr")]
pub static STDERR: PointerGlobal = PointerGlobal::new(
    &raw const STDERR,
    SpecialObject::payload_address(&raw const STDERR_FILE),
);

/// Registers the stream variables with the collector (the program may
/// store other streams in them). Idempotent.
pub fn register_streams() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for g in [&STDIN, &STDOUT, &STDERR] {
            gimso_gc::register_global_object(g.lower());
        }
    });
}

/// A libc stream (`FILE *` of the C library the runtime links against).
/// Only this module makes them, from `FILE` objects that passed the check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stream(*mut libc::FILE);

impl Stream {
    /// The libc `FILE *`.
    pub fn as_ptr(self) -> *mut libc::FILE {
        self.0
    }
}

/// libc's stream behind a standard stream's payload word.
fn libc_stream(word: u64) -> Stream {
    // SAFETY: reading libc's stream pointers (set before main, never
    // changed by the runtime).
    Stream(unsafe {
        match word {
            STDIN_WORD => (&raw const C_STDIN).read(),
            STDOUT_WORD => (&raw const C_STDOUT).read(),
            STDERR_WORD => (&raw const C_STDERR).read(),
            other => other as usize as *mut libc::FILE,
        }
    })
}

/// The libc stream behind the program's `FILE *` `p`, after checking it
/// is a `FILE` object (null, freed and other objects are safety errors).
pub fn stream(p: FlightPtr) -> Stream {
    if p.lower() == 0 {
        report::pointer_error(SafetyError::NullCapability, p, "use as FILE *");
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    if obj.is_free() {
        report::pointer_error(SafetyError::UseAfterFree, p, "use as FILE *");
    }
    if obj.kind() != Some(SpecialKind::File) || p.intval() != p.lower() {
        report::pointer_error(SafetyError::InvalidFile, p, "use as FILE *");
    }
    // SAFETY: FILE objects have a one-word runtime-private payload.
    let word = unsafe { (p.lower() as *const u64).read() };
    libc_stream(word)
}

/// The stream the program's `stdout` variable currently names (it may
/// have been assigned or closed: the check applies as for any `FILE *`).
pub fn program_stdout() -> Stream {
    stream(mem::load_ptr(STDOUT.pointer()))
}

/// The stream the program's `stderr` variable currently names.
pub fn program_stderr() -> Stream {
    stream(mem::load_ptr(STDERR.pointer()))
}

/// The stream the program's `stdin` variable currently names.
pub fn program_stdin() -> Stream {
    stream(mem::load_ptr(STDIN.pointer()))
}

/// libc's own `stdout` (for the runtime's messages and flushing).
pub fn c_stdout() -> Stream {
    libc_stream(STDOUT_WORD)
}

/// libc's own `stderr` (for the runtime's messages).
pub fn c_stderr() -> Stream {
    libc_stream(STDERR_WORD)
}

/// Writes `bytes` to `f` (exited: the write may block); true if all went.
pub fn write_stream(f: Stream, bytes: &[u8]) -> bool {
    if bytes.is_empty() {
        return true;
    }
    let n = gimso_gc::exited(|| {
        // SAFETY: `f` is a libc stream and `bytes` a live Rust buffer.
        unsafe { libc::fwrite(bytes.as_ptr().cast(), 1, bytes.len(), f.0) }
    });
    if n != bytes.len() {
        errno::sync_from_libc();
        return false;
    }
    true
}

/// Runs libc stream I/O while exited (it may block).
pub(super) fn exited_io<R>(f: impl FnOnce() -> R) -> R {
    gimso_gc::exited(f)
}

/// A new `FILE` object for the libc stream `f` (a safepoint).
pub(super) fn new_file(f: *mut libc::FILE) -> FlightPtr {
    let obj = mem::with_local(|l| gimso_shadow::alloc_special(l, SpecialKind::File, 8, 0));
    // SAFETY: FILE objects have a one-word runtime-private payload.
    unsafe { (obj.lower() as *mut u64).write(f as usize as u64) };
    obj.flight_ptr()
}

/// The `FILE` object `p` (already checked by [`stream`]) now names the
/// libc stream `f` (`freopen` may move it).
pub(super) fn set_file(p: FlightPtr, f: *mut libc::FILE) {
    let word = match f {
        // SAFETY: reading libc's stream pointers.
        f if f == unsafe { (&raw const C_STDIN).read() } => STDIN_WORD,
        // SAFETY: as above.
        f if f == unsafe { (&raw const C_STDOUT).read() } => STDOUT_WORD,
        // SAFETY: as above.
        f if f == unsafe { (&raw const C_STDERR).read() } => STDERR_WORD,
        f => f as usize as u64,
    };
    // SAFETY: stream() checked that p.lower is a live FILE object, whose
    // one-word payload is runtime-private.
    unsafe { (p.lower() as *mut u64).write(word) };
}

/// Marks the `FILE` object `p` (checked by [`stream`]) freed: every later
/// use is a use after free. Forgets whether it came from `popen`.
pub(super) fn free_file(p: FlightPtr) {
    // SAFETY: stream() checked that p.lower is a live FILE object.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    obj.header()
        .aux
        .fetch_or(gimso_abi::FLAG_FREE, core::sync::atomic::Ordering::AcqRel);
    forget_pipe(p);
}

/// The `FILE` objects `popen` made and `pclose` has not closed yet.
static PIPES: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());

/// Records that the `FILE` object `p` came from `popen`.
pub(super) fn add_pipe(p: FlightPtr) {
    PIPES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(p.lower());
}

/// Whether the `FILE` object `p` came from `popen`.
pub(super) fn is_pipe(p: FlightPtr) -> bool {
    PIPES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .contains(&p.lower())
}

fn forget_pipe(p: FlightPtr) {
    PIPES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .retain(|&l| l != p.lower());
}
