//! `GIMSO_PERSONALITY(fn)` (`gimso.h`): C has no syntax for choosing a
//! function's personality (clang always uses `__gcc_personality_v0` under
//! `-fexceptions`), so gimso reads it from the annotation
//! `__attribute__((annotate("gimso.personality:NAME")))`. It is applied
//! before the optimiser runs, so inlining sees the real personalities.

use inkwell::module::Module;

use crate::llvm::Ll;

/// The annotation prefix; the rest of the string names the personality.
pub const ANNOTATION_PREFIX: &str = "gimso.personality:";

/// Sets the personality of every annotated function; returns how many, or
/// a message naming an annotation whose personality is not declared in the
/// module.
pub fn apply(module: &Module<'_>) -> Result<usize, String> {
    let ll = Ll::new(module);
    let mut applied = 0;
    // `llvm.global.annotations` is an array of `{ptr, ptr, ptr, i32, ptr}`
    // structs (clang's layout): operand 0 is the annotated value, operand 1
    // the annotation string's global. Every value is checked for its kind
    // before it is used as one.
    let Some(list) = ll.get_global("llvm.global.annotations") else {
        return Ok(0);
    };
    let Some(init) = list.initializer() else {
        return Ok(0);
    };
    for entry in init.operands() {
        if entry.num_operands() < 2 {
            continue;
        }
        let target = entry.operand(0);
        let text = entry.operand(1);
        let Some(target) = target.as_func() else {
            continue;
        };
        if !text.is_global_variable() {
            continue;
        }
        let Some(raw) = text.initializer().and_then(|s| s.const_string()) else {
            continue;
        };
        let text = String::from_utf8_lossy(&raw);
        let Some(name) = text.trim_end_matches('\0').strip_prefix(ANNOTATION_PREFIX) else {
            continue;
        };
        let fn_name = target.name();
        if name.contains('\0') {
            return Err("NUL in a name".to_owned());
        }
        let Some(personality) = ll.get_function(name) else {
            return Err(format!(
                "GIMSO_PERSONALITY({name}) on `{fn_name}`: no function `{name}` is declared \
                 in this file (a static personality needs __attribute__((used)))"
            ));
        };
        target.set_personality(Some(personality.as_value()));
        applied += 1;
    }
    Ok(applied)
}
