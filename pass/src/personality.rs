//! `GIMSO_PERSONALITY(fn)` (`gimso.h`): C has no syntax for choosing a
//! function's personality (clang always uses `__gcc_personality_v0` under
//! `-fexceptions`), so gimso reads it from the annotation
//! `__attribute__((annotate("gimso.personality:NAME")))`. It is applied
//! before the optimiser runs, so inlining sees the real personalities.

use inkwell::llvm_sys::core::{
    LLVMGetAsString, LLVMGetInitializer, LLVMGetNamedFunction, LLVMGetNamedGlobal,
    LLVMGetNumOperands, LLVMGetOperand, LLVMGetValueName2, LLVMIsAFunction, LLVMIsAGlobalVariable,
    LLVMIsConstantString, LLVMSetPersonalityFn,
};
use inkwell::module::Module;

/// The annotation prefix; the rest of the string names the personality.
pub const ANNOTATION_PREFIX: &str = "gimso.personality:";

/// Sets the personality of every annotated function; returns how many, or
/// a message naming an annotation whose personality is not declared in the
/// module.
pub fn apply(module: &Module<'_>) -> Result<usize, String> {
    let m = module.as_mut_ptr();
    let mut applied = 0;
    // SAFETY: `m` is the live module; `llvm.global.annotations` is an array
    // of `{ptr, ptr, ptr, i32, ptr}` structs (clang's layout): operand 0 is
    // the annotated value, operand 1 the annotation string's global. Every
    // value is checked for its kind before it is used as one.
    unsafe {
        let list = LLVMGetNamedGlobal(m, c"llvm.global.annotations".as_ptr());
        if list.is_null() {
            return Ok(0);
        }
        let init = LLVMGetInitializer(list);
        if init.is_null() {
            return Ok(0);
        }
        for i in 0..LLVMGetNumOperands(init).max(0) as u32 {
            let entry = LLVMGetOperand(init, i);
            if LLVMGetNumOperands(entry) < 2 {
                continue;
            }
            let target = LLVMGetOperand(entry, 0);
            let text = LLVMGetOperand(entry, 1);
            if LLVMIsAFunction(target).is_null() || LLVMIsAGlobalVariable(text).is_null() {
                continue;
            }
            let s = LLVMGetInitializer(text);
            if s.is_null() || LLVMIsConstantString(s) == 0 {
                continue;
            }
            let mut len = 0;
            let bytes = LLVMGetAsString(s, &mut len);
            let raw = std::slice::from_raw_parts(bytes.cast::<u8>(), len);
            let text = String::from_utf8_lossy(raw);
            let Some(name) = text.trim_end_matches('\0').strip_prefix(ANNOTATION_PREFIX) else {
                continue;
            };
            let mut fn_len = 0;
            let fn_name = LLVMGetValueName2(target, &mut fn_len);
            let fn_name =
                String::from_utf8_lossy(std::slice::from_raw_parts(fn_name.cast::<u8>(), fn_len))
                    .into_owned();
            let cname = std::ffi::CString::new(name).map_err(|_| "NUL in a name".to_owned())?;
            let personality = LLVMGetNamedFunction(m, cname.as_ptr());
            if personality.is_null() {
                return Err(format!(
                    "GIMSO_PERSONALITY({name}) on `{fn_name}`: no function `{name}` is declared \
                     in this file (a static personality needs __attribute__((used)))"
                ));
            }
            LLVMSetPersonalityFn(target, personality);
            applied += 1;
        }
    }
    Ok(applied)
}
