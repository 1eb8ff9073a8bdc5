//! Every function `gimso.h` declares is exported by `libgimso.a` and links
//! from C; every `gimso_*` function the library exports is declared.

mod support;

use std::fmt::Write as _;
use std::process::Command;

fn staticlib() -> std::path::PathBuf {
    let lib = support::build_runtime_libraries().join("libgimso.a");
    assert!(lib.exists(), "{} not built", lib.display());
    lib
}

/// `nm ARGS lib`'s output (which must succeed).
fn nm(args: &[&str], lib: &std::path::Path) -> String {
    let out = Command::new("nm")
        .args(args)
        .arg(lib)
        .output()
        .expect("run nm");
    assert!(out.status.success(), "nm {args:?} {}", lib.display());
    String::from_utf8(out.stdout).expect("nm prints text")
}

#[test]
fn c_program_links_every_declared_function() {
    let functions = support::header_functions();
    assert!(
        functions.len() >= 15,
        "suspiciously few functions parsed: {functions:?}"
    );
    let mut c = String::from("#include <stdio.h>\n#include \"gimso.h\"\n");
    c.push_str("int main(void) {\n  void *volatile fns[] = {\n");
    for f in &functions {
        let _ = writeln!(c, "    (void *)&{f},");
    }
    c.push_str("  };\n  (void)fns;\n");
    // Call something real through the static library.
    c.push_str(
        "  gimso_ptr p = gimso_alloc(24);\n\
           gimso_check_access(p, 24, GIMSO_ACCESS_WRITE);\n\
           ((long *)gimso_ptr_address(p))[2] = 7;\n\
           gimso_store_ptr(p, p);\n\
           gimso_ptr q = gimso_load_ptr(p);\n\
           printf(\"version %u size %zu same %d value %ld marking %d\\n\", gimso_abi_version(),\n\
                  gimso_object_size(p), q.lower == p.lower && q.intval == p.intval,\n\
                  ((long *)gimso_ptr_address(q))[2], (int)gimso_gc_marking);\n\
           gimso_free(p);\n\
           return 0;\n}\n",
    );
    let dir = support::scratch("abi_exports");
    let src = dir.join("link.c");
    let exe = dir.join("link");
    std::fs::write(&src, c).unwrap();
    let lib = staticlib();
    support::compile_c(&[&src, &lib], &exe, &["-lpthread", "-ldl", "-lm"]);
    let out = Command::new(&exe).output().expect("run linked program");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "version {} size 24 same 1 value 7 marking 0\n",
            gimso_abi::ABI_VERSION
        )
    );
}

#[test]
fn every_exported_function_is_declared() {
    let text = nm(&["--defined-only", "-g"], &staticlib());
    let declared = support::header_functions();
    let mut exported: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (_, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            (kind == "T" && name.starts_with("gimso_")).then(|| name.to_owned())
        })
        .collect();
    exported.sort();
    exported.dedup();
    assert!(exported.len() >= 15, "found only {exported:?}");
    let undeclared: Vec<_> = exported.iter().filter(|n| !declared.contains(n)).collect();
    assert!(
        undeclared.is_empty(),
        "exported but not in gimso.h: {undeclared:?}"
    );
    let missing: Vec<_> = declared.iter().filter(|n| !exported.contains(n)).collect();
    assert!(
        missing.is_empty(),
        "declared in gimso.h but not exported: {missing:?}"
    );
}

#[test]
fn shared_library_exports_the_same_functions() {
    let so = support::build_runtime_libraries().join("libgimso.so");
    assert!(so.exists(), "{} not built", so.display());
    let text = nm(&["-D", "--defined-only"], &so);
    let exported: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2))
        .collect();
    for f in support::header_functions() {
        assert!(
            exported.contains(&f.as_str()),
            "{f} not exported by libgimso.so"
        );
    }
    assert!(exported.contains(&"gimso_gc_marking"));

    // And a program linked against it runs.
    let dir = support::scratch("abi_exports_so");
    let src = dir.join("dyn.c");
    std::fs::write(
        &src,
        "#include <stdio.h>\n#include \"gimso.h\"\n\
         int main(void) { gimso_ptr p = gimso_alloc(40);\n\
         printf(\"%zu %u\\n\", gimso_object_size(p), gimso_abi_version()); return 0; }\n",
    )
    .unwrap();
    let exe = dir.join("dyn");
    let libdir = support::profile_dir();
    support::compile_c(
        &[&src],
        &exe,
        &[&format!("-L{}", libdir.display()), "-lgimso"],
    );
    let run = Command::new(&exe)
        .env("LD_LIBRARY_PATH", &libdir)
        .output()
        .expect("run dynamically linked program");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        String::from_utf8(run.stdout).unwrap(),
        format!("40 {}\n", gimso_abi::ABI_VERSION)
    );
}

/// The pass's list of wrapped C library names (calls to them skip the
/// direct-call thunk) is exactly the library's `gimso.fn.*` exports.
#[test]
fn the_pass_knows_every_wrapper() {
    let text = nm(&["--defined-only", "-g"], &staticlib());
    let mut exported: Vec<String> = text
        .lines()
        .filter_map(|l| {
            let name = l.split_whitespace().last()?;
            // Register entries (`NAME.direct`) are no names of their own.
            name.strip_prefix(gimso_abi::SYMBOL_FN_PREFIX)
                .filter(|n| !n.ends_with(gimso_abi::WRAPPER_DIRECT_SUFFIX))
                .map(str::to_owned)
        })
        .collect();
    exported.sort();
    exported.dedup();
    let text = std::fs::read_to_string(support::root().join("pass/src/libc_names.txt"))
        .expect("read pass/src/libc_names.txt");
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(exported.len() > 400, "found only {}", exported.len());
    assert_eq!(
        listed, exported,
        "pass/src/libc_names.txt is out of date: regenerate it with the command in its header"
    );
}

/// Every wrapper `gimso_abi::DIRECT_WRAPPERS` promises a register entry for
/// (the pass calls `gimso.fn.NAME.direct` by that name) has one, in both
/// libraries.
#[test]
fn wrapper_register_entries_are_exported() {
    let so = support::build_runtime_libraries().join("libgimso.so");
    for (lib, flags) in [
        (staticlib(), vec!["--defined-only", "-g"]),
        (so, vec!["-D", "--defined-only"]),
    ] {
        let text = nm(&flags, &lib);
        let defined: Vec<&str> = text
            .lines()
            .filter(|l| l.split_whitespace().nth(1) == Some("T"))
            .filter_map(|l| l.split_whitespace().nth(2))
            .collect();
        for w in gimso_abi::DIRECT_WRAPPERS {
            assert!(
                defined.contains(&w.symbol),
                "{} not in {}",
                w.symbol,
                lib.display()
            );
        }
    }
}
