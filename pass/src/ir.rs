//! Raw LLVM C API helpers for facts inkwell does not expose: address spaces
//! nested inside types and constants, inline-asm templates, `alloca inalloca`.
//!
//! Everything here takes raw references that must belong to a live module;
//! the callers in `reject` obtain them from borrowed inkwell values.

use std::collections::HashMap;
use std::ffi::CStr;

use inkwell::llvm_sys::LLVMTypeKind;
use inkwell::llvm_sys::core::{
    LLVMAddFunction, LLVMAppendBasicBlockInContext, LLVMCountParamTypes,
    LLVMCountStructElementTypes, LLVMCreateBuilderInContext, LLVMDisposeBuilder,
    LLVMDisposeMessage, LLVMDisposeModule, LLVMDisposeValueMetadataEntries, LLVMFunctionType,
    LLVMGetElementType, LLVMGetNumOperands, LLVMGetOperand, LLVMGetParamTypes,
    LLVMGetPointerAddressSpace, LLVMGetReturnType, LLVMGetStructElementTypes, LLVMGetTypeKind,
    LLVMInsertIntoBuilder, LLVMInstructionClone, LLVMInstructionEraseFromParent,
    LLVMInstructionGetAllMetadataOtherThanDebugLoc, LLVMIsAConstant, LLVMIsAGlobalValue,
    LLVMIsOpaqueStruct, LLVMModuleCreateWithNameInContext, LLVMPositionBuilderAtEnd,
    LLVMPrintValueToString, LLVMSetMetadata, LLVMTypeOf, LLVMValueMetadataEntriesGetKind,
    LLVMVoidTypeInContext,
};
use inkwell::llvm_sys::debuginfo::LLVMInstructionSetDebugLoc;
use inkwell::llvm_sys::prelude::{
    LLVMBuilderRef, LLVMContextRef, LLVMModuleRef, LLVMTypeRef, LLVMValueRef,
};

/// Finds non-zero address spaces in types and constant expressions.
///
/// Results are memoised (types are uniqued per context; constants are shared
/// across uses), which keeps a whole-module walk linear.
#[derive(Default)]
pub(crate) struct AddrSpaceFinder {
    types: HashMap<LLVMTypeRef, u32>,
    constants: HashMap<LLVMValueRef, u32>,
}

impl AddrSpaceFinder {
    /// The first non-zero address space of a pointer anywhere in `ty`
    /// (through arrays, vectors, struct fields and function signatures); 0 if none.
    ///
    /// # Safety
    /// `ty` must be a live type.
    pub(crate) unsafe fn in_type(&mut self, ty: LLVMTypeRef) -> u32 {
        if let Some(&a) = self.types.get(&ty) {
            return a;
        }
        // Provisional entry: cuts any cycle (impossible with opaque pointers,
        // but a wrong answer beats a stack overflow).
        self.types.insert(ty, 0);
        // SAFETY: `ty` is live (caller); the element types LLVM hands back are too.
        let found = unsafe {
            match LLVMGetTypeKind(ty) {
                LLVMTypeKind::LLVMPointerTypeKind => LLVMGetPointerAddressSpace(ty),
                LLVMTypeKind::LLVMArrayTypeKind
                | LLVMTypeKind::LLVMVectorTypeKind
                | LLVMTypeKind::LLVMScalableVectorTypeKind => self.in_type(LLVMGetElementType(ty)),
                LLVMTypeKind::LLVMStructTypeKind if LLVMIsOpaqueStruct(ty) == 0 => {
                    let mut fields =
                        vec![std::ptr::null_mut(); LLVMCountStructElementTypes(ty) as usize];
                    LLVMGetStructElementTypes(ty, fields.as_mut_ptr());
                    self.first_in(&fields)
                }
                LLVMTypeKind::LLVMFunctionTypeKind => {
                    let mut params = vec![std::ptr::null_mut(); LLVMCountParamTypes(ty) as usize];
                    LLVMGetParamTypes(ty, params.as_mut_ptr());
                    params.push(LLVMGetReturnType(ty));
                    self.first_in(&params)
                }
                _ => 0,
            }
        };
        self.types.insert(ty, found);
        found
    }

    /// # Safety
    /// Every type must be live.
    unsafe fn first_in(&mut self, types: &[LLVMTypeRef]) -> u32 {
        // SAFETY: forwarded from the caller.
        types
            .iter()
            .map(|&t| unsafe { self.in_type(t) })
            .find(|&a| a != 0)
            .unwrap_or(0)
    }

    /// The first non-zero address space in `value`'s type or, for a constant
    /// (other than a global, which is checked on its own), in its operands.
    ///
    /// # Safety
    /// `value` must be a live value.
    pub(crate) unsafe fn in_value(&mut self, value: LLVMValueRef) -> u32 {
        // SAFETY: `value` is live (caller).
        let own = unsafe { self.in_type(LLVMTypeOf(value)) };
        // SAFETY: as above.
        let is_plain_constant =
            unsafe { !LLVMIsAConstant(value).is_null() && LLVMIsAGlobalValue(value).is_null() };
        if own != 0 || !is_plain_constant {
            return own;
        }
        if let Some(&a) = self.constants.get(&value) {
            return a;
        }
        self.constants.insert(value, 0);
        // SAFETY: a constant is a `User`; its operands are live constants
        // (or basic blocks, for `blockaddress`).
        let found = unsafe {
            (0..LLVMGetNumOperands(value).max(0) as u32)
                .map(|i| self.in_value(LLVMGetOperand(value, i)))
                .find(|&a| a != 0)
                .unwrap_or(0)
        };
        self.constants.insert(value, found);
        found
    }
}

/// `LLVMPrintValueToString`, copied into a Rust string.
///
/// # Safety
/// `value` must be a live value.
pub(crate) unsafe fn print_value(value: LLVMValueRef) -> String {
    // SAFETY: `value` is live; LLVM returns an owned C string we dispose of.
    unsafe {
        let raw = LLVMPrintValueToString(value);
        if raw.is_null() {
            return String::new();
        }
        let text = CStr::from_ptr(raw).to_string_lossy().into_owned();
        LLVMDisposeMessage(raw);
        text
    }
}

/// An `InlineAsm` value's template in LLVM's own syntax (`$$` a dollar
/// sign, `$N` an operand; escapes decoded), its constraint string, and
/// whether it is in Intel syntax (`inteldialect`), from the printed form
/// `ptr asm [flags] "<tmpl>", "<cons>"` (LLVM 16's C API has no getter for
/// them; `LLVMGetInlineAsmAsmString` arrived in LLVM 19). Escaped strings
/// never contain a raw `"`, so the quoted strings are found by their quotes.
///
/// # Safety
/// `asm` must be a live `InlineAsm` value.
pub(crate) unsafe fn inline_asm_parts(asm: LLVMValueRef) -> (String, String, bool) {
    // SAFETY: forwarded from the caller. Printing an `InlineAsm` needs no slot
    // tracker (it belongs to no module), so this is O(template size).
    let text = unsafe { print_value(asm) };
    let template = first_quoted(&text).unwrap_or_default();
    let head = text.find('"').map_or(text.as_str(), |i| &text[..i]);
    let after = text
        .find('"')
        .map(|i| &text[i + 1 + template.len() + 1..])
        .unwrap_or_default();
    let constraints = first_quoted(after).unwrap_or_default();
    (
        unescape(template),
        unescape(constraints),
        head.contains("inteldialect"),
    )
}

/// Decodes LLVM's `\XX` hex escapes; anything malformed is kept verbatim.
fn unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'\\', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn first_quoted(text: &str) -> Option<&str> {
    let start = text.find('"')? + 1;
    let len = text[start..].find('"')?;
    Some(&text[start..start + len])
}

/// Detects `alloca inalloca`, which the C API cannot query.
///
/// Printing the alloca in place would number every value of its module each
/// time (quadratic over a module), so a metadata-free clone is printed inside
/// a tiny scratch function instead, then erased.
pub(crate) struct InallocaProbe {
    scratch: Option<(LLVMModuleRef, LLVMBuilderRef)>,
}

impl InallocaProbe {
    pub(crate) fn new() -> Self {
        InallocaProbe { scratch: None }
    }

    /// Whether `alloca` carries the `inalloca` flag.
    ///
    /// # Safety
    /// `alloca` must be a live `alloca` instruction whose context is `ctx`, and
    /// every call on one probe must use the same `ctx`, which must outlive it.
    pub(crate) unsafe fn is_inalloca(&mut self, ctx: LLVMContextRef, alloca: LLVMValueRef) -> bool {
        // SAFETY: `ctx` is live (caller); these calls build a fresh module in it.
        let (_, builder) = *self.scratch.get_or_insert_with(|| unsafe {
            let module = LLVMModuleCreateWithNameInContext(c"gimso-scratch".as_ptr(), ctx);
            let fn_ty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), std::ptr::null_mut(), 0, 0);
            let func = LLVMAddFunction(module, c"scratch".as_ptr(), fn_ty);
            let block = LLVMAppendBasicBlockInContext(ctx, func, c"b".as_ptr());
            let builder = LLVMCreateBuilderInContext(ctx);
            LLVMPositionBuilderAtEnd(builder, block);
            (module, builder)
        });
        // SAFETY: `alloca` is live; the clone is unparented until inserted into
        // the scratch block (same context), and erased before returning.
        // Dropping its metadata keeps the printer from numbering the debug-info
        // graph it points into.
        let text = unsafe {
            let clone = LLVMInstructionClone(alloca);
            LLVMInstructionSetDebugLoc(clone, std::ptr::null_mut());
            let mut count = 0usize;
            let entries = LLVMInstructionGetAllMetadataOtherThanDebugLoc(clone, &mut count);
            if !entries.is_null() {
                for i in 0..count as u32 {
                    LLVMSetMetadata(
                        clone,
                        LLVMValueMetadataEntriesGetKind(entries, i),
                        std::ptr::null_mut(),
                    );
                }
                LLVMDisposeValueMetadataEntries(entries);
            }
            LLVMInsertIntoBuilder(builder, clone);
            let text = print_value(clone);
            LLVMInstructionEraseFromParent(clone);
            text
        };
        alloca_text_is_inalloca(&text)
    }
}

impl Drop for InallocaProbe {
    fn drop(&mut self) {
        if let Some((module, builder)) = self.scratch.take() {
            // SAFETY: both were created by `is_inalloca` and are owned solely
            // by this probe; the scratch block is empty again.
            unsafe {
                LLVMDisposeBuilder(builder);
                LLVMDisposeModule(module);
            }
        }
    }
}

/// `%0 = alloca inalloca i32, align 4` → true. The clone is unnamed, so the
/// first ` = alloca ` cannot be inside a quoted value name.
fn alloca_text_is_inalloca(text: &str) -> bool {
    text.split_once(" = alloca ")
        .is_some_and(|(_, rest)| rest.starts_with("inalloca "))
}

/// The users of `v`, each once.
///
/// # Safety
/// `v` is a live value.
pub(crate) unsafe fn users(v: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    // SAFETY: as the caller promises; uses are walked while none change.
    unsafe {
        let mut u = inkwell::llvm_sys::core::LLVMGetFirstUse(v);
        while !u.is_null() {
            let user = inkwell::llvm_sys::core::LLVMGetUser(u);
            if !out.contains(&user) {
                out.push(user);
            }
            u = inkwell::llvm_sys::core::LLVMGetNextUse(u);
        }
    }
    out
}

/// Whether operand `i` of `inst` is a first-class value (not metadata, a
/// block, or a token), i.e. one inkwell's `get_operand` can wrap without
/// panicking.
pub(crate) fn operand_is_value(inst: inkwell::values::InstructionValue<'_>, i: u32) -> bool {
    use inkwell::llvm_sys::LLVMTypeKind::*;
    use inkwell::values::AsValueRef;
    // SAFETY: `inst` is a live instruction with more than `i` operands
    // (callers loop below get_num_operands); only kinds are read.
    unsafe {
        let op = inkwell::llvm_sys::core::LLVMGetOperand(inst.as_value_ref(), i);
        if op.is_null() {
            return false;
        }
        !matches!(
            inkwell::llvm_sys::core::LLVMGetTypeKind(inkwell::llvm_sys::core::LLVMTypeOf(op)),
            LLVMMetadataTypeKind | LLVMLabelTypeKind | LLVMTokenTypeKind | LLVMVoidTypeKind
        )
    }
}

/// The number of arguments of call or invoke `inst` (not its callee,
/// destinations or operand bundles).
pub(crate) fn call_arg_count(inst: inkwell::values::InstructionValue<'_>) -> u32 {
    use inkwell::values::AsValueRef;
    // SAFETY: `inst` is a live call or invoke (the callers match the
    // opcode first).
    unsafe { inkwell::llvm_sys::core::LLVMGetNumArgOperands(inst.as_value_ref()) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_template() {
        assert_eq!(
            first_quoted(r#"ptr asm sideeffect "", "~{memory}""#),
            Some("")
        );
        assert_eq!(
            first_quoted(r#"ptr asm "mov $0, %eax", "~{eax}""#),
            Some("mov $0, %eax")
        );
        assert_eq!(first_quoted("no quotes"), None);
    }

    #[test]
    fn decodes_escapes() {
        assert_eq!(unescape(r"a\22b\5Cc"), "a\"b\\c");
        assert_eq!(unescape(r"\zz\4"), r"\zz\4");
        assert_eq!(unescape("plain"), "plain");
    }

    #[test]
    fn spots_inalloca() {
        assert!(alloca_text_is_inalloca(
            "  %0 = alloca inalloca i32, align 4"
        ));
        assert!(!alloca_text_is_inalloca("  %0 = alloca i32, align 4"));
        assert!(!alloca_text_is_inalloca("  %0 = alloca %inalloca, align 4"));
    }
}
