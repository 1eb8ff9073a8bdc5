//! A global defined in another translation unit and indexed from its start
//! (pass/src/translate/function/check.rs): the capability is a constant
//! payload address, never null and the object's lower end itself, so such
//! accesses compare with the upper end only; the upper end is the
//! defining module's (its header), not the declaration's. Sources in
//! `tests/c-link/`.

mod support;

use std::path::PathBuf;
use std::process::Command;

use support::run_ok;

fn build(opt: &str) -> PathBuf {
    let dir = support::scratch("extern_globals_link").join(opt);
    support::link_c_units(
        &dir,
        opt,
        &["extern_table_def.c", "extern_table_use.c"],
        "extern_table",
    )
}

/// Runs `exe args` expecting an out-of-bounds read of the 64-byte table.
fn expect_oob(exe: &PathBuf, args: &[&str], opt: &str) {
    let out = Command::new(exe).args(args).output().expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(134), "{opt} {args:?}: {stderr}");
    assert!(
        stderr.starts_with("gimso: safety error: out-of-bounds read"),
        "{opt} {args:?}: {stderr}"
    );
    assert!(
        stderr.contains("(64 bytes, data object, global)"),
        "{opt} {args:?}: {stderr}"
    );
}

#[test]
fn indexing_from_the_start_is_checked_against_the_definition() {
    for opt in ["-O0", "-O2"] {
        let exe = build(opt);
        let out = run_ok(&mut Command::new(&exe));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "4 16 136\n", "{opt}");
        let out = run_ok(Command::new(&exe).args(["masked", "15"]));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "16\n", "{opt}");
        // Inside the declared 256 entries, past the defined 16.
        expect_oob(&exe, &["masked", "16"], opt);
        expect_oob(&exe, &["masked", "255"], opt);
        // Below the start: the signed index keeps its lower compare.
        expect_oob(&exe, &["signed", "-1"], opt);
        expect_oob(&exe, &["signed", "16"], opt);
    }
}
