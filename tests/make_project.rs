//! `gimso-cc` as a drop-in `CC` (docs/gimso-cc.md): the multi-file project in
//! `tests/c-make/` builds with `make CC=gimso-cc` (separate compile and link
//! steps), prints what the plain clang build prints, and `make clean` works.
//!
//! `GIMSO_CC` names the compiler; otherwise `gimso-cc` and `libgimso.a` are
//! built in release mode.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PROJECT_FILES: [&str; 6] = [
    "Makefile",
    "project.h",
    "main.c",
    "list.c",
    "table.c",
    "strbuf.c",
];
const OBJECTS: [&str; 4] = ["main.o", "list.o", "table.o", "strbuf.o"];
const PROGRAM: &str = "wordstats";

fn project_dir() -> PathBuf {
    support::root().join("tests/c-make")
}

/// A fresh copy of the project in a scratch directory named `name`.
fn copy_project(name: &str) -> PathBuf {
    let dir = support::scratch("make_project").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create project copy");
    for f in PROJECT_FILES {
        std::fs::copy(project_dir().join(f), dir.join(f))
            .unwrap_or_else(|e| panic!("copy {f}: {e}"));
    }
    dir
}

fn make(dir: &Path, args: &[&str]) {
    let out = Command::new("make")
        .arg("-C")
        .arg(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run make");
    assert!(
        out.status.success(),
        "make {args:?} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Builds the project with `cc`, runs it, checks `make clean`; returns stdout.
fn build_and_run(name: &str, cc: &Path) -> String {
    let dir = copy_project(name);
    let cc_arg = format!("CC={}", cc.display());
    make(&dir, &[&cc_arg]);
    for o in OBJECTS {
        assert!(dir.join(o).exists(), "{name}: {o} was not built separately");
    }
    let exe = dir.join(PROGRAM);
    assert!(exe.exists(), "{name}: {PROGRAM} was not linked");
    let out = Command::new(&exe)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("run wordstats");
    assert!(
        out.status.success(),
        "{name}: {PROGRAM} exited with {}:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // Nothing to do the second time.
    make(&dir, &[&cc_arg]);
    make(&dir, &["clean"]);
    for f in OBJECTS.iter().chain(&[PROGRAM]) {
        assert!(!dir.join(f).exists(), "{name}: `make clean` left {f}");
    }
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn expected() -> String {
    std::fs::read_to_string(project_dir().join("expected.out")).expect("read expected.out")
}

/// The project itself is sound: plain clang prints `expected.out`.
#[test]
fn makefile_project_builds_with_clang() {
    let cc = PathBuf::from(support::c_compiler());
    assert_eq!(build_and_run("clang", &cc), expected());
}

#[test]
fn makefile_project_builds_with_gimso_cc() {
    let gimso = build_and_run("gimso", support::gimso_cc());
    let clang = build_and_run("clang-reference", Path::new(&support::c_compiler()));
    assert_eq!(
        gimso, clang,
        "gimso-cc and clang builds print different output"
    );
    assert_eq!(gimso, expected());
}
