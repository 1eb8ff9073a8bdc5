//! Helpers shared by the root package's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory for this test binary.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// The C compiler: clang-16 when installed, else `cc`.
pub fn c_compiler() -> String {
    for cc in ["clang-16", "cc"] {
        if Command::new(cc)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
        {
            return cc.to_owned();
        }
    }
    panic!("no C compiler found (run scripts/setup.sh)");
}

/// Compiles `sources` with the header directory on the include path, plus
/// `extra` arguments; panics with the compiler's output on failure.
pub fn compile_c(sources: &[&Path], out: &Path, extra: &[&str]) {
    let inc = root().join("include");
    let output = Command::new(c_compiler())
        .args(["-std=c11", "-Wall", "-Werror", "-g"])
        .arg(format!("-I{}", inc.display()))
        .args(sources)
        .arg("-o")
        .arg(out)
        .args(extra)
        .output()
        .expect("run C compiler");
    assert!(
        output.status.success(),
        "C compilation failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The directory holding this test binary's profile outputs
/// (`target/<profile>`), where cargo puts `libgimso.a`.
pub fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("current exe");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/..")
        .to_path_buf()
}

/// `#define GIMSO_*` object-like macro names in `gimso.h`.
pub fn header_constants() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("include/gimso.h")).expect("read gimso.h");
    let mut names = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("#define ") else {
            continue;
        };
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let after = &rest[name.len()..];
        // Attribute macros (`GIMSO_NORETURN`) are not values.
        let attribute = after.trim_start().starts_with("__attribute__");
        if name.starts_with("GIMSO_") && name != "GIMSO_H" && !after.starts_with('(') && !attribute
        {
            names.push(name);
        }
    }
    names
}

/// Names of the functions `gimso.h` declares (excluding `static inline`).
pub fn header_functions() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("include/gimso.h")).expect("read gimso.h");
    let mut names = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("static")
            || t.starts_with('#')
            || t.starts_with("/*")
            || t.starts_with('*')
        {
            continue;
        }
        if t.starts_with("typedef") || t.starts_with("extern") {
            continue;
        }
        // The declared name is the identifier right before the first '('.
        let Some(paren) = t.find('(') else { continue };
        let before = t[..paren].trim_end();
        let name: String = before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if name.starts_with("gimso_") {
            names.push(name);
        }
    }
    names
}

/// Builds (or confirms up to date) `libgimso.a` and `libgimso.so` of the
/// profile this test runs in: `cargo test` builds only the rlib.
pub fn build_runtime_libraries() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    let dir = profile_dir();
    BUILT.call_once(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        let mut cmd = Command::new(cargo);
        cmd.current_dir(root())
            .args(["build", "--quiet", "-p", "gimso", "--lib"]);
        if dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("run cargo build");
        assert!(status.success(), "cargo build -p gimso failed");
    });
    dir
}

/// `gimso-cc`: `$GIMSO_CC`, or built once in release mode together with
/// `libgimso.a` and the C++ standard library.
pub fn gimso_cc() -> &'static Path {
    static CC: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    CC.get_or_init(|| {
        if let Some(cc) = std::env::var_os("GIMSO_CC") {
            return PathBuf::from(cc);
        }
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
        for args in [
            &[
                "build",
                "--release",
                "-p",
                "gimso-pass",
                "--bin",
                "gimso-cc",
            ][..],
            &["build", "--release", "-p", "gimso"][..],
        ] {
            let status = Command::new(&cargo)
                .current_dir(root())
                .args(args)
                .status()
                .expect("run cargo");
            assert!(status.success(), "`cargo {}` failed", args.join(" "));
        }
        let release = profile_dir().parent().expect("target dir").join("release");
        let cc = release.join("gimso-cc");
        assert!(cc.exists(), "{} was not built", cc.display());
        // The C++ standard library gimso-c++ links (a no-op when current).
        let status = Command::new(root().join("scripts/build-libcxx.sh"))
            .current_dir(root())
            .status()
            .expect("run scripts/build-libcxx.sh");
        assert!(status.success(), "scripts/build-libcxx.sh failed");
        cc
    })
}

/// Runs `cmd`; panics with its stderr unless it succeeds.
pub fn run_ok(cmd: &mut Command) -> std::process::Output {
    let out = cmd.output().expect("run command");
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Compiles each of `sources` (files of `tests/c-link/`) separately with
/// `gimso-cc OPT -g -c` into `dir`, links the objects into `dir/NAME` and
/// returns the executable; panics with the tools' output on failure.
pub fn link_c_units(dir: &Path, opt: &str, sources: &[&str], name: &str) -> PathBuf {
    std::fs::create_dir_all(dir).expect("scratch dir");
    let cc = gimso_cc();
    let mut objects = Vec::new();
    for s in sources {
        let obj = dir.join(s.replace(".c", ".o"));
        run_ok(
            Command::new(cc)
                .args([opt, "-g", "-c"])
                .arg(root().join("tests/c-link").join(s))
                .arg("-o")
                .arg(&obj),
        );
        objects.push(obj);
    }
    let exe = dir.join(name);
    run_ok(Command::new(cc).args(&objects).arg("-o").arg(&exe));
    exe
}
