//! Raw LLVM C API helpers for facts inkwell does not expose: inline-asm
//! templates, the distinct users of a value, operand kinds.
//!
//! Everything here takes raw references that must belong to a live module.

use std::ffi::CStr;

use inkwell::llvm_sys::core::{LLVMDisposeMessage, LLVMPrintValueToString};
use inkwell::llvm_sys::prelude::LLVMValueRef;

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
}
