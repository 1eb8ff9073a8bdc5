//! Helpers shared by the wrapper tests: calling generic entries the way
//! compiled code does (arguments in the CC buffers of the current thread),
//! making objects, and running a scenario in a child process to check the
//! safety report it ends with.
#![allow(dead_code)]

use std::process::Command;

use gimso_abi::{CC_INLINE_BYTES, EntryFn, EntryResult, FlightPtr, cc_place};
use gimso_libc_wrappers::mem;

/// An argument as compiled code would pass it.
#[derive(Clone, Copy, Debug)]
pub enum A {
    /// An integer of up to 8 bytes (an `int` sign-extended).
    I(i64),
    /// A pointer with its capability.
    P(FlightPtr),
    /// A double.
    D(f64),
    /// An x87 long double's two words (16 bytes, 16-aligned).
    LD([u64; 2]),
    /// A raw word with an explicit capability word (forged slots).
    Raw(u64, usize),
}

/// What an entry returned: result, word 0 and capability word 0.
#[derive(Clone, Copy, Debug)]
pub struct Out {
    pub result: EntryResult,
    pub word: u64,
    pub cap: usize,
}

impl Out {
    pub fn i32(&self) -> i32 {
        assert_eq!(self.result.ret_bytes, 8, "int return takes 8 bytes");
        self.word as i32
    }
    pub fn i64(&self) -> i64 {
        assert_eq!(self.result.ret_bytes, 8);
        self.word as i64
    }
    pub fn ptr(&self) -> FlightPtr {
        assert_eq!(self.result.ret_bytes, 8);
        // SAFETY: read from the CC buffer's capability word, which holds a
        // capability or 0.
        unsafe { FlightPtr::new(self.word as usize, self.cap) }
    }
    pub fn f64(&self) -> f64 {
        assert_eq!(self.result.ret_bytes, 8);
        f64::from_bits(self.word)
    }
}

/// Lays `args` out in the current thread's inline CC buffers (every other
/// capability word poisoned with 0) and returns `arg_bytes`.
pub fn place_args(args: &[A]) -> u64 {
    let t = gimso_gc::current().abi_ptr().cast_mut();
    let mut end = 0;
    // SAFETY: t is this thread's ABI struct; we write its inline buffers.
    unsafe {
        (*t).cc_caps = [0; gimso_abi::CC_INLINE_WORDS];
        (*t).cc_payload = [0xdead_beef_dead_beef; gimso_abi::CC_INLINE_WORDS];
    }
    for a in args {
        let (size, align) = match a {
            A::LD(_) => (16, 16),
            _ => (8, 8),
        };
        let (off, next) = cc_place(end, size, align);
        assert!(next as usize <= CC_INLINE_BYTES);
        let w = (off / 8) as usize;
        let words: Vec<(u64, usize)> = match *a {
            A::I(v) => vec![(v as u64, 0)],
            A::P(p) => vec![(p.intval() as u64, p.lower())],
            A::D(d) => vec![(d.to_bits(), 0)],
            A::LD([lo, hi]) => vec![(lo, 0), (hi, 0)],
            A::Raw(v, c) => vec![(v, c)],
        };
        for (i, (v, c)) in words.into_iter().enumerate() {
            // SAFETY: as above; w + i < CC_INLINE_WORDS (asserted).
            unsafe {
                (*t).cc_payload[w + i] = v;
                (*t).cc_caps[w + i] = c;
            }
        }
        end = next;
    }
    end
}

/// Calls `entry` with `args` as compiled code would.
pub fn invoke(entry: EntryFn, args: &[A]) -> Out {
    let bytes = place_args(args);
    invoke_with_bytes(entry, bytes)
}

/// Calls `entry` claiming `arg_bytes` of arguments (already placed).
pub fn invoke_with_bytes(entry: EntryFn, arg_bytes: u64) -> Out {
    let t = gimso_gc::current().abi_ptr().cast_mut();
    // SAFETY: the entry is a generic entry; the CC buffers hold the args.
    let result = unsafe { entry(t, 0, arg_bytes) };
    assert_eq!(result.has_exception, 0);
    // SAFETY: t is this thread's ABI struct.
    let (word, cap) = unsafe { ((*t).cc_payload[0], (*t).cc_caps[0]) };
    Out { result, word, cap }
}

/// A fresh object holding `s` and a NUL.
pub fn cstr(s: &str) -> FlightPtr {
    mem::alloc_c_string(s.as_bytes(), false)
}

/// A fresh zeroed object of `n` bytes.
pub fn buf(n: usize) -> FlightPtr {
    mem::alloc(n, 16, 0)
}

/// The NUL-terminated string at `p` (unchecked test read).
pub fn read_cstr(p: FlightPtr) -> String {
    // SAFETY: tests only pass pointers to strings they built.
    unsafe {
        core::ffi::CStr::from_ptr(p.intval() as *const core::ffi::c_char)
            .to_string_lossy()
            .into_owned()
    }
}

/// The bytes at `p` (unchecked test read).
pub fn read(p: FlightPtr, n: usize) -> Vec<u8> {
    // SAFETY: tests only read objects they built, within bounds.
    unsafe { core::slice::from_raw_parts(p.intval() as *const u8, n).to_vec() }
}

/// Writes `data` at `p` (unchecked test write).
pub fn write(p: FlightPtr, data: &[u8]) {
    // SAFETY: tests only write objects they built, within bounds.
    unsafe { core::ptr::copy_nonoverlapping(data.as_ptr(), p.intval() as *mut u8, data.len()) }
}

/// Flushes libc's streams (output printed by wrappers).
pub fn flush() {
    // SAFETY: fflush(NULL) is always valid.
    unsafe { libc::fflush(core::ptr::null_mut()) };
}

/// Marker lines around a scenario's own output on stdout.
pub const BEGIN: &str = "<<<SCENARIO-OUTPUT";
pub const END: &str = "SCENARIO-OUTPUT>>>";

/// Runs scenario `name` of this test binary in a child process: the
/// child's `scenario_child` test calls `run(name)`.
pub fn child_main(run: impl FnOnce(&str)) {
    if let Ok(name) = std::env::var("GIMSO_SCENARIO") {
        println!("{BEGIN}");
        run(&name);
        flush();
        println!("\n{END}");
        println!("SCENARIO-COMPLETED");
    }
}

/// What a child scenario did.
#[derive(Debug)]
pub struct Outcome {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    /// The scenario's output between the markers (or after the begin
    /// marker if it did not finish).
    pub fn output(&self) -> String {
        let Some(start) = self.stdout.find(BEGIN) else {
            return String::new();
        };
        let rest = &self.stdout[start + BEGIN.len() + 1..];
        match rest.find(END) {
            // `child_main` prints a newline before the end marker.
            Some(e) => rest[..e.saturating_sub(1)].to_owned(),
            None => rest.to_owned(),
        }
    }

    /// The first line starting with "gimso:" on stderr.
    pub fn report_line(&self) -> &str {
        self.stderr
            .lines()
            .find(|l| l.starts_with("gimso:"))
            .unwrap_or("")
    }
}

/// Spawns the scenario.
pub fn spawn(name: &str) -> Outcome {
    spawn_env(name, &[])
}

/// Spawns the scenario with extra environment.
pub fn spawn_env(name: &str, env: &[(&str, &str)]) -> Outcome {
    use std::os::unix::process::ExitStatusExt;
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "scenario_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("GIMSO_SCENARIO", name)
        .envs(env.iter().copied())
        .output()
        .expect("spawn child");
    Outcome {
        code: out.status.code(),
        signal: out.status.signal(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The scenario must stop with the safety error `title` (exit status 134).
pub fn expect_error(name: &str, title: &str) -> Outcome {
    let o = spawn(name);
    assert_eq!(
        o.report_line(),
        format!("gimso: safety error: {title}"),
        "scenario {name}:\nstderr:\n{}\nstdout:\n{}",
        o.stderr,
        o.stdout
    );
    assert_eq!(o.code, Some(134), "scenario {name}; stderr:\n{}", o.stderr);
    assert!(
        !o.stdout.contains("SCENARIO-COMPLETED"),
        "scenario {name} kept running"
    );
    o
}

/// The scenario must run to completion without any report.
pub fn expect_silent(name: &str) -> Outcome {
    let o = spawn(name);
    assert_eq!(o.code, Some(0), "scenario {name} failed:\n{}", o.stderr);
    assert!(
        o.stdout.contains("SCENARIO-COMPLETED"),
        "scenario {name} did not finish:\n{}",
        o.stdout
    );
    assert!(
        !o.stderr.contains("gimso:"),
        "scenario {name} reported:\n{}",
        o.stderr
    );
    o
}
