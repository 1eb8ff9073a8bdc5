//! The two back halves of `gimso-cc` build the same working program: the
//! in-process one (a clean-up pipeline and code generation inside
//! gimso-cc, the default) and clang's (taken when a user flag such as
//! `-mtune=` changes code generation). The program has prioritised
//! constructors and destructors and pointer-initialised globals, which only
//! work if the object file puts the module's start-up in `.init_array`.

mod support;

use std::path::Path;
use std::process::Command;

const PROGRAM: &str = "constructors.c";

fn build(dir: &Path, name: &str, extra: &[&str]) -> (String, String) {
    let src = support::root().join("tests/c").join(PROGRAM);
    let exe = dir.join(name);
    let out = Command::new(support::gimso_cc())
        .args(["-v", "-O2"])
        .args(extra)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run gimso-cc");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "gimso-cc {extra:?} failed:\n{log}");
    let run = Command::new(&exe).output().expect("run the program");
    assert!(run.status.success(), "{name} failed: {run:?}");
    (String::from_utf8_lossy(&run.stdout).into_owned(), log)
}

/// Whether the `-v` log shows clang compiling the translated bitcode.
fn clang_back_half(log: &str) -> bool {
    log.lines()
        .any(|l| l.starts_with("clang-16 ") && l.contains(".out.bc") && l.contains(" -c "))
}

#[test]
fn in_process_and_clang_back_halves_agree() {
    let dir = support::scratch("back_halves");
    let (inproc, inproc_log) = build(&dir, "inproc", &[]);
    let (clang, clang_log) = build(&dir, "clang", &["-mtune=generic"]);
    assert!(!clang_back_half(&inproc_log), "{inproc_log}");
    assert!(clang_back_half(&clang_log), "{clang_log}");
    let expected = "ctor 101: hello\nctor 102: 3\nctor default: 7\n\
                    main: 101 102 default\ndtor default\ndtor 102\n";
    assert_eq!(inproc, expected);
    assert_eq!(clang, expected);
}
