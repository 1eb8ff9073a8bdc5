//! Small structs passed `byval` are passed as their words.
//!
//! The x86-64 convention passes a struct by value in registers while they
//! last and on the stack after: clang gives such a parameter the type
//! `ptr byval(T)` (QuickJS's `JS_CallInternal(ctx, func_obj, this_obj,
//! new_target, ...)` gets its `new_target` so, `JS_SetPropertyInternal2`
//! its receiver). A `byval` parameter is a private copy the callee may take
//! the address of; gimso gave each such function only its generic entry,
//! which copies the argument into a fresh heap object on every call, and
//! made every caller go through the CC buffers.
//!
//! Here a `byval(T)` parameter of 8 to 64 bytes, a whole number of words
//! and at most 8-aligned becomes that many `i64` parameters (the words of
//! the struct, each crossing the call with its capability as 64-bit
//! integers do), and the callee gets a local `alloca T` holding them,
//! which stands for the old pointer: it is an ordinary local, classified
//! like any other (a register or frame slot when its address stays in the
//! function, a heap object when it escapes). Every call passing such an
//! argument loads its words from the pointer instead. The bytes in the CC
//! buffers are the same as before (the struct's words at the same offsets),
//! so generic calls and C library wrappers see no difference; the
//! function can now have a direct entry.
//!
//! Rewritten: every function defined or declared here except intrinsics
//! and C library functions, and every call or invoke of anything else
//! (through a pointer too) with such an argument, in the fixed or the
//! variadic part. Both sides apply the same rule to the same type, so the
//! signature hashes of direct calls agree across translation units. Calls
//! with operand bundles (which LLVM 16's C API cannot rebuild) keep their
//! `byval` arguments and the generic path.

use std::ffi::CStr;

use inkwell::llvm_sys::comdat::{LLVMGetComdat, LLVMSetComdat};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMAttributeRef, LLVMBuilderRef, LLVMTypeRef, LLVMValueRef};
use inkwell::llvm_sys::target::{
    LLVMABIAlignmentOfType, LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMTargetDataRef,
};
use inkwell::llvm_sys::{LLVMAttributeFunctionIndex, LLVMAttributeReturnIndex, LLVMOpcode};
use inkwell::module::Module;
use inkwell::values::AsValueRef;

/// Largest struct passed as words.
const MAX_WORDS: u64 = 8;

/// The rewrite's view of one module.
struct Rewrite {
    td: LLVMTargetDataRef,
    builder: LLVMBuilderRef,
    byval_kind: u32,
    i64: LLVMTypeRef,
    i8: LLVMTypeRef,
}

impl Drop for Rewrite {
    fn drop(&mut self) {
        // SAFETY: made in `scalarize`, disposed only here.
        unsafe { LLVMDisposeBuilder(self.builder) };
    }
}

/// Rewrites `module`'s small `byval` parameters and arguments as words
/// (see the module documentation); returns how many parameters and call
/// sites changed.
pub fn scalarize(module: &Module<'_>) -> usize {
    let m = module.as_mut_ptr();
    // SAFETY: `m` is a live module; the builder is disposed by `Rewrite`'s
    // drop; the attribute name is NUL-terminated.
    let r = unsafe {
        let ctx = LLVMGetModuleContext(m);
        Rewrite {
            td: LLVMGetModuleDataLayout(m),
            builder: LLVMCreateBuilderInContext(ctx),
            byval_kind: LLVMGetEnumAttributeKindForName(c"byval".as_ptr(), 5),
            i64: LLVMInt64TypeInContext(ctx),
            i8: LLVMInt8TypeInContext(ctx),
        }
    };
    let mut changed = 0;
    let functions: Vec<LLVMValueRef> = module.get_functions().map(|f| f.as_value_ref()).collect();
    for &f in &functions {
        // SAFETY: `f` is a live function of `m`; its blocks and
        // instructions are walked before any is replaced.
        unsafe {
            let mut calls = Vec::new();
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let mut i = LLVMGetFirstInstruction(bb);
                while !i.is_null() {
                    if matches!(
                        LLVMGetInstructionOpcode(i),
                        LLVMOpcode::LLVMCall | LLVMOpcode::LLVMInvoke
                    ) {
                        calls.push(i);
                    }
                    i = LLVMGetNextInstruction(i);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            for call in calls {
                changed += usize::from(r.call(call));
            }
        }
    }
    for f in functions {
        // SAFETY: `f` is a live function of `m` (calls were rewritten in
        // place above; functions are replaced one at a time).
        changed += unsafe { r.function(m, f) };
    }
    changed
}

impl Rewrite {
    /// The number of words of `ty` when a `byval(ty)` is passed as words.
    ///
    /// # Safety
    /// `ty` is a live sized type of the module.
    unsafe fn words(&self, ty: LLVMTypeRef) -> Option<u64> {
        // SAFETY: as the caller promises.
        let (size, align) = unsafe {
            (
                LLVMABISizeOfType(self.td, ty),
                LLVMABIAlignmentOfType(self.td, ty),
            )
        };
        (size % 8 == 0 && (1..=MAX_WORDS).contains(&(size / 8)) && align <= 8).then_some(size / 8)
    }

    /// The `byval` type of attribute slot `attr` of `f`, or of call site
    /// `f` when `site`.
    ///
    /// # Safety
    /// `f` is a live function or call instruction.
    unsafe fn byval_at(&self, f: LLVMValueRef, attr: u32, site: bool) -> Option<LLVMTypeRef> {
        // SAFETY: as the caller promises; a present byval attribute is a
        // type attribute.
        unsafe {
            let a = if site {
                LLVMGetCallSiteEnumAttribute(f, attr, self.byval_kind)
            } else {
                LLVMGetEnumAttributeAtIndex(f, attr, self.byval_kind)
            };
            (!a.is_null()).then(|| LLVMGetTypeAttributeValue(a))
        }
    }

    /// Rewrites call or invoke `call` if it passes a small struct
    /// `byval` to compiled code; returns whether it did.
    ///
    /// # Safety
    /// `call` is a live call or invoke.
    unsafe fn call(&self, call: LLVMValueRef) -> bool {
        // SAFETY: `call` is live (contract); every instruction built goes
        // before it, and it is erased last, after its uses moved.
        unsafe {
            let callee = LLVMGetCalledValue(call);
            if !LLVMIsAInlineAsm(callee).is_null() || is_excluded(callee) {
                return false;
            }
            let n = LLVMGetNumArgOperands(call);
            let invoke = LLVMGetInstructionOpcode(call) == LLVMOpcode::LLVMInvoke;
            // Operand bundles add operands between the arguments and the
            // callee (and the invoke's destinations).
            if LLVMGetNumOperands(call) as u32 != n + if invoke { 3 } else { 1 } {
                return false;
            }
            let plan: Vec<Option<(LLVMTypeRef, u64)>> = (0..n)
                .map(|i| {
                    self.byval_at(call, i + 1, true)
                        .and_then(|t| self.words(t).map(|w| (t, w)))
                })
                .collect();
            if plan.iter().all(Option::is_none) {
                return false;
            }
            let fnty = LLVMGetCalledFunctionType(call);
            let old_params = param_types(fnty);
            let fixed = old_params.len();
            LLVMPositionBuilderBefore(self.builder, call);
            let mut args = Vec::new();
            let mut params = Vec::new();
            // Old argument index → first new argument index (attributes).
            let mut at = Vec::new();
            for i in 0..n {
                at.push(args.len() as u32);
                let a = LLVMGetOperand(call, i);
                match plan[i as usize] {
                    Some((_, words)) => {
                        for k in 0..words {
                            let p = self.byte_offset(a, 8 * k);
                            let w = LLVMBuildLoad2(self.builder, self.i64, p, c"".as_ptr());
                            LLVMSetAlignment(w, 8);
                            args.push(w);
                            if (i as usize) < fixed {
                                params.push(self.i64);
                            }
                        }
                    }
                    None => {
                        args.push(a);
                        if (i as usize) < fixed {
                            params.push(old_params[i as usize]);
                        }
                    }
                }
            }
            let new_ty = LLVMFunctionType(
                LLVMGetReturnType(fnty),
                params.as_mut_ptr(),
                params.len() as u32,
                LLVMIsFunctionVarArg(fnty),
            );
            let new = if invoke {
                LLVMBuildInvoke2(
                    self.builder,
                    new_ty,
                    callee,
                    args.as_mut_ptr(),
                    args.len() as u32,
                    LLVMGetNormalDest(call),
                    LLVMGetUnwindDest(call),
                    c"".as_ptr(),
                )
            } else {
                LLVMBuildCall2(
                    self.builder,
                    new_ty,
                    callee,
                    args.as_mut_ptr(),
                    args.len() as u32,
                    c"".as_ptr(),
                )
            };
            LLVMSetInstructionCallConv(new, LLVMGetInstructionCallConv(call));
            for idx in [LLVMAttributeFunctionIndex, LLVMAttributeReturnIndex] {
                for a in site_attributes(call, idx) {
                    LLVMAddCallSiteAttribute(new, idx, a);
                }
            }
            for i in 0..n {
                if plan[i as usize].is_none() {
                    for a in site_attributes(call, i + 1) {
                        LLVMAddCallSiteAttribute(new, at[i as usize] + 1, a);
                    }
                }
            }
            copy_instruction_metadata(call, new);
            move_name(call, new);
            LLVMReplaceAllUsesWith(call, new);
            LLVMInstructionEraseFromParent(call);
            true
        }
    }

    /// `p + off` as an `i8` GEP (no GEP for 0).
    ///
    /// # Safety
    /// The builder is positioned; `p` is a live pointer value.
    unsafe fn byte_offset(&self, p: LLVMValueRef, off: u64) -> LLVMValueRef {
        if off == 0 {
            return p;
        }
        // SAFETY: as the caller promises.
        unsafe {
            let mut idx = [LLVMConstInt(self.i64, off, 0)];
            LLVMBuildGEP2(self.builder, self.i8, p, idx.as_mut_ptr(), 1, c"".as_ptr())
        }
    }

    /// Replaces function `f` by one taking its small `byval` parameters as
    /// words; returns how many parameters changed.
    ///
    /// # Safety
    /// `f` is a live function of module `m`.
    unsafe fn function(
        &self,
        m: inkwell::llvm_sys::prelude::LLVMModuleRef,
        f: LLVMValueRef,
    ) -> usize {
        // SAFETY: `f` is live (contract). The new function takes over the
        // name, properties, blocks and uses of `f`, which is then deleted.
        unsafe {
            if is_excluded(f) {
                return 0;
            }
            let fnty = LLVMGlobalGetValueType(f);
            let old_params = param_types(fnty);
            let plan: Vec<Option<(LLVMTypeRef, u64)>> = (0..old_params.len() as u32)
                .map(|i| {
                    self.byval_at(f, i + 1, false)
                        .and_then(|t| self.words(t).map(|w| (t, w)))
                })
                .collect();
            let changed = plan.iter().filter(|p| p.is_some()).count();
            if changed == 0 {
                return 0;
            }
            let mut params = Vec::new();
            let mut at = Vec::new();
            for (i, p) in plan.iter().enumerate() {
                at.push(params.len() as u32);
                match p {
                    Some((_, words)) => params.extend((0..*words).map(|_| self.i64)),
                    None => params.push(old_params[i]),
                }
            }
            let new_ty = LLVMFunctionType(
                LLVMGetReturnType(fnty),
                params.as_mut_ptr(),
                params.len() as u32,
                LLVMIsFunctionVarArg(fnty),
            );
            let mut len = 0;
            let name = CStr::from_ptr(LLVMGetValueName2(f, &mut len)).to_owned();
            LLVMSetValueName2(f, c"".as_ptr(), 0);
            let new = LLVMAddFunction(m, name.as_ptr(), new_ty);
            LLVMSetLinkage(new, LLVMGetLinkage(f));
            LLVMSetVisibility(new, LLVMGetVisibility(f));
            LLVMSetDLLStorageClass(new, LLVMGetDLLStorageClass(f));
            LLVMSetUnnamedAddress(new, LLVMGetUnnamedAddress(f));
            LLVMSetFunctionCallConv(new, LLVMGetFunctionCallConv(f));
            LLVMSetAlignment(new, LLVMGetAlignment(f));
            let section = LLVMGetSection(f);
            if !section.is_null() {
                LLVMSetSection(new, section);
            }
            let gc = LLVMGetGC(f);
            if !gc.is_null() {
                LLVMSetGC(new, gc);
            }
            let comdat = LLVMGetComdat(f);
            if !comdat.is_null() {
                LLVMSetComdat(new, comdat);
            }
            if LLVMHasPersonalityFn(f) != 0 {
                LLVMSetPersonalityFn(new, LLVMGetPersonalityFn(f));
            }
            copy_global_metadata(f, new);
            for idx in [LLVMAttributeFunctionIndex, LLVMAttributeReturnIndex] {
                for a in function_attributes(f, idx) {
                    LLVMAddAttributeAtIndex(new, idx, a);
                }
            }
            for (i, p) in plan.iter().enumerate() {
                if p.is_none() {
                    for a in function_attributes(f, i as u32 + 1) {
                        LLVMAddAttributeAtIndex(new, at[i] + 1, a);
                    }
                }
            }
            // The body moves over; the struct parameters become locals
            // holding the words, at the top of the entry block.
            while !LLVMGetFirstBasicBlock(f).is_null() {
                let bb = LLVMGetFirstBasicBlock(f);
                LLVMRemoveBasicBlockFromParent(bb);
                LLVMAppendExistingBasicBlock(new, bb);
            }
            let entry = LLVMGetFirstBasicBlock(new);
            if !entry.is_null() {
                LLVMPositionBuilderBefore(self.builder, LLVMGetFirstInstruction(entry));
            }
            for (i, p) in plan.iter().enumerate() {
                let old_arg = LLVMGetParam(f, i as u32);
                let first = at[i];
                match p {
                    Some((ty, words)) if !entry.is_null() => {
                        let mut len = 0;
                        let name = LLVMGetValueName2(old_arg, &mut len);
                        let local = LLVMBuildAlloca(self.builder, *ty, name);
                        LLVMSetAlignment(local, 8);
                        for k in 0..*words {
                            let w = LLVMGetParam(new, first + k as u32);
                            let p = self.byte_offset(local, 8 * k);
                            let s = LLVMBuildStore(self.builder, w, p);
                            LLVMSetAlignment(s, 8);
                        }
                        LLVMReplaceAllUsesWith(old_arg, local);
                    }
                    Some(_) => {}
                    None => {
                        let new_arg = LLVMGetParam(new, first);
                        move_name(old_arg, new_arg);
                        LLVMReplaceAllUsesWith(old_arg, new_arg);
                    }
                }
            }
            LLVMReplaceAllUsesWith(f, new);
            LLVMDeleteFunction(f);
            changed
        }
    }
}

/// Whether `callee` is a function the rewrite leaves alone: an intrinsic
/// or a C library function (a wrapper of the runtime, whose generic entry
/// reads the same bytes either way).
///
/// # Safety
/// `callee` is a live value.
unsafe fn is_excluded(callee: LLVMValueRef) -> bool {
    // SAFETY: as the caller promises.
    unsafe {
        if LLVMIsAFunction(callee).is_null() {
            return false; // a call through a pointer
        }
        let mut len = 0;
        let name = LLVMGetValueName2(callee, &mut len);
        let name = CStr::from_ptr(name).to_str().unwrap_or_default();
        let defined_here = LLVMIsDeclaration(callee) == 0;
        name.starts_with("llvm.") || (!defined_here && crate::libc_names::is_libc(name))
    }
}

/// The parameter types of function type `fnty`.
///
/// # Safety
/// `fnty` is a live function type.
unsafe fn param_types(fnty: LLVMTypeRef) -> Vec<LLVMTypeRef> {
    // SAFETY: as the caller promises; the vector holds exactly the count.
    unsafe {
        let n = LLVMCountParamTypes(fnty) as usize;
        let mut v = vec![std::ptr::null_mut(); n];
        LLVMGetParamTypes(fnty, v.as_mut_ptr());
        v
    }
}

/// The attributes at index `idx` of call site `call`.
///
/// # Safety
/// `call` is a live call or invoke.
unsafe fn site_attributes(call: LLVMValueRef, idx: u32) -> Vec<LLVMAttributeRef> {
    // SAFETY: as the caller promises; the vector holds exactly the count.
    unsafe {
        let n = LLVMGetCallSiteAttributeCount(call, idx) as usize;
        let mut v = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetCallSiteAttributes(call, idx, v.as_mut_ptr());
        }
        v
    }
}

/// The attributes at index `idx` of function `f`.
///
/// # Safety
/// `f` is a live function.
unsafe fn function_attributes(f: LLVMValueRef, idx: u32) -> Vec<LLVMAttributeRef> {
    // SAFETY: as the caller promises; the vector holds exactly the count.
    unsafe {
        let n = LLVMGetAttributeCountAtIndex(f, idx) as usize;
        let mut v = vec![std::ptr::null_mut(); n];
        if n > 0 {
            LLVMGetAttributesAtIndex(f, idx, v.as_mut_ptr());
        }
        v
    }
}

/// Gives `to` the name of `from` (which loses it).
///
/// # Safety
/// Both are live values.
unsafe fn move_name(from: LLVMValueRef, to: LLVMValueRef) {
    // SAFETY: as the caller promises; the name is copied before `from`
    // drops it.
    unsafe {
        let mut len = 0;
        let name = LLVMGetValueName2(from, &mut len);
        if len == 0 {
            return;
        }
        let name = std::slice::from_raw_parts(name.cast::<u8>(), len).to_vec();
        LLVMSetValueName2(from, c"".as_ptr(), 0);
        LLVMSetValueName2(to, name.as_ptr().cast(), name.len());
    }
}

/// Copies the debug location and other metadata of instruction `from`.
///
/// # Safety
/// Both are live instructions.
unsafe fn copy_instruction_metadata(from: LLVMValueRef, to: LLVMValueRef) {
    // SAFETY: as the caller promises; the entries are disposed after use.
    unsafe {
        use inkwell::llvm_sys::debuginfo::{
            LLVMInstructionGetDebugLoc, LLVMInstructionSetDebugLoc,
        };
        LLVMInstructionSetDebugLoc(to, LLVMInstructionGetDebugLoc(from));
        let mut n = 0;
        let entries = LLVMInstructionGetAllMetadataOtherThanDebugLoc(from, &mut n);
        if entries.is_null() {
            return;
        }
        let ctx = LLVMGetTypeContext(LLVMTypeOf(from));
        for i in 0..n as u32 {
            let kind = LLVMValueMetadataEntriesGetKind(entries, i);
            let md = LLVMValueMetadataEntriesGetMetadata(entries, i);
            LLVMSetMetadata(to, kind, LLVMMetadataAsValue(ctx, md));
        }
        LLVMDisposeValueMetadataEntries(entries);
    }
}

/// Copies the metadata attachments (the debug-info subprogram among them)
/// of global `from` to `to`.
///
/// # Safety
/// Both are live global objects.
unsafe fn copy_global_metadata(from: LLVMValueRef, to: LLVMValueRef) {
    // SAFETY: as the caller promises; the entries are disposed after use.
    unsafe {
        let mut n = 0;
        let entries = LLVMGlobalCopyAllMetadata(from, &mut n);
        if entries.is_null() {
            return;
        }
        for i in 0..n as u32 {
            let kind = LLVMValueMetadataEntriesGetKind(entries, i);
            let md = LLVMValueMetadataEntriesGetMetadata(entries, i);
            LLVMGlobalSetMetadata(to, kind, md);
        }
        LLVMDisposeValueMetadataEntries(entries);
    }
}
