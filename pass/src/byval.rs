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

use crate::llvm::{Attr, AttrAt, Func, Ll, Opcode, Type, Value};
use inkwell::module::Module;

/// Largest struct passed as words.
const MAX_WORDS: u64 = 8;

/// The rewrite's view of one module.
struct Rewrite<'m> {
    ll: Ll<'m>,
}

/// Rewrites `module`'s small `byval` parameters and arguments as words
/// (see the module documentation); returns how many parameters and call
/// sites changed.
pub fn scalarize(module: &Module<'_>) -> usize {
    let r = Rewrite {
        ll: Ll::new(module),
    };
    let mut changed = 0;
    let functions = r.ll.functions();
    for &f in &functions {
        // Every call is found before any is replaced.
        let calls: Vec<Value<'_>> = f
            .instructions()
            .into_iter()
            .filter(|i| matches!(i.opcode(), Opcode::LLVMCall | Opcode::LLVMInvoke))
            .collect();
        for call in calls {
            changed += usize::from(r.call(call));
        }
    }
    // Calls were rewritten in place above; functions are replaced one at a
    // time.
    for f in functions {
        changed += r.function(f);
    }
    changed
}

impl<'m> Rewrite<'m> {
    /// The number of words of `ty` when a `byval(ty)` is passed as words.
    fn words(&self, ty: Type<'m>) -> Option<u64> {
        let (size, align) = (self.ll.size_of(ty), self.ll.align_of(ty));
        (size % 8 == 0 && (1..=MAX_WORDS).contains(&(size / 8)) && align <= 8).then_some(size / 8)
    }

    /// Rewrites call or invoke `call` if it passes a small struct
    /// `byval` to compiled code; returns whether it did.
    fn call(&self, call: Value<'m>) -> bool {
        let ll = &self.ll;
        let callee = call.called_value();
        if callee.is_inline_asm() || is_excluded(callee) {
            return false;
        }
        let n = call.num_arg_operands();
        let invoke = call.opcode() == Opcode::LLVMInvoke;
        // Operand bundles add operands between the arguments and the
        // callee (and the invoke's destinations).
        if call.num_operands() != n + if invoke { 3 } else { 1 } {
            return false;
        }
        let plan: Vec<Option<(Type<'m>, u64)>> = (0..n)
            .map(|i| {
                call.call_type_attr(i, "byval")
                    .and_then(|t| self.words(t).map(|w| (t, w)))
            })
            .collect();
        if plan.iter().all(Option::is_none) {
            return false;
        }
        let fnty = call.called_fn_type();
        let old_params = fnty.fn_params();
        let fixed = old_params.len();
        ll.position_before(call);
        let mut args = Vec::new();
        let mut params = Vec::new();
        // Old argument index → first new argument index (attributes).
        let mut at = Vec::new();
        for i in 0..n {
            at.push(args.len() as u32);
            let a = call.operand(i);
            match plan[i as usize] {
                Some((_, words)) => {
                    for k in 0..words {
                        let p = ll.gep_i8c(a, 8 * k);
                        args.push(ll.load(ll.i64(), p, 8));
                        if (i as usize) < fixed {
                            params.push(ll.i64());
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
        let new_ty = ll.fn_ty(fnty.fn_ret(), &params, fnty.is_vararg());
        let new = if invoke {
            let (normal, unwind) = call.invoke_dests();
            ll.invoke(new_ty, callee, &args, normal, unwind)
        } else {
            ll.call(new_ty, callee, &args)
        };
        new.set_call_conv(call.call_conv());
        for idx in [AttrAt::Function, AttrAt::Return] {
            for a in call.call_attrs(idx) {
                new.add_call_attr(idx, a);
            }
        }
        for i in 0..n {
            if plan[i as usize].is_none() {
                for a in call.call_attrs(AttrAt::Param(i)) {
                    new.add_call_attr(AttrAt::Param(at[i as usize]), a);
                }
            }
        }
        copy_instruction_metadata(call, new);
        move_name(call, new);
        call.replace_all_uses_with(new);
        // SAFETY: its uses moved to `new` above, and `call` is not used
        // again (the caller's list holds each call once).
        unsafe { call.erase() };
        true
    }

    /// Replaces function `f` by one taking its small `byval` parameters as
    /// words; returns how many parameters changed.
    fn function(&self, f: Func<'m>) -> usize {
        let ll = &self.ll;
        if is_excluded(f.as_value()) {
            return 0;
        }
        let fnty = f.fn_type();
        let old_params = fnty.fn_params();
        let plan: Vec<Option<(Type<'m>, u64)>> = (0..old_params.len() as u32)
            .map(|i| {
                f.attr(AttrAt::Param(i), "byval")
                    .and_then(Attr::type_value)
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
                Some((_, words)) => params.extend((0..*words).map(|_| ll.i64())),
                None => params.push(old_params[i]),
            }
        }
        let new_ty = ll.fn_ty(fnty.fn_ret(), &params, fnty.is_vararg());
        // The new function takes over the name, properties, blocks and
        // uses of `f`, which is then deleted. The name goes over as bytes:
        // a symbol name need not be UTF-8.
        let name = c_name(f.as_value());
        f.set_name("");
        let new = ll.add_function("", new_ty);
        new.set_name_bytes(&name);
        new.set_linkage(f.linkage());
        new.set_visibility(f.visibility());
        new.set_call_conv(f.call_conv());
        new.set_alignment(f.alignment());
        if let Some(p) = f.personality() {
            new.set_personality(Some(p));
        }
        f.copy_object_properties_to(new);
        for idx in [AttrAt::Function, AttrAt::Return] {
            for a in f.attrs(idx) {
                new.add_attr(idx, a);
            }
        }
        for (i, p) in plan.iter().enumerate() {
            if p.is_none() {
                for a in f.attrs(AttrAt::Param(i as u32)) {
                    new.add_attr(AttrAt::Param(at[i]), a);
                }
            }
        }
        // The body moves over; the struct parameters become locals
        // holding the words, at the top of the entry block.
        for bb in f.blocks() {
            bb.remove_from_parent();
            ll.append_existing_block(new.as_value(), bb);
        }
        let entry = new.entry_block();
        if let Some(entry) = entry {
            ll.position_at_start(entry);
        }
        for (i, p) in plan.iter().enumerate() {
            let old_arg = f.param(i as u32);
            let first = at[i];
            match p {
                Some((ty, words)) if entry.is_some() => {
                    let local = ll.alloca(*ty);
                    local.set_name_bytes(&c_name(old_arg));
                    local.set_alignment(8);
                    for k in 0..*words {
                        let w = new.param(first + k as u32);
                        let p = ll.gep_i8c(local, 8 * k);
                        ll.store(w, p, 8);
                    }
                    old_arg.replace_all_uses_with(local);
                }
                Some(_) => {}
                None => {
                    let new_arg = new.param(first);
                    move_name(old_arg, new_arg);
                    old_arg.replace_all_uses_with(new_arg);
                }
            }
        }
        f.replace_all_uses_with(new.as_value());
        // SAFETY: its uses, blocks and name went to `new`, and the caller
        // uses no handle to it or its parameters afterwards.
        unsafe { f.delete() };
        changed
    }
}

/// Whether `callee` is a function the rewrite leaves alone: an intrinsic
/// or a C library function (a wrapper of the runtime, whose generic entry
/// reads the same bytes either way).
fn is_excluded(callee: Value<'_>) -> bool {
    if !callee.is_function() {
        return false; // a call through a pointer
    }
    let name = c_name(callee);
    let name = std::str::from_utf8(&name).unwrap_or_default();
    let defined_here = !callee.is_declaration();
    name.starts_with("llvm.") || (!defined_here && crate::libc_names::is_libc(name))
}

/// `v`'s name up to its first NUL, as C code reading it sees it.
fn c_name(v: Value<'_>) -> Vec<u8> {
    let mut name = v.name_bytes();
    if let Some(nul) = name.iter().position(|&b| b == 0) {
        name.truncate(nul);
    }
    name
}

/// Gives `to` the name of `from` (which loses it).
fn move_name<'m>(from: Value<'m>, to: Value<'m>) {
    let name = from.name_bytes();
    if name.is_empty() {
        return;
    }
    from.set_name("");
    to.set_name_bytes(&name);
}

/// Copies the debug location and other metadata of instruction `from`.
fn copy_instruction_metadata<'m>(from: Value<'m>, to: Value<'m>) {
    to.set_debug_loc(from.debug_loc());
    for kind in from.metadata_kinds() {
        to.set_metadata(kind, from.metadata(kind));
    }
}
