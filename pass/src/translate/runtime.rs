//! Declarations of the runtime entry points the translated code calls
//! (`include/gimso.h`). A `gimso_ptr` argument is passed as two `ptr`
//! arguments and returned as `{ptr, ptr}`: the same registers under the
//! SysV x86-64 ABI as the C struct (no call here needs more than six).

use super::ll::{Ll, T, V};

/// Parameter and return shapes, in a tiny notation: `p` ptr, `i` i64,
/// `w` i32, `P` a gimso_ptr (two ptrs); return `v` void, `P` {ptr, ptr}.
const SIGNATURES: &[(&str, &str, &str)] = &[
    ("gimso_access_failed", "Piwp", "v"),
    ("gimso_access_recheck", "Piwp", "v"),
    ("gimso_load_ptr", "P", "P"),
    ("gimso_store_ptr", "PP", "v"),
    ("gimso_atomic_load_ptr", "P", "P"),
    ("gimso_atomic_store_ptr", "PP", "v"),
    ("gimso_atomic_xchg_ptr", "PP", "P"),
    // (sret result, dst, expected, value, weak)
    ("gimso_atomic_cmpxchg_ptr", "pPiPw", "v"),
    ("gimso_memmove_at", "PPip", "v"),
    ("gimso_memset_at", "Pwip", "v"),
    ("gimso_check_lanes_at", "Piiwp", "v"),
    ("gimso_expose", "p", "v"),
    ("gimso_exposed_lower", "pi", "p"),
    ("gimso_alloc_stack", "ii", "P"),
    ("gimso_alloc_stack_ptrs", "ii", "P"),
    ("gimso_pollcheck_slow", "p", "v"),
    ("gimso_check_call_at", "Pp", "i"),
    ("gimso_cc_outline", "pi", "v"),
    ("gimso_cc_copy_in", "ppPip", "v"),
    ("gimso_cc_copy_out", "ppii", "P"),
    ("gimso_stack_copy_out", "ppii", "P"),
    ("gimso_va_start", "pii", "P"),
    ("gimso_arg_size_failed", "iip", "v"),
    ("gimso_ret_size_failed", "iip", "v"),
    ("gimso_unreachable", "p", "v"),
    ("gimso_indirectbr_failed", "ip", "v"),
    ("gimso_global_init_ptr", "PP", "v"),
    ("gimso_register_global", "P", "v"),
    ("gimso_thread_attach", "", "p"),
    ("gimso_start_main", "wppp" /* + i64 below */, "w"),
    ("gimso_landing_pad", "p", "i"),
    ("gimso_landing_register", "i", "P"),
    ("gimso_unwind_into_nounwind", "p", "v"),
    // (thread, env, native jmp_buf, frame record, savemask, site)
    ("gimso_setjmp_prepare", "pPppwp", "v"),
    ("gimso_tls_address", "pP", "P"),
];

/// Cold paths of inlined fast paths, called under LLVM's `preserve_most`
/// convention through their `_pm` entries (src/preserve_most.rs): the
/// callee keeps every general-purpose register but r11 and its results, so
/// values that live across the rarely taken call stay in registers on the
/// hot path instead of being spilled around it.
const PRESERVE_MOST: &[&str] = &[
    "gimso_load_ptr",
    "gimso_store_ptr",
    "gimso_access_recheck",
    "gimso_pollcheck_slow",
    "gimso_check_call_at",
];

/// LLVM's number for `preserve_mostcc`.
const PRESERVE_MOST_CC: u32 = 14;

/// Entry points that report a safety error and never return.
pub const FAILURES: &[&str] = &[
    "gimso_access_failed",
    "gimso_arg_size_failed",
    "gimso_ret_size_failed",
    "gimso_unreachable",
    "gimso_indirectbr_failed",
    "gimso_unwind_into_nounwind",
];

fn shape<'m>(ll: &Ll<'m>, s: &str) -> Vec<T<'m>> {
    let mut out = Vec::new();
    for c in s.chars() {
        match c {
            'p' => out.push(ll.ptr()),
            'i' => out.push(ll.i64()),
            'w' => out.push(ll.i32()),
            'P' => {
                out.push(ll.ptr());
                out.push(ll.ptr());
            }
            _ => {}
        }
    }
    out
}

/// The declaration and function type of runtime entry point `name`.
///
/// # Panics
/// If `name` is not in the table (a bug in the pass, caught by its tests).
pub fn runtime<'m>(ll: &Ll<'m>, name: &str) -> (T<'m>, V<'m>) {
    let (_, params, ret) = SIGNATURES
        .iter()
        .find(|(n, _, _)| *n == name)
        .unwrap_or_else(|| panic!("unknown runtime function {name}"));
    let mut ps = shape(ll, params);
    if name == "gimso_start_main" {
        ps.push(ll.i64());
    }
    let r = match *ret {
        "v" => ll.void(),
        "P" => ll.struct_ty(&[ll.ptr(), ll.ptr()]),
        "i" => ll.i64(),
        "w" => ll.i32(),
        _ => ll.ptr(),
    };
    let fnty = ll.fn_ty(r, &ps, false);
    let preserve_most = PRESERVE_MOST.contains(&name);
    let symbol = if preserve_most {
        format!("{name}_pm")
    } else {
        name.to_string()
    };
    let f = ll.get_function(&symbol).unwrap_or_else(|| {
        let f = ll.runtime_fn(&symbol, fnty);
        if preserve_most {
            f.func().set_call_conv(PRESERVE_MOST_CC);
        }
        if name == "gimso_tls_address" {
            // The same answer for the same thread: repeated uses in one
            // function share one call.
            f.func().add_fn_attrs(&["memory", "nounwind", "willreturn"]);
        }
        if FAILURES.contains(&name) {
            // Failure paths end the program: the optimiser keeps them out
            // of the way (cold blocks, no code after the call).
            f.func().add_fn_attrs(&["noreturn", "cold", "nounwind"]);
        }
        f
    });
    (fnty, *f)
}

/// Calls runtime entry point `name` with `args`.
pub fn call<'m>(ll: &Ll<'m>, name: &str, args: &[V<'m>]) -> V<'m> {
    let (fnty, f) = runtime(ll, name);
    ll.call(fnty, f, args)
}

/// The generic entry type `{i64, i64} (ptr, ptr, i64)`.
pub fn entry_type<'m>(ll: &Ll<'m>) -> T<'m> {
    let ret = ll.struct_ty(&[ll.i64(), ll.i64()]);
    ll.fn_ty(ret, &[ll.ptr(), ll.ptr(), ll.i64()], false)
}
