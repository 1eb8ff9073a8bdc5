//! A field extracted from an aggregate built by `select`s and
//! `insertvalue`s of known parts becomes that part: the field's own value,
//! or a `select` between the fields of the two choices.
//!
//! The C++ ABI represents a pointer to member function as `{ i64, i64 }`:
//! the function's address as an integer and a `this` adjustment. A
//! member pointer chosen at run time (`m = c ? &B::f : &B::g`) is, in
//! clang's IR, `select c, { ptrtoint @f, 0 }, { ptrtoint @g, 0 }`; a
//! conversion to a derived class's member pointer adds an `insertvalue` of
//! the adjusted offset; the call site `extractvalue`s the address and
//! `inttoptr`s it. The `inttoptr` inference follows integers, not
//! aggregates: resolved this way, the address is a `select` of `ptrtoint`
//! constants, whose capabilities it carries to the call. (The optimiser
//! does the same at `-O2`; at `-O0` only this rewrite does.)

use crate::llvm::{Func, Ll, Opcode, Value};

/// How many leading indices `a` and `b` share.
fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Field `indices` of `agg`, built at the builder's position when `agg`
/// is (or hides) a `select` whose two choices have known fields.
fn field<'m>(ll: &Ll<'m>, agg: Value<'m>, indices: &[u32]) -> Option<Value<'m>> {
    if indices.is_empty() {
        return Some(agg);
    }
    if agg.is_constant() {
        return indices.iter().try_fold(agg, |a, &i| a.aggregate_element(i));
    }
    match agg.inst_opcode() {
        Some(Opcode::LLVMInsertValue) => {
            let at = agg.indices();
            let common = common_prefix(&at, indices);
            if common == at.len() {
                // The inserted value, or a field inside it.
                field(ll, agg.operand(1), &indices[common..])
            } else if common < indices.len() {
                // Another field was inserted: look beneath.
                field(ll, agg.operand(0), indices)
            } else {
                None
            }
        }
        Some(Opcode::LLVMSelect) => {
            let a = field(ll, agg.operand(1), indices)?;
            let b = field(ll, agg.operand(2), indices)?;
            Some(ll.select(agg.operand(0), a, b))
        }
        _ => None,
    }
}

/// Whether [`field`] can resolve `indices` of `agg` (so nothing is built
/// for an extract that stays).
fn resolvable(agg: Value<'_>, indices: &[u32]) -> bool {
    if indices.is_empty() {
        return true;
    }
    if agg.is_constant() {
        return indices
            .iter()
            .try_fold(agg, |a, &i| a.aggregate_element(i))
            .is_some();
    }
    match agg.inst_opcode() {
        Some(Opcode::LLVMInsertValue) => {
            let at = agg.indices();
            let common = common_prefix(&at, indices);
            if common == at.len() {
                resolvable(agg.operand(1), &indices[common..])
            } else {
                common < indices.len() && resolvable(agg.operand(0), indices)
            }
        }
        Some(Opcode::LLVMSelect) => {
            resolvable(agg.operand(1), indices) && resolvable(agg.operand(2), indices)
        }
        _ => false,
    }
}

/// Rewrites such extracts in `func`; returns how many.
pub fn resolve<'m>(ll: &Ll<'m>, func: Func<'m>) -> usize {
    let mut changed = 0;
    for inst in func.instructions() {
        if inst.inst_opcode() != Some(Opcode::LLVMExtractValue) {
            continue;
        }
        let agg = inst.operand(0);
        let indices = inst.indices();
        let built = matches!(
            agg.inst_opcode(),
            Some(Opcode::LLVMSelect | Opcode::LLVMInsertValue)
        );
        if !built || !resolvable(agg, &indices) {
            continue;
        }
        ll.position_before(inst);
        ll.set_debug_loc(inst.debug_loc());
        if let Some(v) = field(ll, agg, &indices) {
            inst.replace_all_uses_with(v);
            changed += 1;
        }
    }
    changed
}
