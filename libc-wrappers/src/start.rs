//! Program start and end: `gimso_start_main` (the real `main`), `exit`
//! and its `atexit` handlers, `abort`, and `__assert_fail`.

use core::ffi::{c_char, c_int};

use gimso_abi::{EntryFn, FlightPtr};
use parking_lot::Mutex;

use crate::call::{Callee, CcArg};
use crate::mem;
use crate::stdio;
use crate::wrapper;

/// Builds a NULL-terminated array of `n` C strings as GC objects (the
/// strings, and the array of pointers to them with their capabilities in
/// shadow storage). The array is registered as a global: like a real
/// process's `argv`, it lives for the rest of the program.
///
/// # Safety
/// `strings` points at `n` valid NUL-terminated strings (or `n == 0`).
pub unsafe fn build_string_array(strings: *const *const c_char, n: usize) -> FlightPtr {
    let array = mem::alloc((n + 1) * 8, 16, 0);
    gimso_gc::register_global_object(array.lower());
    for i in 0..n {
        // SAFETY: the caller passes n valid C strings.
        let s = unsafe { core::ffi::CStr::from_ptr(*strings.add(i)) };
        // An allocation is a safepoint: the array is rooted (global), and
        // each string is stored into it before the next allocation.
        let obj = mem::alloc_c_string(s.to_bytes(), false);
        mem::store_ptr(array.offset(8 * i as isize), obj);
    }
    array
}

/// Number of entries before the NULL of a NULL-terminated array.
///
/// # Safety
/// `p` is null or a NULL-terminated array of pointers.
unsafe fn count_entries(p: *const *const c_char) -> usize {
    if p.is_null() {
        return 0;
    }
    let mut n = 0;
    // SAFETY: the array is NULL-terminated (contract).
    while unsafe { !(*p.add(n)).is_null() } {
        n += 1;
    }
    n
}

/// The program's real `main`: attaches the thread, builds `argv` and
/// `envp` as objects, calls the compiled `main` (through the call check)
/// with `(int argc, char **argv, char **envp)`, and exits with its
/// result, running `atexit` handlers and flushing the streams.
///
/// # Safety
/// `argv` holds `argc` C strings, `envp` is null or a NULL-terminated array
/// of C strings, and `(main_entry, main_lower)` is the compiled `main`'s
/// function pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_start_main(
    argc: c_int,
    argv: *const *const c_char,
    envp: *const *const c_char,
    main_entry: EntryFn,
    main_lower: usize,
) -> c_int {
    gimso_gc::attach();
    crate::null_faults::install();
    stdio::register_streams();
    crate::getopt::register_globals();
    // SAFETY: compiled code's `main` capability, handed over by the
    // program's entry (`gimso_start_main`'s contract).
    let main = unsafe { Callee::from_parts(main_entry, main_lower) };
    let argc_n = if argv.is_null() {
        0
    } else {
        argc.max(0) as usize
    };
    // SAFETY: argv holds argc strings (contract).
    let argv_obj = unsafe { build_string_array(argv, argc_n) };
    // `envp` is normally libc's environment, which `environ` was built
    // from before the constructors ran: then `main` gets that same array.
    // A different array (a constructor changed the environment, or a host
    // passes its own) is built for `main` alone, as natively `envp` stays
    // the environment the process started with.
    let environ = crate::environ::at_start();
    let envp_obj =
        if crate::environ::is_libc_environment(envp) && !crate::environ::changed_since_start() {
            environ
        } else {
            // SAFETY: envp is null or a NULL-terminated array of C strings
            // (contract).
            unsafe { build_string_array(envp, count_entries(envp)) }
        };
    let r = main.call(
        &[
            CcArg::I32(argc_n as i32),
            CcArg::Ptr(argv_obj),
            CcArg::Ptr(envp_obj),
        ],
        0,
        "main",
    );
    let code = if r.bytes >= 8 { r.i32() } else { 0 };
    exit_program(code)
}

/// A function to run at exit: an `atexit` handler, or a C++ static
/// object's destructor registered with `__cxa_atexit` and its argument.
#[derive(Clone, Copy)]
enum ExitHandler {
    Plain(FlightPtr),
    WithArg(FlightPtr, FlightPtr),
}

/// Exit handlers, in registration order: `atexit` and `__cxa_atexit`
/// share one list, so they run in the reverse order of registration
/// however the two interleave, as C++ requires.
static HANDLERS: Mutex<Vec<ExitHandler>> = Mutex::new(Vec::new());

/// Keeps a capability the runtime holds until exit alive.
fn keep_until_exit(p: FlightPtr) {
    if p.lower() != 0 {
        gimso_gc::register_global_object(p.lower());
    }
}

/// Registers a compiled function to run at exit.
pub fn register_atexit(f: FlightPtr) {
    // Function objects are globals or live as long as their code; keep a
    // heap one alive anyway.
    keep_until_exit(f);
    HANDLERS.lock().push(ExitHandler::Plain(f));
}

/// Runs the exit handlers, last registered first (handlers registered
/// meanwhile run too).
pub fn run_atexit_handlers() {
    loop {
        let Some(h) = HANDLERS.lock().pop() else {
            return;
        };
        match h {
            ExitHandler::Plain(f) => {
                Callee::check(f).call(&[], 0, "atexit handler");
            }
            ExitHandler::WithArg(f, arg) => {
                Callee::check(f).call(&[CcArg::Ptr(arg)], 0, "static destructor");
            }
        }
    }
}

/// `exit(code)`: handlers, flush, and libc's exit.
pub fn exit_program(code: i32) -> ! {
    run_atexit_handlers();
    flush_all();
    // SAFETY: ends the process; libc flushes and closes its streams.
    unsafe { libc::exit(code) }
}

/// Flushes every libc stream.
pub fn flush_all() {
    // SAFETY: fflush(NULL) flushes every open stream.
    unsafe { libc::fflush(core::ptr::null_mut()) };
}

wrapper! {
    /// `void exit(int code)`.
    fn exit(code: i32) -> () {
        exit_program(code)
    }
}

wrapper! {
    /// `void _exit(int code)`: no handlers, no flushing.
    fn _exit | _Exit(code: i32) -> () {
        // SAFETY: ends the process at once.
        unsafe { libc::_exit(code) }
    }
}

wrapper! {
    /// `int atexit(void (*f)(void))`.
    fn atexit(f: FlightPtr) -> i32 {
        register_atexit(f);
        0
    }
}

wrapper! {
    /// `int __cxa_atexit(void (*f)(void *), void *arg, void *dso)`: a C++
    /// static object's destructor. Every compiled module is part of the
    /// one program, so `dso` does not matter.
    fn __cxa_atexit(f: FlightPtr, arg: FlightPtr, dso: FlightPtr) -> i32 {
        let _ = dso;
        keep_until_exit(f);
        keep_until_exit(arg);
        HANDLERS.lock().push(ExitHandler::WithArg(f, arg));
        0
    }
}

/// `abort()`: flushes stdout, then dies of SIGABRT (status 134 in a shell).
pub fn abort_program() -> ! {
    // SAFETY: flushing libc's stdout is always valid.
    unsafe { libc::fflush(stdio::c_stdout().as_ptr()) };
    // SAFETY: ends the process with SIGABRT.
    unsafe { libc::abort() }
}

wrapper! {
    /// `void abort(void)`.
    fn abort() -> () {
        abort_program()
    }
}

unsafe extern "C" {
    /// glibc's short program name (what assertion messages start with).
    static program_invocation_short_name: *const c_char;
}

/// glibc's assertion message:
/// `prog: file:line: function: Assertion `expr' failed.`
pub fn assertion_message(expr: &[u8], file: &[u8], line: u32, function: Option<&[u8]>) -> Vec<u8> {
    // SAFETY: glibc sets the name before main and never frees it.
    let prog = unsafe {
        let p = (&raw const program_invocation_short_name).read();
        if p.is_null() {
            Vec::new()
        } else {
            core::ffi::CStr::from_ptr(p).to_bytes().to_vec()
        }
    };
    let mut m = Vec::new();
    if !prog.is_empty() {
        m.extend_from_slice(&prog);
        m.extend_from_slice(b": ");
    }
    m.extend_from_slice(file);
    m.extend_from_slice(format!(":{line}: ").as_bytes());
    if let Some(f) = function {
        m.extend_from_slice(f);
        m.extend_from_slice(b": ");
    }
    m.extend_from_slice(b"Assertion `");
    m.extend_from_slice(expr);
    m.extend_from_slice(b"' failed.\n");
    m
}

wrapper! {
    /// `void __assert_fail(const char *expr, const char *file,
    /// unsigned line, const char *function)`: glibc's message on stderr,
    /// then `abort`.
    fn __assert_fail(expr: FlightPtr, file: FlightPtr, line: u32, function: FlightPtr) -> () {
        let expr = mem::c_string(expr);
        let file = mem::c_string(file);
        let function = (function.intval() != 0).then(|| mem::c_string(function));
        let msg = assertion_message(&expr, &file, line, function.as_deref());
        flush_all();
        stdio::write_stream(stdio::c_stderr(), &msg);
        flush_all();
        abort_program()
    }
}
