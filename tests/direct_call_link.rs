//! Direct calls across translation units (pass/src/translate/direct.rs):
//! with matching prototypes the caller's weak thunk gives way to the
//! callee's body at link time; with a lying prototype the thunk stays and
//! the generic entry reports the mismatch. Sources in `tests/c-link/`.

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use support::run_ok;

fn source(name: &str) -> PathBuf {
    support::root().join("tests/c-link").join(name)
}

/// Compiles each source separately with `gimso-cc -O2 -g -c`, links them,
/// and returns the executable.
fn build(name: &str, sources: &[&str]) -> PathBuf {
    let dir = support::scratch("direct_call_link").join(name);
    support::link_c_units(&dir, "-O2", sources, name)
}

/// (`nm` type letter, name) of every `gimso.fd.NAME.*` symbol of `file`.
fn direct_symbols(file: &Path, name: &str) -> Vec<(char, String)> {
    let out = run_ok(Command::new("nm").arg(file));
    let mut v: Vec<(char, String)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace().rev();
            let sym = parts.next()?;
            let kind = parts.next()?.chars().next()?;
            sym.starts_with(&format!("gimso.fd.{name}."))
                .then(|| (kind, sym.to_owned()))
        })
        .collect();
    v.sort();
    v
}

/// The object `gimso-cc` wrote for `source` in test `name`'s directory.
fn object(name: &str, source: &str) -> PathBuf {
    support::scratch("direct_call_link")
        .join(name)
        .join(source.replace(".c", ".o"))
}

#[test]
fn matching_prototypes_call_the_body_directly_and_keep_checking() {
    let exe = build("ok", &["caller_ok.c", "callee.c"]);
    // The caller's weak thunk and the callee's strong body have one name,
    // so the linked program keeps one symbol: the body (a strong definition
    // always wins over a weak one).
    for f in ["add3", "pick"] {
        let thunk = direct_symbols(&object("ok", "caller_ok.c"), f);
        let body = direct_symbols(&object("ok", "callee.c"), f);
        assert_eq!(thunk.len(), 1, "{thunk:?}");
        assert_eq!((thunk[0].0, body[0].0), ('W', 'T'), "{thunk:?} {body:?}");
        assert_eq!(thunk[0].1, body[0].1);
        assert_eq!(direct_symbols(&exe, f).len(), 1);
    }
    let out = Command::new(&exe).output().expect("run");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "6 rect\n");
    // The pointer returned through registers kept its capability.
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(134), "{err}");
    assert!(
        err.starts_with("gimso: safety error: out-of-bounds read")
            && err.contains("caller_ok.c:12"),
        "{err}"
    );
}

#[test]
fn a_lying_prototype_keeps_the_thunk_and_is_reported() {
    let exe = build("lying", &["caller_lying.c", "callee.c"]);
    // The caller's thunk (for `long(long)`) and the body (for `long(long,
    // long, long)`) are different symbols: both stay.
    let thunk = direct_symbols(&object("lying", "caller_lying.c"), "add3");
    let body = direct_symbols(&object("lying", "callee.c"), "add3");
    assert_ne!(thunk[0].1, body[0].1);
    assert_eq!(direct_symbols(&exe, "add3").len(), 2);
    let out = Command::new(&exe).output().expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(134), "{err}");
    assert!(
        err.starts_with("gimso: safety error: argument size mismatch")
            && err.contains("callee needs 24 bytes, caller passed 8"),
        "{err}"
    );
}

#[test]
fn the_option_turns_them_off() {
    let dir = support::scratch("direct_call_link").join("off");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let obj = dir.join("callee.o");
    run_ok(
        Command::new(support::gimso_cc())
            .args(["-O2", "-fno-gimso-direct-calls", "-c"])
            .arg(source("callee.c"))
            .arg("-o")
            .arg(&obj),
    );
    assert!(direct_symbols(&obj, "add3").is_empty());
}
