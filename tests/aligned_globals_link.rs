//! Over-aligned globals across translation units
//! (pass/src/translate/globals.rs `padded_object`): a module that only
//! declares the variable, without its alignment, finds its header and
//! payload where the defining module put them. Sources in `tests/c-link/`.

mod support;

use std::path::PathBuf;
use std::process::Command;

use support::run_ok;

/// `aligned_def.c` and `aligned_use.c`, compiled separately at `opt` and
/// linked.
fn build(opt: &str) -> PathBuf {
    let dir = support::scratch("aligned_globals_link").join(opt);
    support::link_c_units(&dir, opt, &["aligned_def.c", "aligned_use.c"], "aligned")
}

#[test]
fn declarations_without_the_alignment_see_the_same_object() {
    for opt in ["-O0", "-O2"] {
        let exe = build(opt);
        let out = run_ok(&mut Command::new(&exe));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "aligned 1 1\ndefined elsewhere\ncounter 7\n",
            "{opt}"
        );
        let out = Command::new(&exe).arg("oob").output().expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(134), "{opt}: {stderr}");
        assert!(
            stderr.starts_with("gimso: safety error: out-of-bounds read"),
            "{opt}: {stderr}"
        );
        assert!(
            stderr.contains("(40 bytes, data object, global)"),
            "{opt}: {stderr}"
        );
    }
}
