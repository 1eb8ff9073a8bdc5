//! One hand-written `.ll` fixture per rejected construct, with exact
//! `file:line:col` expectations from their `!dbg` locations.

mod common;

use common::{diagnostics, fixture};

fn check(name: &str) -> Vec<(String, String)> {
    diagnostics(&fixture(&format!("ir/{name}")))
}

/// Asserts the exact constructs and locations, in order.
fn expect(name: &str, want: &[(&str, &str)]) {
    let got = check(name);
    let summary: Vec<(&str, &str)> = got
        .iter()
        .map(|(c, d)| (c.as_str(), d.split(": error: ").next().unwrap_or("")))
        .collect();
    assert_eq!(summary, want, "{name}: {got:#?}");
    for (construct, display) in &got {
        assert!(
            display.contains(": error: gimso does not support "),
            "{display}"
        );
        assert!(display.ends_with("(in function `f`)"), "{display}");
        let _ = construct;
    }
}

#[test]
fn callbr() {
    expect("callbr.ll", &[("callbr", "/src/callbr.c:3:5")]);
    let (_, display) = &check("callbr.ll")[0];
    assert!(display.starts_with("/src/callbr.c:3:5: error: gimso does not support `callbr`"));
}

#[test]
fn catchswitch() {
    expect(
        "catchswitch.ll",
        &[
            ("catchswitch", "/src/catchswitch.cpp:3:5"),
            ("catchpad", "/src/catchswitch.cpp:4:7"),
        ],
    );
}

#[test]
fn catchpad() {
    expect(
        "catchpad.ll",
        &[
            ("catchswitch", "/src/catchpad.cpp:2:3"),
            ("catchpad", "/src/catchpad.cpp:4:7"),
        ],
    );
}

#[test]
fn catchret() {
    expect(
        "catchret.ll",
        &[
            ("catchswitch", "/src/catchret.cpp:2:3"),
            ("catchpad", "/src/catchret.cpp:2:3"),
            ("catchret", "/src/catchret.cpp:5:9"),
        ],
    );
}

#[test]
fn cleanuppad() {
    expect(
        "cleanuppad.ll",
        &[("cleanuppad", "/src/cleanuppad.cpp:4:7")],
    );
}

#[test]
fn cleanupret() {
    expect(
        "cleanupret.ll",
        &[
            ("cleanuppad", "/src/cleanupret.cpp:2:3"),
            ("cleanupret", "/src/cleanupret.cpp:5:9"),
        ],
    );
}

#[test]
fn alloca_inalloca() {
    expect("inalloca.ll", &[("alloca inalloca", "/src/inalloca.c:4:7")]);
}

#[test]
fn inline_asm_with_a_template() {
    expect("inline_asm.ll", &[("inline asm", "/src/asm.c:5:9")]);
    let (_, display) = &check("inline_asm.ll")[0];
    assert!(display.contains("`movl $0, (%rsp)`"), "{display}");
    assert!(display.contains("without capability checks"), "{display}");
    assert!(display.contains("may touch memory"), "{display}");
}

#[test]
fn address_spaces() {
    let got = check("addrspace.ll");
    let rendered: Vec<String> = got.iter().map(|(c, d)| format!("{c} | {d}")).collect();
    let want_prefixes = [
        "addrspace(1) | <module>: error: gimso does not support pointers in address space 1",
        "addrspace(2) | <module>: error:",
        "addrspace(3) | <module>: error:",
        "addrspace(3) | <module>: error:",
        "addrspace(4) | <module>: error:",
        "addrspace(1) | /src/addrspace.c:9: error:",
        "addrspace(1) | /src/addrspace.c:2:3: error:",
        "addrspace(1) | /src/addrspace.c:3:5: error:",
        "addrspace(1) | /src/addrspace.c:4:7: error:",
        "addrspace(5) | /src/addrspace.c:5:9: error:",
    ];
    assert_eq!(rendered.len(), want_prefixes.len(), "{rendered:#?}");
    for (got, want) in rendered.iter().zip(want_prefixes) {
        assert!(got.starts_with(want), "{got}\n  should start with\n{want}");
    }
    let scopes: Vec<&str> = rendered
        .iter()
        .map(|r| &r[r.rfind(" (in ").expect("scope")..])
        .collect();
    assert_eq!(
        scopes,
        [
            " (in global `g1`)",
            " (in global `gp`)",
            " (in global `g3`)",
            " (in global `ce`)",
            " (in function `ext`)",
            " (in function `param`)",
            " (in function `f`)",
            " (in function `f`)",
            " (in function `f`)",
            " (in function `f`)",
        ]
    );
}

#[test]
fn module_asm() {
    let got = check("module_asm.ll");
    assert_eq!(got.len(), 1, "{got:#?}");
    assert_eq!(got[0].0, "module asm");
    assert!(
        got[0]
            .1
            .starts_with("<module>: error: gimso does not support module-level inline")
    );
    assert!(!got[0].1.contains("(in "), "{}", got[0].1);
}

#[test]
fn without_debug_info_names_the_function() {
    let got = check("no_debug.ll");
    let display: Vec<&str> = got.iter().map(|(_, d)| d.as_str()).collect();
    assert_eq!(display.len(), 2, "{display:#?}");
    assert!(
        display[0].starts_with("<module>: error: gimso does not support inline assembly `syscall`")
    );
    assert!(display[0].ends_with(" (in function `h`)"), "{}", display[0]);
    assert!(display[1].starts_with("<module>: error: gimso does not support `callbr`"));
    assert!(display[1].ends_with(" (in function `k`)"), "{}", display[1]);
}

#[test]
fn clean_module_has_no_diagnostics() {
    assert_eq!(check("clean.ll"), Vec::<(String, String)>::new());
}
