//! `llvm-stress-16` output (the fuzz corpus of docs/testing.md, "Pass fuzzing"): the loader and the
//! checker must handle it without crashing, it uses nothing rejected, and
//! its translation verifies.
//!
//! The default run takes 25 seeds; `scripts/fuzz-pass.sh [N]` runs N
//! (`PASS_FUZZ_SEEDS=N`, sizes varying with the seed).

use std::process::Command;

use gimso_pass::{check_module, parse_module};
use inkwell::context::Context;

#[test]
fn llvm_stress_modules_are_accepted() {
    let seeds: u32 = std::env::var("PASS_FUZZ_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(25);
    for seed in 1..=seeds {
        let size = 100 + (seed % 8) * 100;
        let out = Command::new("llvm-stress-16")
            .args([format!("-seed={seed}"), format!("-size={size}")])
            .output()
            .unwrap_or_else(|e| panic!("cannot run llvm-stress-16 ({e}); install llvm-16"));
        assert!(out.status.success(), "llvm-stress-16 -seed={seed} failed");
        if std::env::var_os("PASS_FUZZ_VERBOSE").is_some() {
            eprintln!("seed {seed}");
        }
        let ctx = Context::create();
        let name = format!("stress-{seed}.ll");
        let module = parse_module(&ctx, &out.stdout, &name).unwrap_or_else(|e| panic!("{e}"));
        let diags = check_module(&module);
        assert!(diags.is_empty(), "{name}: {diags:#?}");
        // The inttoptr capability inference runs on every function too.
        for f in module.get_functions() {
            let _ = gimso_pass::inttoptr::infer(gimso_pass::llvm::Func::of(f));
            let _ = gimso_pass::escape::classify_allocas(
                &gimso_pass::llvm::DataLayout::new(&module),
                gimso_pass::llvm::Func::of(f),
            );
        }
        // And the preparatory rewrite leaves a module that verifies.
        gimso_pass::prepare::prepare(&module);
        module
            .verify()
            .unwrap_or_else(|e| panic!("{name} after prepare: {e}"));
        // The translation itself: no crash, no diagnostic, output verifies
        // (translate_module runs the verifier and reports a failure).
        if let Err(d) = gimso_pass::translate::translate_module(&module) {
            panic!(
                "{name}: {}",
                d.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
    }
    eprintln!("{seeds} llvm-stress-16 modules loaded, checked, prepared, translated and verified");
}
