//! The optimiser before the pass, without the promises that let it delete
//! the user's bugs (docs/translation.md, "The -O2 guards").
//!
//! clang's own `-O2` pipeline trusts attributes that C headers and the
//! front end attach: `__attribute__((malloc))` makes `malloc`'s result
//! `noalias`, so a store into a fresh buffer that is never read is dead and
//! goes, out-of-bounds or not; `__nonnull` deletes null checks; `pure`
//! lets an unused `strlen` of an unterminated string vanish; `builtin` on
//! a C++ new-expression lets it elide the allocation and a `delete` of an
//! interior pointer with it. So gimso-cc
//! asks clang for unoptimised IR (`-O0 -Xclang -disable-O0-optnone`),
//! [`strip_promises`] removes those attributes from every function,
//! declaration and call site, and [`optimize`] runs LLVM's standard
//! `default<On>` pipeline in process. The optimiser still promotes allocas,
//! inlines and vectorises; it just cannot assume the program is correct.

use inkwell::OptimizationLevel;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};

use crate::llvm::{AttrAt, Ll, Opcode, Value, attr_kind};

/// Enum attributes that are promises about memory or values which a buggy
/// program breaks.
const PROMISES: &[&str] = &[
    "noalias",
    "nonnull",
    "dereferenceable",
    "dereferenceable_or_null",
    "align",
    "noundef",
    "readonly",
    "readnone",
    "writeonly",
    "memory",
    "nocapture",
    "nofree",
    "willreturn",
    "mustprogress",
    "allockind",
    "allocsize",
    "returned",
    // On a call of a replaceable `operator new`/`delete` (a new-expression,
    // libc++'s `__builtin_operator_new`): lets the optimiser delete the
    // allocation together with whatever frees it, a bad `delete` included.
    "builtin",
];

/// Removes the promise attributes from every function (return, parameters,
/// function) and every call site. Returns how many were removed.
pub fn strip_promises(module: &Module<'_>) -> usize {
    let names: Vec<&str> = PROMISES
        .iter()
        .copied()
        .filter(|n| attr_kind(n) != 0)
        .collect();
    let mut removed = 0;
    for f in Ll::new(module).functions() {
        if f.name_bytes().starts_with(b"llvm.") {
            continue;
        }
        let n = f.params().len() as u32;
        let mut locs = vec![AttrAt::Return, AttrAt::Function];
        locs.extend((0..n).map(AttrAt::Param));
        for &at in &locs {
            for &name in &names {
                if f.has_attr(at, name) {
                    f.remove_enum_attr(at, name);
                    removed += 1;
                }
            }
        }
        for call in f.instructions() {
            if !matches!(call.opcode(), Opcode::LLVMCall | Opcode::LLVMInvoke) {
                continue;
            }
            if !call.called_value().name().starts_with("llvm.") {
                removed += strip_call_site(call, &names);
            }
        }
    }
    removed
}

/// `names` are attributes this LLVM knows (kind not 0).
fn strip_call_site(call: Value<'_>, names: &[&str]) -> usize {
    let mut removed = 0;
    let mut locs = vec![AttrAt::Return, AttrAt::Function];
    locs.extend((0..call.num_arg_operands()).map(AttrAt::Param));
    for at in locs {
        for &name in names {
            if call.call_has_attr(at, name) {
                call.remove_call_enum_attr(at, name);
                removed += 1;
            }
        }
    }
    removed
}

/// Runs LLVM's `default<O{level}>` pipeline (`level` 0 does nothing; `s`
/// and `z` map to `Os`/`Oz`; `mem2reg` is `-O0`'s promotion of allocas,
/// `always-inline` the inlining of `always_inline` functions alone).
pub fn optimize(module: &Module<'_>, level: &str) -> Result<(), String> {
    let passes = match level {
        "0" | "" => return Ok(()),
        "mem2reg" => "function(sroa,mem2reg)",
        "always-inline" => "always-inline",
        "1" => "default<O1>",
        "s" => "default<Os>",
        "z" => "default<Oz>",
        "3" | "fast" => "default<O3>",
        _ => "default<O2>",
    };
    Target::initialize_x86(&InitializationConfig::default());
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| e.to_string())?;
    let machine = target
        .create_target_machine(
            &triple,
            "x86-64",
            "",
            OptimizationLevel::Default,
            // Static: a PIC machine makes the optimiser turn switch tables of
            // pointers into `llvm.load.relative` tables, which carry no
            // capabilities. Code generation (after the pass) still uses the
            // user's relocation model.
            RelocMode::Static,
            CodeModel::Default,
        )
        .ok_or_else(|| "cannot create an x86-64 target machine".to_owned())?;
    module
        .run_passes(passes, &machine, PassBuilderOptions::create())
        .map_err(|e| e.to_string())
}

/// Everything between clang's unoptimised IR and the pass: promises
/// stripped, C11 pointer atomics restored ([`crate::atomic_ptr`]), bounds
/// guards placed ([`crate::guards`]), escaping locals kept past their
/// function's return ([`crate::kept_locals`]), then the optimiser at
/// `level` (`-O0` still promotes allocas to SSA values, so pointer/integer
/// round trips behave as at `-O2`).
pub fn front_half(module: &Module<'_>, level: &str) -> Result<(), String> {
    strip_promises(module);
    crate::atomic_ptr::rewrite(module);
    // `always_inline` functions inlined first (as clang would), so the
    // guards see the object an inlined helper's parameter points into.
    // (Promoting scalars first as well would show them pointer variables,
    // but changes what the pipeline makes of the program: zlib +4.5% of
    // instructions.)
    optimize(module, "always-inline")?;
    crate::guards::insert(module);
    if level == "0" {
        return optimize(module, "mem2reg");
    }
    crate::kept_locals::insert(module);
    optimize(module, level)
}
