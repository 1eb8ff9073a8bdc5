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
use std::sync::Once;

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
/// null checks are on.
fn set_codegen_options() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let args = [
            c"gimso-cc".as_ptr(),
            c"-trap-unreachable".as_ptr(),
            // Null tests of capabilities marked `make.implicit` fold into
            // the header load after them ([`crate::fault_map`]).
            c"-enable-implicit-null-checks".as_ptr(),
        ];
        // SAFETY: NUL-terminated strings that outlive the call; LLVM
        // copies what it keeps. Called once, before any target machine
        // exists, as LLVM requires of command-line option parsing.
        unsafe {
            inkwell::llvm_sys::support::LLVMParseCommandLineOptions(
                args.len() as i32,
                args.as_ptr(),
                std::ptr::null(),
            );
        }
    });
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
    use inkwell::llvm_sys::core::*;
    use std::collections::BTreeMap;

    let m = module.as_mut_ptr();
    let mut keep = Vec::new();
    for (list, section) in [
        (c"llvm.global_ctors", ".init_array"),
        (c"llvm.global_dtors", ".fini_array"),
    ] {
        // SAFETY: `m` is the live module; every value read below belongs to
        // it. A structor list is an appending array of `{i32, ptr, ptr}`
        // constant structs (LangRef), so operands 0 and 1 of each entry are
        // the priority and the function; the list global is deleted only
        // after its initialiser has been read.
        unsafe {
            let g = LLVMGetNamedGlobal(m, list.as_ptr());
            if g.is_null() {
                continue;
            }
            let init = LLVMGetInitializer(g);
            let mut by_priority: BTreeMap<u64, Vec<_>> = BTreeMap::new();
            if !init.is_null() {
                for i in 0..LLVMGetNumOperands(init).max(0) as u32 {
                    let entry = LLVMGetOperand(init, i);
                    let prio = LLVMConstIntGetZExtValue(LLVMGetOperand(entry, 0));
                    let f = LLVMGetOperand(entry, 1);
                    if LLVMIsNull(f) == 0 {
                        by_priority.entry(prio).or_default().push(f);
                    }
                }
            }
            LLVMDeleteGlobal(g);
            let ctx = LLVMGetModuleContext(m);
            let ptr = LLVMPointerTypeInContext(ctx, 0);
            for (prio, mut fns) in by_priority {
                let ty = LLVMArrayType(ptr, fns.len() as u32);
                let name = std::ffi::CString::new(format!("gimso{section}.{prio}"))
                    .expect("no NUL in a generated name");
                let arr = LLVMAddGlobal(m, ty, name.as_ptr());
                LLVMSetInitializer(arr, LLVMConstArray(ptr, fns.as_mut_ptr(), fns.len() as u32));
                LLVMSetLinkage(arr, inkwell::llvm_sys::LLVMLinkage::LLVMInternalLinkage);
                LLVMSetAlignment(arr, 8);
                let sect = if prio == 65535 {
                    section.to_owned()
                } else {
                    format!("{section}.{prio}")
                };
                let sect = std::ffi::CString::new(sect).expect("no NUL in a section name");
                LLVMSetSection(arr, sect.as_ptr());
                keep.push(arr);
            }
        }
    }
    if keep.is_empty() {
        return;
    }
    // SAFETY: as above; the old `llvm.compiler.used` (if any) is read,
    // then replaced by one that also lists the new arrays, so code
    // generation keeps them although nothing refers to them.
    unsafe {
        let ctx = LLVMGetModuleContext(m);
        let ptr = LLVMPointerTypeInContext(ctx, 0);
        let old = LLVMGetNamedGlobal(m, c"llvm.compiler.used".as_ptr());
        if !old.is_null() {
            let init = LLVMGetInitializer(old);
            if !init.is_null() {
                for i in 0..LLVMGetNumOperands(init).max(0) as u32 {
                    keep.push(LLVMGetOperand(init, i));
                }
            }
            LLVMDeleteGlobal(old);
        }
        let ty = LLVMArrayType(ptr, keep.len() as u32);
        let used = LLVMAddGlobal(m, ty, c"llvm.compiler.used".as_ptr());
        LLVMSetInitializer(
            used,
            LLVMConstArray(ptr, keep.as_mut_ptr(), keep.len() as u32),
        );
        LLVMSetLinkage(used, inkwell::llvm_sys::LLVMLinkage::LLVMAppendingLinkage);
        LLVMSetSection(used, c"llvm.metadata".as_ptr());
    }
}
