//! The back half in process: a short clean-up pipeline over the translated
//! module, then x86-64 code generation straight to an object file.
//!
//! The module reaching the translation was already optimised at the user's
//! level ([`crate::optimize::front_half`]); what the translation adds is
//! check arithmetic over constant expressions, repeated header loads and
//! call sequences through the CC buffers. Those need instruction
//! combining, CFG simplification, redundancy elimination and hoisting out
//! of loops, not a second full `default<O2>` (inlining, unrolling and
//! vectorising again cost a third of the compile time of a small file and
//! bought nothing measurable on the benchmark programs: see BENCHMARKS.md).
//! Doing it here also saves a clang process and a bitcode round trip.

use std::path::Path;

use inkwell::OptimizationLevel;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine,
};

/// The clean-up pipeline after the translation (levels 1 and up).
pub const CLEANUP_PIPELINE: &str = "function(mem2reg,instcombine,simplifycfg,early-cse<memssa>,gvn,\
     loop-mssa(licm),instcombine,simplifycfg)";

/// Code-generation settings clang would use for the same `-O` level.
fn codegen_level(level: &str) -> OptimizationLevel {
    match level {
        "0" | "" => OptimizationLevel::None,
        "1" => OptimizationLevel::Less,
        "3" | "fast" => OptimizationLevel::Aggressive,
        _ => OptimizationLevel::Default,
    }
}

/// LLVM's code-generation options: `unreachable` becomes a trap
/// instruction, as with clang's `-mllvm -trap-unreachable` (control never
/// falls off the end of a function into whatever follows it), and implicit
/// null checks are on. Parsed once, before any target machine exists, as
/// LLVM requires of command-line option parsing.
fn set_codegen_options() {
    crate::llvm::parse_command_line_once(&[
        c"gimso-cc",
        c"-trap-unreachable",
        // Null tests of capabilities marked `make.implicit` fold into
        // the header load after them ([`crate::fault_map`]).
        c"-enable-implicit-null-checks",
    ]);
}

/// A position-independent x86-64 target machine for the host triple (the
/// module's own `PIC Level`/`PIE Level` flags refine it as clang's would).
fn target_machine(level: &str) -> Result<TargetMachine, String> {
    set_codegen_options();
    Target::initialize_x86(&InitializationConfig::default());
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| e.to_string())?;
    target
        .create_target_machine(
            &triple,
            "x86-64",
            "",
            codegen_level(level),
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| "cannot create an x86-64 target machine".to_owned())
}

/// Cleans up the translated `module` at `-O<level>` and writes an object
/// file to `out`.
pub fn emit_object(module: &Module<'_>, level: &str, out: &Path) -> Result<(), String> {
    let mut object = generate(module, level, FileType::Object)?;
    crate::fault_map::retarget(&mut object)?;
    std::fs::write(out, object).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// Cleans up the translated `module` at `-O<level>` and returns its
/// assembly: the code [`emit_object`] makes of the same module.
pub fn emit_assembly(module: &Module<'_>, level: &str) -> Result<Vec<u8>, String> {
    generate(module, level, FileType::Assembly)
}

fn generate(module: &Module<'_>, level: &str, kind: FileType) -> Result<Vec<u8>, String> {
    let machine = target_machine(level)?;
    if !matches!(level, "0" | "") {
        module
            .run_passes(CLEANUP_PIPELINE, &machine, PassBuilderOptions::create())
            .map_err(|e| e.to_string())?;
    }
    crate::failure_paths::spin_failure_paths(module, crate::translate::runtime::FAILURES);
    lower_structors(module);
    let buffer = machine
        .write_to_memory_buffer(module, kind)
        .map_err(|e| e.to_string())?;
    Ok(buffer.as_slice().to_vec())
}

/// Puts `llvm.global_ctors`/`llvm.global_dtors` into `.init_array.N` /
/// `.fini_array.N` sections by hand. The C API's target machines keep
/// LLVM's default of the old `.ctors`/`.dtors` sections (clang switches
/// that off; the C API of LLVM 16 cannot), and neither glibc's start files
/// nor lld run those: the module's start-up function would silently never
/// run. The section names and their order are what LLVM emits with
/// `UseInitArray`: `.init_array.N` for priority N, `.init_array` for the
/// default 65535, entries of one priority in list order.
fn lower_structors(module: &Module<'_>) {
    use crate::llvm::{Linkage, Ll};
    use std::collections::BTreeMap;

    let ll = Ll::new(module);
    let ptr = ll.ptr();
    let mut keep = Vec::new();
    for (list, section) in [
        ("llvm.global_ctors", ".init_array"),
        ("llvm.global_dtors", ".fini_array"),
    ] {
        let Some(g) = ll.get_global(list) else {
            continue;
        };
        // A structor list is an appending array of `{i32, ptr, ptr}`
        // constant structs (LangRef): the priority and the function first.
        let mut by_priority: BTreeMap<u64, Vec<_>> = BTreeMap::new();
        if let Some(init) = g.initializer() {
            for entry in init.operands() {
                let prio = entry
                    .operand(0)
                    .const_int_value()
                    .expect("a structor priority is a constant integer");
                let f = entry.operand(1);
                if !f.is_null_constant() {
                    by_priority.entry(prio).or_default().push(f);
                }
            }
        }
        // SAFETY: the list is one of LLVM's special globals, which nothing
        // refers to, and its initialiser has been read; `g` is not used
        // again.
        unsafe { g.delete_global() };
        for (prio, fns) in by_priority {
            let ty = ll.array_ty(ptr, fns.len() as u64);
            let arr = ll.add_global(ty, &format!("gimso{section}.{prio}"));
            arr.set_initializer(Some(ll.const_array(ptr, &fns)));
            arr.set_linkage(Linkage::LLVMInternalLinkage);
            arr.set_alignment(8);
            let sect = if prio == 65535 {
                section.to_owned()
            } else {
                format!("{section}.{prio}")
            };
            arr.set_section(&sect);
            keep.push(arr);
        }
    }
    if keep.is_empty() {
        return;
    }
    // The old `llvm.compiler.used` (if any) is replaced by one that also
    // lists the new arrays, so code generation keeps them although nothing
    // refers to them.
    if let Some(old) = ll.get_global("llvm.compiler.used") {
        if let Some(init) = old.initializer() {
            keep.extend(init.operands());
        }
        // SAFETY: as the structor lists above: nothing refers to it, its
        // initialiser has been read, and `old` is not used again.
        unsafe { old.delete_global() };
    }
    let ty = ll.array_ty(ptr, keep.len() as u64);
    let used = ll.add_global(ty, "llvm.compiler.used");
    used.set_initializer(Some(ll.const_array(ptr, &keep)));
    used.set_linkage(Linkage::LLVMAppendingLinkage);
    used.set_section("llvm.metadata");
}
