//! Shared helpers for the integration tests.

// Each test binary compiles this module but uses only some helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use gimso_pass::translate::{TranslateOptions, TranslateStats, translate_module_with};
use gimso_pass::{check_module, load_module, parse_module, prepare::prepare};
use inkwell::context::Context;

/// `pass/tests/<rel>`.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(rel)
}

/// Loads `path` and renders every diagnostic as `(construct, Display)`.
pub fn diagnostics(path: &Path) -> Vec<(String, String)> {
    let ctx = Context::create();
    let module = load_module(&ctx, path).unwrap_or_else(|e| panic!("{e}"));
    check_module(&module)
        .into_iter()
        .map(|d| (d.construct.clone(), d.to_string()))
        .collect()
}

/// Compiles `tests/c/<source>` with clang-16 (or clang++-16 for `.cpp`) to
/// IR; `.ll` output names give text, anything else bitcode.
pub fn compile(source: &str, opt: &str, out_ext: &str) -> PathBuf {
    let src = fixture(&format!("c/{source}"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "{source}.{}.{out_ext}",
        opt.trim_start_matches('-')
    ));
    let compiler = if source.ends_with(".cpp") {
        "clang++-16"
    } else {
        "clang-16"
    };
    let mut cmd = Command::new(compiler);
    cmd.args([opt, "-g", "-emit-llvm", "-c"]);
    if out_ext == "ll" {
        cmd.arg("-S");
    }
    let status = cmd
        .arg(&src)
        .arg("-o")
        .arg(&out)
        .status()
        .unwrap_or_else(|e| {
            panic!("cannot run {compiler} ({e}); the project's setup script installs clang-16")
        });
    assert!(
        status.success(),
        "{compiler} {opt} failed on {}",
        src.display()
    );
    out
}

/// Runs `cmd` (named `what` in failures) and returns its standard output;
/// a failed start or a non-zero exit fails the test with its stderr.
pub fn succeed(cmd: &mut Command, what: &str) -> Vec<u8> {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Compiles `src` to the object `obj` with `gimso-cc -c` and `flags`
/// (temporary files not kept) and returns the object's bytes.
pub fn gimso_cc_object(src: &Path, obj: &Path, flags: &[&str]) -> Vec<u8> {
    succeed(
        Command::new(env!("CARGO_BIN_EXE_gimso-cc"))
            .args(flags)
            .arg("-c")
            .arg(src)
            .arg("-o")
            .arg(obj)
            .env_remove("GIMSO_KEEP_TEMPS"),
        "gimso-cc",
    );
    std::fs::read(obj).unwrap_or_else(|e| panic!("cannot read {}: {e}", obj.display()))
}

/// 1-based line of the first line of `tests/c/<source>` containing `marker`.
pub fn line_of(source: &str, marker: &str) -> usize {
    let text = std::fs::read_to_string(fixture(&format!("c/{source}"))).expect("read source");
    text.lines()
        .position(|l| l.contains(marker))
        .expect("marker present")
        + 1
}

/// Translates the IR text `ir` (which must pass the reject check) and
/// returns the statistics and the printed, verified output.
pub fn translate(ir: &str) -> (TranslateStats, String) {
    translate_with(ir, &TranslateOptions::default())
}

/// [`translate`] with `options`.
pub fn translate_with(ir: &str, options: &TranslateOptions) -> (TranslateStats, String) {
    let ctx = Context::create();
    let m = parse_module(&ctx, ir.as_bytes(), "t.ll").expect("parses");
    assert!(check_module(&m).is_empty());
    prepare(&m);
    let stats = translate_module_with(&m, options).unwrap_or_else(|d| {
        panic!(
            "{}",
            d.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        )
    });
    m.verify().expect("verifies");
    (stats, m.print_to_string().to_string())
}

/// The `define` line of the function whose name starts with `prefix`.
pub fn define_line<'a>(out: &'a str, prefix: &str) -> Option<&'a str> {
    out.lines()
        .find(|l| l.starts_with("define") && l.contains(&format!("@{prefix}")))
}

/// The text of the function whose `define` line names `@prefix...`.
pub fn function<'a>(out: &'a str, prefix: &str) -> &'a str {
    let line = define_line(out, prefix).unwrap_or_else(|| panic!("no {prefix}: {out}"));
    let start = out.find(line).unwrap();
    let end = start + out[start..].find("\n}").unwrap();
    &out[start..end]
}
