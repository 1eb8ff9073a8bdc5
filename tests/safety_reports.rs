//! Every safety error kind, asserted from the report text of a child
//! process, each next to a well-behaved twin that must run silently.
//!
//! The test binary re-runs itself with `GIMSO_SCENARIO=<name>`; the
//! `scenario_child` test then runs that one scenario and exits.

use std::process::Command;

use gimso::capi::*;
use gimso::mutator::with_local;
use gimso_abi::{
    ACCESS_ALIGNED, ACCESS_READ, ACCESS_WRITE, FLAG_GLOBAL, FLAG_READONLY, FLAG_STACK, FlightPtr,
};

fn special_object(flags: u64) -> FlightPtr {
    let obj = with_local(|l| gimso_shadow::alloc_object(l, 16, 16, flags));
    obj.flight_ptr()
}

extern "C" fn some_function() {}

/// Runs one scenario. Bad ones end the process; good ones return.
fn run(name: &str) {
    let p = gimso_alloc(16);
    let f = gimso_function_new(some_function as *const () as usize);
    // SAFETY: every capability passed below comes from the runtime.
    unsafe {
        match name {
            "oob_read" => gimso_check_access(p.offset(16), 1, ACCESS_READ),
            "oob_read_good" => gimso_check_access(p.offset(15), 1, ACCESS_READ),
            "underflow_read" => gimso_check_access(p.offset(-1), 1, ACCESS_READ),
            "underflow_read_good" => gimso_check_access(p, 1, ACCESS_READ),
            "oob_write" => gimso_check_access(p.offset(12), 8, ACCESS_WRITE),
            "oob_write_good" => gimso_check_access(p.offset(8), 8, ACCESS_WRITE),
            "use_after_free" => {
                gimso_free(p);
                gimso_check_access(p, 8, ACCESS_READ);
            }
            "use_after_free_good" => {
                gimso_check_access(p, 8, ACCESS_READ);
                gimso_free(p);
            }
            "null_capability" => {
                gimso_check_access(FlightPtr::from_int(p.intval()), 8, ACCESS_READ)
            }
            "null_capability_good" => gimso_check_access(p, 8, ACCESS_READ),
            "misaligned" => gimso_store_ptr(p.offset(4), p),
            "misaligned_good" => gimso_store_ptr(p.offset(8), p),
            "misaligned_check" => gimso_check_access(p.offset(2), 8, ACCESS_READ | ACCESS_ALIGNED),
            "readonly_write" => {
                let r = special_object(FLAG_READONLY);
                gimso_check_access(r, 8, ACCESS_READ);
                gimso_check_access(r, 8, ACCESS_WRITE);
            }
            "readonly_write_good" => {
                let r = special_object(FLAG_READONLY);
                gimso_check_access(r, 8, ACCESS_READ);
            }
            "special_access" => gimso_check_access(f, 8, ACCESS_READ),
            "special_access_good" => {
                gimso_check_call(f);
            }
            "double_free" => {
                gimso_free(p);
                gimso_free(p);
            }
            "double_free_good" => gimso_free(p),
            "free_interior" => gimso_free(p.offset(8)),
            "free_interior_good" => gimso_free(p.offset(8).offset(-8)),
            "free_global" => gimso_free(special_object(FLAG_GLOBAL)),
            "free_global_good" => gimso_free(special_object(0)),
            "free_stack" => gimso_free(special_object(FLAG_STACK)),
            "free_special" => gimso_free(f),
            "free_no_capability" => gimso_free(FlightPtr::from_int(0x1000)),
            "free_null_good" => gimso_free(FlightPtr::NULL),
            "call_non_function" => {
                gimso_check_call(p);
            }
            "call_null" => {
                gimso_check_call(FlightPtr::from_int(some_function as *const () as usize));
            }
            "call_wrong_address" => {
                gimso_check_call(f.offset(1));
            }
            "call_good" => assert_eq!(gimso_check_call(f), some_function as *const () as usize),
            "out_of_memory" => {
                gimso_alloc(1 << 50);
            }
            "report_location" => {
                let loc = gimso_abi::SourceLocation {
                    file: c"list.c".as_ptr().cast(),
                    function: c"push".as_ptr().cast(),
                    line: 42,
                    column: 7,
                };
                gimso_access_failed(p.offset(16), 8, ACCESS_WRITE, &loc);
            }
            other => panic!("unknown scenario {other}"),
        }
    }
}

#[test]
fn scenario_child() {
    if let Ok(name) = std::env::var("GIMSO_SCENARIO") {
        run(&name);
        println!("SCENARIO-COMPLETED");
    }
}

struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn spawn(name: &str, env: &[(&str, &str)]) -> Outcome {
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
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

fn expect_error(name: &str, title: &str) -> Outcome {
    let o = spawn(name, &[]);
    let first = o
        .stderr
        .lines()
        .find(|l| l.starts_with("gimso:"))
        .unwrap_or("");
    assert_eq!(
        first,
        format!("gimso: safety error: {title}"),
        "scenario {name}:\n{}",
        o.stderr
    );
    assert_eq!(
        o.code,
        Some(134),
        "scenario {name} exit status; stderr:\n{}",
        o.stderr
    );
    for field in [
        "  pointer:",
        "  capability:",
        "  operation:",
        "  location:",
        "backtrace:",
    ] {
        assert!(
            o.stderr.contains(field),
            "scenario {name}: report lacks {field:?}:\n{}",
            o.stderr
        );
    }
    assert!(
        !o.stdout.contains("SCENARIO-COMPLETED"),
        "scenario {name} kept running"
    );
    o
}

fn expect_silent(name: &str) {
    let o = spawn(name, &[]);
    assert_eq!(o.code, Some(0), "scenario {name} failed:\n{}", o.stderr);
    assert!(
        o.stdout.contains("SCENARIO-COMPLETED"),
        "scenario {name} did not finish"
    );
    assert!(
        !o.stderr.contains("gimso:"),
        "scenario {name} reported:\n{}",
        o.stderr
    );
}

#[test]
fn out_of_bounds() {
    let o = expect_error("oob_read", "out-of-bounds read");
    assert!(
        o.stderr.contains("offset:     16 bytes from lower"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("(16 bytes, data object)"), "{}", o.stderr);
    assert!(o.stderr.contains("operation:  1-byte read"), "{}", o.stderr);
    expect_silent("oob_read_good");
    expect_error("underflow_read", "out-of-bounds read");
    expect_silent("underflow_read_good");
    let o = expect_error("oob_write", "out-of-bounds write");
    assert!(
        o.stderr.contains("operation:  8-byte write"),
        "{}",
        o.stderr
    );
    expect_silent("oob_write_good");
}

#[test]
fn use_after_free() {
    let o = expect_error("use_after_free", "use after free");
    assert!(o.stderr.contains("freed"), "{}", o.stderr);
    expect_silent("use_after_free_good");
}

#[test]
fn null_capability() {
    let o = expect_error(
        "null_capability",
        "access through pointer with null capability",
    );
    assert!(o.stderr.contains("capability: null"), "{}", o.stderr);
    expect_silent("null_capability_good");
}

#[test]
fn misaligned() {
    let o = expect_error("misaligned", "misaligned pointer access");
    assert!(o.stderr.contains("(aligned to 8)"), "{}", o.stderr);
    expect_error("misaligned_check", "misaligned pointer access");
    expect_silent("misaligned_good");
}

#[test]
fn readonly_and_special() {
    let o = expect_error("readonly_write", "write to read-only object");
    assert!(o.stderr.contains("read-only"), "{}", o.stderr);
    expect_silent("readonly_write_good");
    let o = expect_error("special_access", "data access through special capability");
    assert!(o.stderr.contains("function"), "{}", o.stderr);
    expect_silent("special_access_good");
}

#[test]
fn free_errors() {
    let o = expect_error("double_free", "double free");
    assert!(o.stderr.contains("operation:  free"), "{}", o.stderr);
    expect_silent("double_free_good");
    expect_error("free_interior", "invalid free of interior pointer");
    expect_silent("free_interior_good");
    expect_error("free_global", "invalid free of global object");
    expect_silent("free_global_good");
    expect_error("free_stack", "invalid free of stack object");
    expect_error("free_special", "invalid free of special object");
    expect_error(
        "free_no_capability",
        "invalid free of pointer with no capability",
    );
    expect_silent("free_null_good");
}

#[test]
fn call_errors() {
    let o = expect_error("call_non_function", "call through non-function pointer");
    assert!(o.stderr.contains("operation:  call"), "{}", o.stderr);
    expect_error("call_null", "call through non-function pointer");
    expect_error(
        "call_wrong_address",
        "call through function capability at wrong address",
    );
    expect_silent("call_good");
}

#[test]
fn report_carries_location_and_backtrace() {
    let o = expect_error("report_location", "out-of-bounds write");
    assert!(
        o.stderr.contains("location:   list.c:42:7 in push"),
        "{}",
        o.stderr
    );
    // The backtrace names the test's own frames, not only the runtime's.
    assert!(o.stderr.contains("safety_reports::run"), "{}", o.stderr);
}

#[test]
fn exit_code_is_configurable() {
    let o = spawn("double_free", &[("GIMSO_ERROR_EXIT_CODE", "3")]);
    assert_eq!(o.code, Some(3), "{}", o.stderr);
    assert!(o.stderr.contains("gimso: safety error: double free"));
}

#[test]
fn out_of_memory_is_a_clean_fatal_error() {
    let o = spawn("out_of_memory", &[]);
    assert_eq!(o.code, Some(134), "{}", o.stderr);
    assert!(
        o.stderr.contains("gimso: fatal error: out of memory")
            && o.stderr.contains("1125899906842624"),
        "{}",
        o.stderr
    );
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
}
