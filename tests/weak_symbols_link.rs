//! Weak declarations across translation units
//! (pass/src/translate/globals.rs, `weak_objects`): linked with their
//! definitions they are those definitions; linked without, null. Sources in
//! `tests/c-link/`.

mod support;

use std::path::PathBuf;
use std::process::Command;

use support::run_ok;

/// `sources` from `tests/c-link/`, compiled separately at `opt` and linked.
fn build(opt: &str, sources: &[&str], name: &str) -> PathBuf {
    let dir = support::scratch("weak_symbols_link").join(opt);
    support::link_c_units(&dir, opt, sources, name)
}

#[test]
fn weak_declarations_resolve_to_definitions_or_null() {
    for opt in ["-O0", "-O2"] {
        let exe = build(opt, &["weak_use.c", "weak_def.c"], "with");
        let out = run_ok(&mut Command::new(&exe));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "hook 1 counter 1 saved 1 1\nhook called 1\nhook called 2\ncounter 42\n",
            "{opt}"
        );
        let exe = build(opt, &["weak_use.c"], "without");
        let out = run_ok(&mut Command::new(&exe));
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "hook 0 counter 0 saved 0 0\n",
            "{opt}"
        );
    }
}
