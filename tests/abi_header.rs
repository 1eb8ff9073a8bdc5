//! `include/gimso.h` against the runtime's ABI crate: every `GIMSO_*`
//! constant and every struct size and offset, compared both ways.

mod support;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;

use gimso_abi::{ABI_CONSTANTS, ABI_LAYOUTS};

#[test]
fn header_matches_abi_crate() {
    let names = support::header_constants();
    assert!(
        names.len() > 30,
        "suspiciously few constants parsed: {names:?}"
    );

    let mut c = String::from("#include <stdio.h>\n#include <stddef.h>\n#include \"gimso.h\"\n");
    c.push_str("int main(void) {\n");
    for n in &names {
        let _ = writeln!(
            c,
            "  printf(\"%s %llu\\n\", \"{n}\", (unsigned long long)({n}));"
        );
    }
    for (st, field, _) in ABI_LAYOUTS {
        let key = format!("{st}.{field}");
        if field.is_empty() {
            let _ = writeln!(c, "  printf(\"%s %zu\\n\", \"{key}\", sizeof({st}));");
        } else {
            let _ = writeln!(
                c,
                "  printf(\"%s %zu\\n\", \"{key}\", offsetof({st}, {field}));"
            );
        }
    }
    c.push_str("  return 0;\n}\n");

    let dir = support::scratch("abi_header");
    let src = dir.join("check.c");
    let exe = dir.join("check");
    std::fs::write(&src, c).unwrap();
    support::compile_c(&[&src], &exe, &[]);
    let out = Command::new(&exe).output().expect("run header check");
    assert!(out.status.success());
    let printed: BTreeMap<String, u64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.split_once(' ').unwrap();
            (k.to_owned(), v.parse().unwrap())
        })
        .collect();

    let mut expected: BTreeMap<String, u64> = ABI_CONSTANTS
        .iter()
        .map(|(k, v)| ((*k).to_owned(), *v))
        .collect();
    for (st, field, v) in ABI_LAYOUTS {
        expected.insert(format!("{st}.{field}"), *v);
    }

    let mut problems = Vec::new();
    for (k, v) in &expected {
        match printed.get(k) {
            None => problems.push(format!("{k}: in gimso-abi but not declared in gimso.h")),
            Some(c) if c != v => problems.push(format!("{k}: header says {c}, gimso-abi says {v}")),
            _ => {}
        }
    }
    for k in printed.keys() {
        if !expected.contains_key(k) {
            problems.push(format!(
                "{k}: declared in gimso.h but missing from gimso-abi"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "header and ABI crate disagree:\n{}",
        problems.join("\n")
    );
}

#[test]
fn header_compiles_pedantically() {
    let dir = support::scratch("abi_header_strict");
    let src = dir.join("strict.c");
    std::fs::write(
        &src,
        "#include \"gimso.h\"\n\
         _Static_assert(sizeof(gimso_ptr) == 16, \"flight pointer is two words\");\n\
         _Static_assert(sizeof(gimso_object_header) == GIMSO_HEADER_SIZE, \"header\");\n\
         _Static_assert(offsetof(gimso_thread_abi, state) == GIMSO_THREAD_STATE_OFFSET, \"state\");\n\
         int main(void) { return 0; }\n",
    )
    .unwrap();
    support::compile_c(
        &[&src],
        &dir.join("strict"),
        &["-pedantic", "-Wextra", "-c"],
    );
}
