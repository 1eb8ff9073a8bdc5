//! `llvm-stress-16` output (the fuzz corpus of DESIGN §8): the loader and the
//! checker must handle it without crashing, and it uses nothing rejected.

use std::process::Command;

use gimso_pass::{check_module, parse_module};
use inkwell::context::Context;

#[test]
fn llvm_stress_modules_are_accepted() {
    for seed in 1..=25 {
        let out = Command::new("llvm-stress-16")
            .args([format!("-seed={seed}"), "-size=300".to_owned()])
            .output()
            .unwrap_or_else(|e| panic!("cannot run llvm-stress-16 ({e}); install llvm-16"));
        assert!(out.status.success(), "llvm-stress-16 -seed={seed} failed");
        let ctx = Context::create();
        let name = format!("stress-{seed}.ll");
        let module = parse_module(&ctx, &out.stdout, &name).unwrap_or_else(|e| panic!("{e}"));
        let diags = check_module(&module);
        assert!(diags.is_empty(), "{name}: {diags:#?}");
    }
}
