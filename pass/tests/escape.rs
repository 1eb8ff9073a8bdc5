//! Which allocas stay stack slots: private and provably in bounds only.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use gimso_pass::escape::{AllocaHome, classify_allocas};
use gimso_pass::load_module;
use inkwell::context::Context;

fn compile_named(source: &str) -> PathBuf {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(source);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("escape.ll");
    let st = Command::new("clang-16")
        .args(["-O0", "-fno-discard-value-names", "-emit-llvm", "-S", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .expect("run clang-16 (scripts/setup.sh installs it)");
    assert!(st.success());
    out
}

#[test]
fn allocas_are_stack_only_when_private_and_in_bounds() {
    let ctx = Context::create();
    let module = load_module(&ctx, &compile_named("escape.c")).expect("loads");
    let homes = |f: &str| -> HashMap<String, AllocaHome> {
        classify_allocas(&module, module.get_function(f).unwrap())
            .into_iter()
            .map(|(i, h)| (i.get_name().unwrap().to_str().unwrap().to_owned(), h))
            .collect()
    };

    let h = homes("only_scalars");
    for name in ["x.addr", "a", "b"] {
        assert_eq!(h[name], AllocaHome::Stack, "{name}: {h:?}");
    }
    assert_eq!(homes("fields")["p"], AllocaHome::Stack);
    assert_eq!(
        homes("var_index")["arr"],
        AllocaHome::Heap("it is indexed with a variable")
    );
    assert!(matches!(homes("escapes")["a"], AllocaHome::Heap(why) if why.contains("escapes")));
    let h = homes("holds_pointer");
    assert!(
        matches!(h["q"], AllocaHome::Heap(why) if why.contains("pointer")),
        "{h:?}"
    );
    assert!(
        matches!(h["p.addr"], AllocaHome::Heap(why) if why.contains("pointer")),
        "{h:?}"
    );
}
