//! Direct (register) entries (pass/src/translate/direct.rs; on unless
//! `-fno-gimso-direct-calls`): which bodies get one, which calls use it,
//! and what stays on the generic entry.

mod common;

use common::{define_line, function};

use gimso_pass::translate::{TranslateOptions, TranslateStats};

/// Translates `ir` with the default options (direct calls on).
fn translate(ir: &str) -> (TranslateStats, String) {
    common::translate(ir)
}

#[test]
fn off_with_the_option() {
    let (stats, out) = common::translate_with(
        r#"
define internal i64 @f(i64 %x) {
  ret i64 %x
}
define i64 @g() {
  %r = call i64 @f(i64 1)
  ret i64 %r
}
"#,
        &TranslateOptions {
            direct_calls: false,
            ..TranslateOptions::default()
        },
    );
    assert_eq!((stats.direct_bodies, stats.direct_calls), (0, 0), "{out}");
    assert!(!out.contains("gimso.fd."), "{out}");
}

/// The lines of `out` that define or call `symbol`.
fn mentions<'a>(out: &'a str, symbol: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.contains(symbol)).collect()
}

#[test]
fn a_call_of_the_defined_type_goes_to_the_body_in_registers() {
    let (stats, out) = translate(
        r#"
define internal ptr @next(ptr %p, i32 %n) {
  %q = getelementptr i8, ptr %p, i32 %n
  ret ptr %q
}
define ptr @caller(ptr %p) {
  %r = call ptr @next(ptr %p, i32 4)
  ret ptr %r
}
"#,
    );
    assert_eq!(stats.direct_bodies, 2, "{out}");
    assert_eq!(stats.direct_calls, 1, "{out}");
    // The body takes (thread, p, p's capability, n) and returns
    // {exception, value, capability}.
    let body = define_line(&out, "gimso.fd.next.").expect("a direct body");
    assert!(
        body.starts_with("define internal { i64, ptr, ptr } @")
            && body.contains("(ptr %0, ptr %1, ptr %2, i32 %3)"),
        "{body}"
    );
    // The caller calls it with no CC-buffer traffic.
    let caller = function(&out, "gimso.fd.caller.");
    assert!(
        caller.contains("call { i64, ptr, ptr } @gimso.fd.next."),
        "{caller}"
    );
    assert!(!caller.contains("gimso.fn.next"), "{caller}");
    // The generic entry checks the argument size, reads the buffers and
    // calls the body.
    let entry = function(&out, "gimso.fn.next(");
    assert!(entry.contains("gimso_arg_size_failed"), "{entry}");
    assert!(
        entry.contains("call { i64, ptr, ptr } @gimso.fd.next."),
        "{entry}"
    );
}

#[test]
fn a_call_of_another_type_uses_the_generic_entry() {
    // K&R style: the call's type is not the function's.
    let (stats, out) = translate(
        r#"
define i64 @f(i64 %a, i64 %b) {
  %s = add i64 %a, %b
  ret i64 %s
}
define i32 @g() {
  %r = call i32 @f(i32 1)
  ret i32 %r
}
"#,
    );
    assert_eq!(stats.direct_calls, 0, "{out}");
    let g = function(&out, "gimso.fd.g.");
    assert!(g.contains("@gimso.fn.f("), "{g}");
}

#[test]
fn a_function_defined_elsewhere_is_called_through_a_weak_thunk() {
    let (stats, out) = translate(
        r#"
declare i64 @elsewhere(ptr, i64)
define i64 @g(ptr %p) {
  %r = call i64 @elsewhere(ptr %p, i64 3)
  ret i64 %r
}
"#,
    );
    assert_eq!(stats.direct_calls, 1, "{out}");
    let thunk = define_line(&out, "gimso.fd.elsewhere.").expect("a thunk");
    assert!(
        // (an i64 result comes with its capability word)
        thunk.starts_with("define weak hidden { i64, i64, i64 } @"),
        "{thunk}"
    );
    // The thunk writes the buffers and calls the generic entry, with the
    // return size check.
    let body = function(&out, "gimso.fd.elsewhere.");
    assert!(body.contains("@gimso.fn.elsewhere("), "{body}");
    assert!(body.contains("gimso_ret_size_failed"), "{body}");
}

#[test]
fn the_thunk_is_named_by_the_call_type_so_a_lying_prototype_never_binds() {
    let (_, a) = translate(
        r#"
declare i64 @h(i64)
define i64 @g() {
  %r = call i64 @h(i64 1)
  ret i64 %r
}
"#,
    );
    let (_, b) = translate(
        r#"
declare i32 @h(i32)
define i32 @g() {
  %r = call i32 @h(i32 1)
  ret i32 %r
}
"#,
    );
    let (_, def) = translate(
        r#"
define i64 @h(i64 %x) {
  ret i64 %x
}
"#,
    );
    let name = |out: &str| -> String {
        let line = define_line(out, "gimso.fd.h.").expect("gimso.fd.h");
        let at = line.find("@gimso.fd.").unwrap() + 1;
        line[at..at + line[at..].find('(').unwrap()].to_owned()
    };
    // Same type: the strong body replaces the thunk at link time.
    assert_eq!(name(&a), name(&def));
    // Different type: different symbol, so the thunk (and its checks) stay.
    assert_ne!(name(&b), name(&def));
}

#[test]
fn c_library_functions_keep_the_generic_entry() {
    let (stats, out) = translate(
        r#"
declare i64 @strnlen(ptr, i64)
define i64 @g(ptr %s) {
  %n = call i64 @strnlen(ptr %s, i64 8)
  ret i64 %n
}
"#,
    );
    assert_eq!(stats.direct_calls, 0, "{out}");
    assert!(mentions(&out, "gimso.fd.strnlen").is_empty(), "{out}");
    assert!(
        !mentions(&out, "call { i64, i64 } @gimso.fn.strnlen(").is_empty(),
        "{out}"
    );
}

#[test]
fn weak_and_variadic_definitions_are_not_bound_directly() {
    let (stats, out) = translate(
        r#"
define weak i32 @w(i32 %x) {
  ret i32 %x
}
define i32 @v(i32 %n, ...) {
  ret i32 %n
}
define i32 @g() {
  %a = call i32 @w(i32 1)
  %b = call i32 (i32, ...) @v(i32 2, i32 3)
  %s = add i32 %a, %b
  ret i32 %s
}
"#,
    );
    // `w` may be replaced at link time by a definition of another type: its
    // body is private and calls go through `gimso.fn.w`, which the linker
    // resolves. `v` is variadic: generic entry only.
    assert_eq!(stats.direct_calls, 0, "{out}");
    let w = define_line(&out, "gimso.fd.w.").expect("w's body");
    assert!(w.starts_with("define internal"), "{w}");
    assert!(define_line(&out, "gimso.fd.v.").is_none(), "{out}");
    let g = function(&out, "gimso.fd.g.");
    assert!(
        g.contains("@gimso.fn.w(") && g.contains("@gimso.fn.v("),
        "{g}"
    );
}

#[test]
fn an_exception_from_a_direct_call_still_reaches_the_landing_pad() {
    let (stats, out) = translate(
        r#"
declare i32 @__gxx_personality_v0(...)
declare void @thrower(i32)
define i32 @g() personality ptr @__gxx_personality_v0 {
  invoke void @thrower(i32 1) to label %ok unwind label %pad
ok:
  ret i32 0
pad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 1
}
"#,
    );
    assert_eq!(stats.direct_calls, 1, "{out}");
    let g = function(&out, "gimso.fd.g.");
    // The flag the thunk (or body) returns is tested and leads to the
    // runtime's landing-pad decision.
    assert!(g.contains("call { i64 } @gimso.fd.thrower."), "{g}");
    assert!(g.contains("gimso_landing_pad"), "{g}");
}

#[test]
fn a_function_object_records_its_body_and_the_hash_of_its_type() {
    let (_, out) = translate(
        r#"
define i64 @f(i64 %x) {
  ret i64 %x
}
define i64 @k(i64 %x, ...) {
  ret i64 %x
}
"#,
    );
    let body = define_line(&out, "gimso.fd.f.").expect("f's body");
    let body_name = body.split('@').nth(1).unwrap().split('(').next().unwrap();
    let hash = u64::from_str_radix(body_name.rsplit('.').next().unwrap(), 16).unwrap();
    let obj = out
        .lines()
        .find(|l| l.starts_with("@gimso.obj.f ="))
        .unwrap_or_else(|| panic!("no object: {out}"));
    assert!(obj.contains(&format!("ptr @{body_name}")), "{obj}");
    assert!(obj.contains(&format!("i64 {}", hash as i64)), "{obj}");
    // Variadic: no body, so neither body nor hash.
    let obj = out
        .lines()
        .find(|l| l.starts_with("@gimso.obj.k ="))
        .unwrap_or_else(|| panic!("no object: {out}"));
    assert!(obj.contains("ptr null, i64 0 }"), "{obj}");
}

#[test]
fn a_call_through_a_pointer_takes_the_body_when_the_hashes_agree() {
    let ir = r#"
define i64 @g(ptr %fp) {
  %r = call i64 %fp(i64 1)
  ret i64 %r
}
define i64 @v(ptr %fp) {
  %r = call i64 (i64, ...) %fp(i64 1, i64 2)
  ret i64 %r
}
"#;
    let (stats, out) = translate(ir);
    // Only the non-variadic call gets the fast path.
    assert_eq!(stats.indirect_fast_paths, 1, "{out}");
    let g = function(&out, "gimso.fd.g.");
    // The object's hash word (payload + 16) against the call type's hash,
    // then the body (payload + 8) called with the direct signature; the
    // generic entry stays for a mismatch.
    assert!(
        g.contains("getelementptr i8, ptr %") && g.contains(", i64 16"),
        "{g}"
    );
    assert!(g.contains(", i64 8"), "{g}");
    assert!(g.contains("icmp eq i64"), "{g}");
    // The body call passes (thread, 1); the generic entry (thread, the
    // object, 8 bytes of arguments).
    assert!(
        g.lines()
            .any(|l| l.contains("call { i64, i64, i64 } %") && l.contains(", i64 1, i64 0)")),
        "{g}"
    );
    assert!(
        g.lines()
            .any(|l| l.contains("call { i64, i64 } %") && l.contains(", i64 8)")),
        "{g}"
    );
    let (stats, out) = common::translate_with(
        ir,
        &TranslateOptions {
            direct_calls: false,
            ..TranslateOptions::default()
        },
    );
    assert_eq!(stats.indirect_fast_paths, 0, "{out}");
}

/// The allocator and string wrappers of `gimso_abi::DIRECT_WRAPPERS` are
/// called through their register entries when the call has the C
/// prototype's type; a declaration of another type (K&R C) keeps the
/// generic entry, whose size checks catch the mismatch.
#[test]
fn wrappers_with_register_entries_are_called_directly_at_their_own_type() {
    let (stats, out) = translate(
        r#"
declare ptr @malloc(i64)
declare ptr @realloc(ptr, i64)
declare void @free(ptr)
declare i32 @memcmp(ptr, ptr, i64)
declare i64 @strlen(ptr)
define i64 @f(ptr %s) {
  %p = call ptr @malloc(i64 32)
  %q = call ptr @realloc(ptr %p, i64 64)
  %c = call i32 @memcmp(ptr %q, ptr %s, i64 4)
  %n = call i64 @strlen(ptr %s)
  call void @free(ptr %q)
  %w = sext i32 %c to i64
  %r = add i64 %n, %w
  ret i64 %r
}
"#,
    );
    assert_eq!(stats.wrapper_direct_calls, 5, "{out}");
    for name in ["malloc", "realloc", "free", "memcmp", "strlen"] {
        assert!(
            out.contains(&format!("@gimso.fn.{name}.direct(")),
            "{name}: {out}"
        );
        assert!(
            !out.contains(&format!("call {{ i64, i64 }} @gimso.fn.{name}(")),
            "{name}: {out}"
        );
    }
    // The pointer result comes back as (intval, capability).
    assert!(
        out.contains("call { ptr, ptr } @gimso.fn.realloc.direct(ptr"),
        "{out}"
    );

    let (stats, out) = translate(
        r#"
declare ptr @malloc(i32)
define ptr @f() {
  %p = call ptr @malloc(i32 32)
  ret ptr %p
}
"#,
    );
    assert_eq!(stats.wrapper_direct_calls, 0, "{out}");
    assert!(!out.contains("malloc.direct"), "{out}");

    let (stats, out) = common::translate_with(
        "declare void @free(ptr)\ndefine void @f(ptr %p) {\n  call void @free(ptr %p)\n  ret void\n}\n",
        &TranslateOptions {
            direct_calls: false,
            ..TranslateOptions::default()
        },
    );
    assert_eq!(stats.wrapper_direct_calls, 0, "{out}");
}

#[test]
fn sixty_four_bit_integers_carry_capability_words_and_narrower_ones_do_not() {
    // tree-sitter's `Length` pair: an i64 next to i48 bit-field words. Only
    // the i64 gets a capability word (an i48 is 8 bytes in memory, but it
    // is not a word that can hold a pointer).
    let (_, out) = translate(
        r#"
define internal { i64, i48, i48 } @mk(i64 %a, i48 %b) {
  %x = insertvalue { i64, i48, i48 } zeroinitializer, i64 %a, 0
  %y = insertvalue { i64, i48, i48 } %x, i48 %b, 1
  %z = insertvalue { i64, i48, i48 } %y, i48 0, 2
  ret { i64, i48, i48 } %z
}
define { i64, i48, i48 } @g(i64 %a, i48 %b) {
  %r = call { i64, i48, i48 } @mk(i64 %a, i48 %b)
  ret { i64, i48, i48 } %r
}
"#,
    );
    let mk = common::define_line(&out, "gimso.fd.mk.").expect("a direct entry");
    assert!(
        mk.contains("(ptr %0, i64 %1, i64 %2, i48 %3)"),
        "the i64 parameter has a capability word, the i48 none: {mk}"
    );
}
