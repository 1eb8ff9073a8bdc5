//! Direct uses of thread-local variables inside functions become
//! `llvm.threadlocal.address` calls.
//!
//! clang-16 reaches a `thread_local` variable through
//! `llvm.threadlocal.address` in ordinary code, but its C++ dynamic
//! initialisers (`__cxx_global_var_init`, `__tls_init`) name the variable
//! directly: `call @S::S(ptr @tl)`, `__cxa_thread_atexit(dtor, ptr @tl,
//! …)`, a store through `getelementptr (@tl, 0, 1)`. In a function, such a
//! use means the calling thread's copy (LangRef, "Thread Local Storage
//! Models"), which is what the intrinsic says explicitly; the translation
//! only has to handle the intrinsic.

use crate::llvm::{Func, Ll, Opcode, Value, ValueKind};

fn is_thread_local(v: Value<'_>) -> bool {
    v.is_global_variable() && v.is_thread_local()
}

/// Whether constant `c` is a thread-local variable or a GEP constant
/// expression over one (the forms clang's initialisers use).
fn names_thread_local(c: Value<'_>) -> bool {
    is_thread_local(c)
        || (c.const_opcode() == Some(Opcode::LLVMGetElementPtr)
            && c.get_operand(0).is_some_and(names_thread_local))
}

/// The calling thread's address of `c` (see [`names_thread_local`]),
/// built at the builder's position.
fn materialise<'m>(ll: &Ll<'m>, c: Value<'m>) -> Value<'m> {
    if is_thread_local(c) {
        let fnty = ll.fn_ty(ll.ptr(), &[ll.ptr()], false);
        return ll.intrinsic("llvm.threadlocal.address.p0", fnty, &[c]);
    }
    let base = materialise(ll, c.operand(0));
    let idx: Vec<Value<'m>> = (1..c.num_operands()).map(|i| c.operand(i)).collect();
    ll.gep(c.gep_source_type(), base, &idx)
}

/// Whether `inst` is already an `llvm.threadlocal.address` call.
fn is_address_intrinsic(inst: Value<'_>) -> bool {
    inst.is_call_base()
        && inst
            .called_value()
            .name_bytes()
            .starts_with(b"llvm.threadlocal.address")
}

/// Rewrites the direct thread-local operands of `func`'s instructions;
/// returns how many.
pub fn explicit_addresses<'m>(ll: &Ll<'m>, func: Func<'m>) -> usize {
    let mut changed = 0;
    for inst in func.instructions() {
        if is_address_intrinsic(inst) {
            continue;
        }
        let is_phi = inst.inst_opcode() == Some(Opcode::LLVMPHI);
        for i in 0..inst.num_operands() {
            if !inst.operand_is_value(i) {
                continue;
            }
            let Some(op) = inst.get_operand(i) else {
                continue;
            };
            let constant =
                is_thread_local(op) || op.value_kind() == ValueKind::LLVMConstantExprValueKind;
            if !constant || !names_thread_local(op) {
                continue;
            }
            // A phi's operand is computed at the end of its incoming block.
            let at = if is_phi {
                let (_, block) = inst.incoming()[i as usize];
                block.terminator().expect("a block with a terminator")
            } else {
                inst
            };
            ll.position_before(at);
            ll.set_debug_loc(inst.debug_loc());
            let addr = materialise(ll, op);
            inst.set_operand(i, addr);
            changed += 1;
        }
    }
    changed
}
