//! Differential testing with csmith (`scripts/csmith-diff.sh`): a few
//! dozen random UB-free programs, each built with clang -O0 and with
//! `gimso-cc` at -O0 and -O2, print the same checksums, and none is
//! reported or refused. The full run (1,000 seeds) is the script itself.
//!
//! `GIMSO_CC` names the compiler; otherwise `gimso-cc` and `libgimso.a` are
//! built in release mode. csmith comes from Debian's `csmith` and
//! `libcsmith-dev` (installed by `scripts/setup.sh`).

mod support;

use std::process::Command;

/// Seeds of the default run: a window that moves with nothing, so a
/// failure reproduces with the same command.
const SEEDS: u32 = 30;
const FIRST: u32 = 1;

#[test]
fn csmith_programs_match_clang() {
    let cc = support::gimso_cc();
    let out = Command::new(support::root().join("scripts/csmith-diff.sh"))
        .args([SEEDS.to_string(), FIRST.to_string()])
        .env("GIMSO_CC", cc)
        .output()
        .expect("run scripts/csmith-diff.sh");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "scripts/csmith-diff.sh {SEEDS} {FIRST} failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = stdout.lines().last().unwrap_or_default();
    let same: u32 = summary
        .split(": ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    // Skipped seeds (nonterminating programs) are rare: most must compare.
    assert!(same >= SEEDS * 3 / 4, "too few seeds compared: {summary}");
}
