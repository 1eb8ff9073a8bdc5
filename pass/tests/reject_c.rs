//! C (and C++) compiled by clang-16 at test time, at `-O0` and `-O2`, as text
//! and as bitcode: real front-end output must load, and only what the spec
//! rejects may be reported, at the C source line.

mod common;

use common::{compile, diagnostics, line_of};

/// (optimisation level, output kind): `-O0` as text, `-O2` as bitcode, so
/// both loaders are exercised.
const BUILDS: [(&str, &str); 2] = [("-O0", "ll"), ("-O2", "bc")];

fn assert_clean(source: &str) {
    for (opt, ext) in BUILDS {
        let got = diagnostics(&compile(source, opt, ext));
        assert!(
            got.is_empty(),
            "{source} {opt}: unexpected diagnostics {got:#?}"
        );
    }
}

#[test]
fn clean_c_programs_pass() {
    assert_clean("list.c");
}

/// clang's own `-O2` for a position-independent target turns a switch
/// table of string pointers into a relative table read with
/// `llvm.load.relative`, which carries no capabilities: rejected, at the
/// switch's line. (`gimso-cc` runs the optimiser with a static target
/// machine, so its tables stay tables of pointers.)
#[test]
fn switches_atomics_and_relative_tables() {
    let got = diagnostics(&compile("switch_atomic.c", "-O0", "ll"));
    assert!(got.is_empty(), "-O0: unexpected diagnostics {got:#?}");
    let got = diagnostics(&compile("switch_atomic.c", "-O2", "bc"));
    assert!(
        !got.is_empty()
            && got
                .iter()
                .all(|(construct, message)| construct == "intrinsic"
                    && message.contains("`llvm.load.relative")
                    && message.contains("switch_atomic.c:14:")),
        "-O2: {got:#?}"
    );
}

#[test]
fn itanium_exceptions_pass() {
    assert_clean("exceptions.cpp");
}

#[test]
fn empty_inline_asm_passes() {
    assert_clean("asm_empty.c");
}

#[test]
fn register_only_inline_asm_passes() {
    assert_clean("asm_registers.c");
}

#[test]
fn non_empty_inline_asm_is_rejected_at_its_line() {
    let line = line_of("asm_mov.c", "REJECTED");
    for (opt, ext) in BUILDS {
        let got = diagnostics(&compile("asm_mov.c", opt, ext));
        assert_eq!(got.len(), 1, "{opt}: {got:#?}");
        let (construct, display) = &got[0];
        assert_eq!(construct, "inline asm");
        let prefix = format!("c/asm_mov.c:{line}:3: error: gimso does not support inline assembly");
        assert!(
            display.contains(&prefix),
            "{opt}: {display}\n  should contain {prefix}"
        );
        assert!(display.contains("`movl $0, (%0)`"), "{display}");
        assert!(display.contains("may touch memory"), "{display}");
        assert!(display.ends_with("(in function `f`)"), "{opt}: {display}");
    }
}

#[test]
fn asm_goto_is_rejected_as_callbr() {
    let line = line_of("asm_goto.c", "callbr");
    for (opt, ext) in BUILDS {
        let got = diagnostics(&compile("asm_goto.c", opt, ext));
        assert_eq!(got.len(), 1, "{opt}: {got:#?}");
        let (construct, display) = &got[0];
        assert_eq!(construct, "callbr");
        let prefix = format!("c/asm_goto.c:{line}:3: error: gimso does not support `callbr`");
        assert!(
            display.contains(&prefix),
            "{opt}: {display}\n  should contain {prefix}"
        );
        assert!(display.ends_with("(in function `f`)"), "{opt}: {display}");
    }
}
