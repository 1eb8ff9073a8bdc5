//! Direct calls (docs/translation.md, "Direct bodies": "a fast register entry guarded by a signature
//! hash"): a compiled function's body takes its arguments and returns its
//! value in registers, each pointer as two values (intval, lower), instead
//! of through the thread's CC buffers.
//!
//! - A function `f` of type `S` defined here (not variadic, no `byval`
//!   parameter: small ones are words by now, see `crate::byval`) gets its body as `gimso.fd.f.H`, `H` a hash of `S`, with
//!   type `{i64 exception, R, R-capability} (ptr thread, a0, a0-capability,
//!   …)` (capability slots only for types that hold pointers or 64-bit
//!   integers: [`cc_carries`]). Its generic
//!   entry `gimso.fn.f` stays the semantic reference: it checks the
//!   argument size, reads the buffers, calls the body and writes the result.
//! - A call whose function type is exactly `S` calls `gimso.fd.f.H`. The
//!   types agree, so no size check is needed: that is the whole point of
//!   putting the type's hash in the symbol. A call to a function declared
//!   here and defined elsewhere references `gimso.fd.f.H'` for the call's own
//!   type and defines it as a weak thunk that goes through the generic
//!   entry (with its checks). When the definition has that very type, its
//!   strong symbol replaces the thunk at link time; when the declaration
//!   lies about the type (K&R C, a wrong `extern`), the thunk stays and the
//!   generic entry reports the mismatch as before. C library functions
//!   (wrappers in the runtime with generic entries only) are called the
//!   generic way directly.
//! - A function object's payload records the body and the hash of its type
//!   (`gimso_abi::FUNCTION_BODY_OFFSET`, `FUNCTION_TYPE_HASH_OFFSET`). A
//!   call through a function pointer checks the capability as always, then
//!   compares the object's hash with its own type's: equal, it calls the
//!   body in registers; different (or 0: a wrapper, a runtime-made
//!   function, one without a body), the generic entry with its size checks.
//! - A weak (`__attribute__((weak))`) definition may be replaced by a
//!   definition of another type: its body stays private and calls to it
//!   use the generic entry, which the linker resolves. ODR definitions (C++
//!   inline functions) have one type everywhere and bind directly.

use crate::llvm::{IntPredicate, Linkage, TypeKind, Visibility};
use gimso_abi::SYMBOL_DIRECT_PREFIX;

use super::ModTx;
use super::buffers;
use super::consts::Tx;
use super::layout::{cc_carries, cc_layout, ret_bytes};
use super::ll::{Ll, T, V};
use super::runtime::{call, entry_type};

/// A function defined here with a direct body.
#[derive(Clone, Copy)]
pub struct Direct<'m> {
    /// The body `gimso.fd.NAME.HASH`.
    pub body: V<'m>,
    /// Whether calls in this module may go straight to `body` (false for
    /// weak definitions another module may replace).
    pub bind: bool,
}

/// Whether functions of type `fnty` can be called directly: not variadic,
/// every parameter and the result a sized first-class type.
pub fn signature_ok<'m>(fnty: T<'m>) -> bool {
    if fnty.is_vararg() {
        return false;
    }
    let ret = fnty.fn_ret();
    let ret_ok = ret.kind() == TypeKind::LLVMVoidTypeKind || ret.is_sized();
    ret_ok && fnty.fn_params().iter().all(|&p| p.is_sized())
}

/// The direct entry type for original function type `fnty`.
pub fn direct_type<'m>(ll: &Ll<'m>, fnty: T<'m>) -> T<'m> {
    let mut params = vec![ll.ptr()];
    for p in fnty.fn_params() {
        params.push(p);
        if cc_carries(p) {
            params.push(p);
        }
    }
    ll.fn_ty(direct_ret_type(ll, fnty), &params, false)
}

/// `{i64 exception}`, `{i64, R}` or `{i64, R, R}` (the second `R` the
/// capabilities of a result that holds pointers).
fn direct_ret_type<'m>(ll: &Ll<'m>, fnty: T<'m>) -> T<'m> {
    let ret = fnty.fn_ret();
    if ret.kind() == TypeKind::LLVMVoidTypeKind {
        ll.struct_ty(&[ll.i64()])
    } else if cc_carries(ret) {
        ll.struct_ty(&[ll.i64(), ret, ret])
    } else {
        ll.struct_ty(&[ll.i64(), ret])
    }
}

/// The return value of a direct entry: the exception flag and, unless the
/// function returns void, `value` (zero when unwinding).
pub fn direct_result<'m>(
    ll: &Ll<'m>,
    fnty: T<'m>,
    exception: bool,
    value: Option<Tx<'m>>,
) -> V<'m> {
    let rty = fnty.fn_ret();
    let sty = direct_ret_type(ll, fnty);
    let mut agg = ll.zero(sty);
    agg = ll.insert_value(agg, ll.i64c(u64::from(exception)), 0);
    if rty.kind() != TypeKind::LLVMVoidTypeKind {
        if let Some(v) = value {
            agg = ll.insert_value(agg, v.int, 1);
            if cc_carries(rty) {
                let cap = v.cap.unwrap_or_else(|| ll.zero(rty));
                agg = ll.insert_value(agg, cap, 2);
            }
        }
    }
    agg
}

/// The value a direct call returned (`r` its result struct).
pub fn direct_value<'m>(ll: &Ll<'m>, fnty: T<'m>, r: V<'m>) -> Option<Tx<'m>> {
    let rty = fnty.fn_ret();
    if rty.kind() == TypeKind::LLVMVoidTypeKind {
        return None;
    }
    Some(Tx {
        int: ll.extract_value(r, 1),
        cap: cc_carries(rty).then(|| ll.extract_value(r, 2)),
    })
}

/// The arguments of a direct call: the thread, then each value with its
/// capability when its type holds pointers.
pub fn direct_args<'m>(ll: &Ll<'m>, fnty: T<'m>, thread: V<'m>, args: &[Tx<'m>]) -> Vec<V<'m>> {
    let mut out = vec![thread];
    for (&ty, t) in fnty.fn_params().iter().zip(args) {
        out.push(t.int);
        if cc_carries(ty) {
            out.push(t.cap.unwrap_or_else(|| ll.zero(ty)));
        }
    }
    out
}

/// The parameters of direct entry `f` (of original type `fnty`) as values
/// with their capabilities.
pub fn direct_params<'m>(f: V<'m>, fnty: T<'m>) -> Vec<Tx<'m>> {
    let mut k = 1;
    let mut out = Vec::new();
    for ty in fnty.fn_params() {
        let int = f.func().param(k);
        let cap = cc_carries(ty).then(|| f.func().param(k + 1));
        k += if cap.is_some() { 2 } else { 1 };
        out.push(Tx { int, cap });
    }
    out
}

/// `gimso.fd.NAME.HASH`: the hash (64-bit FNV-1a of the type's text) keeps
/// functions of different types apart at link time.
pub fn direct_symbol<'m>(name: &str, fnty: T<'m>) -> String {
    let h = type_hash(fnty);
    format!("{SYMBOL_DIRECT_PREFIX}{name}.{h:016x}")
}

/// 64-bit FNV-1a of the ABI version and the text of function type `fnty`, never 0 (a function
/// object's hash word is 0 when it has no direct body).
pub fn type_hash<'m>(fnty: T<'m>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    // The ABI version first: objects compiled for another register
    // convention never bind to these bodies (their calls take the
    // generic entry, whose checks hold across versions).
    let abi = format!("abi{}:", gimso_abi::ABI_VERSION);
    for b in abi.bytes().chain(fnty.print().bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h.max(1)
}

impl<'m> ModTx<'m> {
    /// Gives function `f` (defined here, named `name`, translated to
    /// linkage `linkage`) a direct body when its signature allows.
    pub fn declare_direct(&mut self, f: V<'m>, name: &str, linkage: Linkage) {
        use Linkage::*;
        if !self.options.direct_calls {
            return;
        }
        let fnty = f.global_value_type();
        let byval = (0..fnty.fn_params().len() as u32).any(|i| f.func().param_byval(i).is_some());
        if byval || !signature_ok(fnty) {
            return;
        }
        let (body_linkage, bind) = match f.linkage() {
            LLVMExternalLinkage => (linkage, true),
            LLVMInternalLinkage | LLVMPrivateLinkage => (LLVMInternalLinkage, true),
            // One definition by rule: the same type everywhere.
            LLVMLinkOnceODRLinkage | LLVMWeakODRLinkage => (LLVMWeakAnyLinkage, true),
            _ => (LLVMInternalLinkage, false),
        };
        let sym = direct_symbol(name, fnty);
        let body = self.ll.add_function(&sym, direct_type(&self.ll, fnty));
        body.set_linkage(body_linkage);
        if body_linkage != LLVMInternalLinkage {
            body.set_visibility(f.visibility());
        }
        f.func().copy_safe_attrs_to(body.func());
        self.direct.insert(f, Direct { body: *body, bind });
    }

    /// The direct entry a call of type `fnty` to `callee` (an original
    /// function) may use, with its type; `None` means the generic entry.
    pub fn direct_callee(&mut self, callee: V<'m>, fnty: T<'m>) -> Option<V<'m>> {
        if !self.options.direct_calls {
            return None;
        }
        if let Some(d) = self.direct.get(&callee) {
            let same = callee.global_value_type() == fnty;
            return (d.bind && same).then_some(d.body);
        }
        if !callee.is_declaration()
            || callee.linkage() != Linkage::LLVMExternalLinkage
            || !signature_ok(fnty)
        {
            return None;
        }
        let (entry, obj) = *self.fn_map.get(&callee)?;
        let name = entry.name();
        let name = name.strip_prefix(gimso_abi::SYMBOL_FN_PREFIX)?.to_owned();
        if crate::libc_names::is_libc(&name) {
            return None;
        }
        let sym = direct_symbol(&name, fnty);
        if let Some(f) = self.ll.get_function(&sym) {
            return Some(*f);
        }
        Some(self.thunk(&sym, fnty, entry, obj))
    }

    /// The register entry of the C library wrapper `callee` (a declaration)
    /// when the call's type `fnty` is exactly its prototype's.
    pub fn wrapper_entry(
        &self,
        callee: V<'m>,
        fnty: T<'m>,
    ) -> Option<&'static gimso_abi::DirectWrapper> {
        if !self.options.direct_calls
            || !callee.is_declaration()
            || callee.linkage() != Linkage::LLVMExternalLinkage
        {
            return None;
        }
        let name = callee.name();
        let w = gimso_abi::DIRECT_WRAPPERS.iter().find(|w| w.name == name)?;
        (fnty.print() == w.ir_type).then_some(w)
    }

    /// A weak `sym` of type [`direct_type`]`(fnty)` that calls the generic
    /// `entry` (of function object `obj`): what a direct call to a function
    /// defined elsewhere runs unless the definition has the same type.
    fn thunk(&mut self, sym: &str, fnty: T<'m>, entry: V<'m>, obj: V<'m>) -> V<'m> {
        let ll = &self.ll;
        let f = ll.add_function(sym, direct_type(ll, fnty));
        f.set_linkage(Linkage::LLVMWeakAnyLinkage);
        f.set_visibility(Visibility::LLVMHiddenVisibility);
        let saved = ll.insert_block();
        let b = ll.append_block(f, "entry");
        ll.position_at_end(b);
        ll.set_debug_loc(None);
        let thread = f.func().param(0);
        let types = fnty.fn_params();
        let layout = cc_layout(ll, &types);
        let (payload, caps) = buffers::write_buffers(ll, thread, layout.bytes);
        buffers::zero_caps(ll, caps, layout.bytes);
        for (i, (&ty, t)) in types.iter().zip(direct_params(*f, fnty)).enumerate() {
            buffers::write_value(ll, ty, t, payload, caps, layout.offsets[i]);
        }
        let lower = ll.const_gep_i8(obj, 16);
        let r = ll.call(
            entry_type(ll),
            entry,
            &[thread, lower, ll.i64c(layout.bytes)],
        );
        let threw = ll.icmp(IntPredicate::LLVMIntNE, ll.extract_value(r, 0), ll.i64c(0));
        let (exc, cont) = (ll.append_block(f, ""), ll.append_block(f, ""));
        ll.cond_br(threw, exc, cont);
        ll.position_at_end(exc);
        ll.ret(direct_result(ll, fnty, true, None));
        ll.position_at_end(cont);
        let rty = fnty.fn_ret();
        let expected = ret_bytes(ll, rty);
        let value = (expected > 0).then(|| {
            let got = ll.extract_value(r, 1);
            let ok = ll.icmp(IntPredicate::LLVMIntUGE, got, ll.i64c(expected));
            let (bad, good) = (ll.append_block(f, ""), ll.append_block(f, ""));
            ll.cond_br(ok, good, bad);
            ll.position_at_end(bad);
            call(
                ll,
                "gimso_ret_size_failed",
                &[ll.i64c(expected), got, ll.null_ptr()],
            );
            ll.unreachable();
            ll.position_at_end(good);
            let (payload, caps) = buffers::arg_buffers(ll, thread, got);
            buffers::read_value(ll, rty, payload, caps, 0)
        });
        ll.ret(direct_result(ll, fnty, false, value));
        if let Some(saved) = saved {
            ll.position_at_end(saved);
        }
        *f
    }
}
