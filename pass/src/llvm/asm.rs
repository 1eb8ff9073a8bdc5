//! Facts the C API of LLVM 16 does not expose, read from printed IR:
//! an inline asm's template and constraints, `alloca inalloca`.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::{LLVMBuilderRef, LLVMModuleRef};

use super::{Value, take_message};

impl Value<'_> {
    /// An inline asm's template in LLVM's own syntax (`$$` a dollar sign,
    /// `$N` an operand; escapes decoded), its constraint string, and
    /// whether it is in Intel syntax (`inteldialect`), from the printed
    /// form `ptr asm [flags] "<tmpl>", "<cons>"` (`LLVMGetInlineAsmAsmString`
    /// arrived in LLVM 19). Escaped strings never contain a raw `"`, so the
    /// quoted strings are found by their quotes. Printing an `InlineAsm`
    /// needs no slot tracker (it belongs to no module): O(template size).
    ///
    /// # Panics
    /// If this is not an inline asm.
    #[track_caller]
    pub fn inline_asm_parts(self) -> (String, String, bool) {
        assert!(self.is_inline_asm(), "inline_asm_parts of a non-asm value");
        let text = self.print();
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
#[derive(Default)]
pub struct InallocaProbe {
    scratch: Option<(LLVMModuleRef, LLVMBuilderRef)>,
}

impl InallocaProbe {
    #[track_caller]
    pub fn new() -> Self {
        InallocaProbe { scratch: None }
    }

    /// Whether `alloca` carries the `inalloca` flag. Every call on one probe
    /// must pass allocas of one context (the scratch module lives in it).
    ///
    /// # Panics
    /// If `alloca` is not an alloca.
    #[track_caller]
    pub fn is_inalloca(&mut self, alloca: Value<'_>) -> bool {
        assert!(alloca.is_alloca(), "is_inalloca of a non-alloca");
        // SAFETY: a live alloca's type belongs to its live context; these
        // calls build a fresh module in it, owned by the probe.
        let (_, builder) = *self.scratch.get_or_insert_with(|| unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(alloca.raw()));
            let module = LLVMModuleCreateWithNameInContext(c"gimso-scratch".as_ptr(), ctx);
            let fn_ty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), std::ptr::null_mut(), 0, 0);
            let func = LLVMAddFunction(module, c"scratch".as_ptr(), fn_ty);
            let block = LLVMAppendBasicBlockInContext(ctx, func, c"b".as_ptr());
            let builder = LLVMCreateBuilderInContext(ctx);
            LLVMPositionBuilderAtEnd(builder, block);
            (module, builder)
        });
        // Dropping its metadata keeps the printer from numbering the
        // debug-info graph the clone points into.
        let clone = alloca.clone_inst();
        clone.set_debug_loc(None);
        for kind in clone.metadata_kinds() {
            clone.set_metadata(kind, None);
        }
        // SAFETY: the clone is unparented and of the scratch module's
        // context; it is inserted, printed, then erased, and no handle to
        // it survives this block.
        let text = unsafe {
            LLVMInsertIntoBuilder(builder, clone.raw());
            let text = take_message(LLVMPrintValueToString(clone.raw()));
            LLVMInstructionEraseFromParent(clone.raw());
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
