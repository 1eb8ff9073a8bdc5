//! Program start and end: `gimso_start_main` calling a "compiled" main
//! with `argv`/`envp` objects, `atexit` handlers, `exit`, `abort`,
//! `__assert_fail`; and `errno`/`strerror`.

mod support;

use gimso_abi::{EntryResult, FlightPtr, ThreadAbi};
use gimso_libc_wrappers::errno::{__errno_location, strerror};
use gimso_libc_wrappers::mem::load_ptr;
use gimso_libc_wrappers::object::FunctionObject;
use gimso_libc_wrappers::start::*;
use gimso_libc_wrappers::stdio::printf;
use support::*;

/// Argument word `i` with its capability.
///
/// # Safety
/// `t` is the calling thread's ABI struct.
unsafe fn arg(t: *mut ThreadAbi, i: usize) -> FlightPtr {
    // SAFETY: contract; the CC buffer's capability words hold
    // capabilities or 0.
    unsafe { FlightPtr::new((*t).cc_payload[i] as usize, (*t).cc_caps[i]) }
}

fn ret_int(t: *mut ThreadAbi, v: i32) -> EntryResult {
    // SAFETY: t is the calling thread's ABI struct.
    unsafe {
        (*t).cc_payload[0] = v as i64 as u64;
        (*t).cc_caps[0] = 0;
    }
    EntryResult {
        has_exception: 0,
        ret_bytes: 8,
    }
}

const NO_RETURN: EntryResult = EntryResult {
    has_exception: 0,
    ret_bytes: 0,
};

unsafe extern "C" fn handler1(_: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    invoke(printf::entry, &[A::P(cstr("handler1\n"))]);
    NO_RETURN
}
static HANDLER1: FunctionObject = FunctionObject::new(&raw const HANDLER1, handler1);

unsafe extern "C" fn handler2(_: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    invoke(printf::entry, &[A::P(cstr("handler2\n"))]);
    NO_RETURN
}
static HANDLER2: FunctionObject = FunctionObject::new(&raw const HANDLER2, handler2);

/// `int main(int argc, char **argv, char **envp)`: prints its arguments
/// (read through their capabilities), registers two handlers, returns 3.
unsafe extern "C" fn main_prints(t: *mut ThreadAbi, _: usize, arg_bytes: u64) -> EntryResult {
    assert_eq!(arg_bytes, 24);
    // SAFETY: t is the caller's thread; main's three arguments are there.
    let (argc, argv, envp) = unsafe { ((*t).cc_payload[0] as i32, arg(t, 1), arg(t, 2)) };
    let mut line = format!("argc={argc}");
    for i in 0..argc as isize {
        let s = load_ptr(argv.offset(8 * i));
        line.push_str(&format!(" [{}]", read_cstr(s)));
    }
    assert_eq!(load_ptr(argv.offset(8 * argc as isize)), FlightPtr::NULL);
    let mut i = 0;
    let mut found = false;
    loop {
        let e = load_ptr(envp.offset(8 * i));
        if e.intval() == 0 {
            break;
        }
        found |= read_cstr(e) == "GIMSO_START_TEST=yes";
        i += 1;
    }
    line.push_str(&format!(" env={found}\n"));
    invoke(printf::entry, &[A::P(cstr("%s")), A::P(cstr(&line))]);
    assert_eq!(invoke(atexit::entry, &[A::P(HANDLER1.pointer())]).i32(), 0);
    invoke(atexit::entry, &[A::P(HANDLER2.pointer())]);
    ret_int(t, 3)
}
static MAIN_PRINTS: FunctionObject = FunctionObject::new(&raw const MAIN_PRINTS, main_prints);

/// `int main(void)` that calls `exit(5)` after registering a handler.
unsafe extern "C" fn main_exits(t: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    invoke(atexit::entry, &[A::P(HANDLER1.pointer())]);
    invoke(printf::entry, &[A::P(cstr("before exit\n"))]);
    invoke(exit::entry, &[A::I(5)]);
    ret_int(t, 1)
}
static MAIN_EXITS: FunctionObject = FunctionObject::new(&raw const MAIN_EXITS, main_exits);

/// `void main(void)`: returns no bytes; the exit status is 0.
unsafe extern "C" fn main_void(_: *mut ThreadAbi, _: usize, _: u64) -> EntryResult {
    invoke(printf::entry, &[A::P(cstr("void main\n"))]);
    NO_RETURN
}
static MAIN_VOID: FunctionObject = FunctionObject::new(&raw const MAIN_VOID, main_void);

fn start(main: &FunctionObject, lower: usize) -> ! {
    let args = [c"prog".as_ptr(), c"hello".as_ptr(), core::ptr::null()];
    let env = [
        c"A=1".as_ptr(),
        c"GIMSO_START_TEST=yes".as_ptr(),
        core::ptr::null(),
    ];
    // SAFETY: the entry of `main` is a generic entry; argv and envp are
    // NULL-terminated arrays of C strings.
    unsafe {
        let entry: gimso_abi::EntryFn =
            core::mem::transmute::<usize, gimso_abi::EntryFn>(main.entry());
        gimso_start_main(2, args.as_ptr(), env.as_ptr(), entry, lower);
    }
    unreachable!("gimso_start_main returned");
}

fn run(name: &str) {
    match name {
        "start_main" => start(&MAIN_PRINTS, MAIN_PRINTS.lower()),
        "exit_runs_handlers" => start(&MAIN_EXITS, MAIN_EXITS.lower()),
        "main_void" => start(&MAIN_VOID, MAIN_VOID.lower()),
        "main_not_function" => start(&MAIN_PRINTS, buf(8).lower()),
        "abort" => {
            invoke(printf::entry, &[A::P(cstr("flushed"))]);
            invoke(abort::entry, &[]);
        }
        "assert_fail" => {
            invoke(
                __assert_fail::entry,
                &[
                    A::P(cstr("x == 1")),
                    A::P(cstr("t.c")),
                    A::I(12),
                    A::P(cstr("check")),
                ],
            );
        }
        "assert_fail_no_function" => {
            invoke(
                __assert_fail::entry,
                &[
                    A::P(cstr("ok")),
                    A::P(cstr("u.c")),
                    A::I(3),
                    A::P(FlightPtr::NULL),
                ],
            );
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn start_main_passes_argv_envp_and_exits_with_mains_result() {
    let o = spawn("start_main");
    assert_eq!(o.code, Some(3), "{}", o.stderr);
    assert_eq!(
        o.output(),
        "argc=2 [prog] [hello] env=true\nhandler2\nhandler1\n"
    );
}

#[test]
fn exit_runs_atexit_handlers_and_flushes() {
    let o = spawn("exit_runs_handlers");
    assert_eq!(o.code, Some(5), "{}", o.stderr);
    assert_eq!(o.output(), "before exit\nhandler1\n");
    let o = spawn("main_void");
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_eq!(o.output(), "void main\n");
}

#[test]
fn main_is_call_checked() {
    expect_error("main_not_function", "call through non-function pointer");
}

#[test]
fn abort_and_assert() {
    let o = spawn("abort");
    assert_eq!(o.signal, Some(libc::SIGABRT), "{o:?}");
    assert_eq!(o.output(), "flushed");
    let o = spawn("assert_fail");
    assert_eq!(o.signal, Some(libc::SIGABRT), "{o:?}");
    let exe = std::env::current_exe().unwrap();
    let prog = exe.file_name().unwrap().to_string_lossy();
    assert!(
        o.stderr.contains(&format!(
            "{prog}: t.c:12: check: Assertion `x == 1' failed.\n"
        )),
        "{}",
        o.stderr
    );
    let o = spawn("assert_fail_no_function");
    assert!(
        o.stderr
            .contains(&format!("{prog}: u.c:3: Assertion `ok' failed.\n")),
        "{}",
        o.stderr
    );
}

#[test]
fn errno_is_a_per_thread_object() {
    let p = invoke(__errno_location::entry, &[]).ptr();
    assert_ne!(p.lower(), 0);
    assert_eq!(
        invoke(__errno_location::entry, &[]).ptr(),
        p,
        "stable per thread"
    );
    gimso_libc_wrappers::errno::set(libc::EINVAL);
    assert_eq!(read(p, 4), libc::EINVAL.to_ne_bytes());
    let other = std::thread::spawn(|| {
        let q = invoke(__errno_location::entry, &[]).ptr();
        (q.intval(), q.lower())
    })
    .join()
    .unwrap();
    assert_ne!(
        other,
        (p.intval(), p.lower()),
        "each thread has its own errno"
    );
    let s = invoke(strerror::entry, &[A::I(libc::ENOENT as i64)]).ptr();
    assert_eq!(read_cstr(s), "No such file or directory");
}
