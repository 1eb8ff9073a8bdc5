//! Real C programs under gimso-cc: zlib, bzip2 (its own
//! `bzip2.c` and reference samples), Lua 5.4, SQLite, zstd, lz4 (its own
//! command-line program), libdeflate (its own tests and gzip program) and
//! xz (its own tests, test files and command-line program), Oniguruma (its
//! own tests), mozjpeg (its cjpeg,
//! djpeg and jpegtran), libwebp, tree-sitter (its C grammar) and QuickJS
//! (its own test scripts and a workload written here), built from the
//! crates that ship their sources and driven by `tests/real/`, each with
//! output identical to the plain clang-16 build, at the reduced size
//! (`SIZE=small` of `scripts/real-programs.sh`; the full size is the
//! benchmark, see BENCHMARKS.md).
//!
//! One test per program so a failure names it; they share the build
//! directory `target/real` (objects are reused while up to date), and run
//! one at a time (a lock), since each build already uses every core.

mod support;

use std::process::Command;
use std::sync::Mutex;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn run(program: &str) {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let cc = support::gimso_cc();
    let out = Command::new(support::root().join("scripts/real-programs.sh"))
        .arg(program)
        .env("SIZE", "small")
        .env("VARIANTS", "clang gimso")
        .env("GIMSO_CC", cc)
        .env("OUT", support::root().join("target/real"))
        .output()
        .expect("run scripts/real-programs.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{program} under gimso-cc failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains(&format!(
            "real programs: {program} passed under: clang gimso"
        )),
        "{program}: unexpected script output:\n{stdout}\n{stderr}"
    );
}

#[test]
fn zlib_round_trips() {
    run("zlib");
}

#[test]
fn bzip2_reference_samples_and_round_trip() {
    run("bzip2");
}

#[test]
fn lua_scripts_match_the_plain_build() {
    run("lua");
}

#[test]
fn sqlite_workload_matches_the_plain_build() {
    run("sqlite");
}

#[test]
fn zstd_round_trips() {
    run("zstd");
}

#[test]
fn lz4_command_line_matches_the_plain_build() {
    run("lz4");
}

#[test]
fn libdeflate_tests_and_gzip_match_the_plain_build() {
    run("libdeflate");
}

#[test]
fn xz_tests_and_command_line_match_the_plain_build() {
    run("xz");
}

#[test]
fn oniguruma_tests_match_the_plain_build() {
    run("onig");
}

#[test]
fn mozjpeg_tools_match_the_plain_build() {
    run("mozjpeg");
}

#[test]
fn libwebp_round_trips_match_the_plain_build() {
    run("webp");
}

#[test]
fn treesitter_parses_match_the_plain_build() {
    run("treesitter");
}

#[test]
fn quickjs_tests_and_workload_match_the_plain_build() {
    run("quickjs");
}
