//! The preparatory rewrite: linkage and undef/poison rules of the spec.

use gimso_pass::parse_module;
use gimso_pass::prepare::{PrepareStats, prepare};
use inkwell::context::Context;
use inkwell::module::{Linkage, Module};
use inkwell::values::AnyValue;

/// `ir` parsed and prepared; the result must verify.
fn prepared<'c>(ctx: &'c Context, ir: &str, name: &str) -> (Module<'c>, PrepareStats) {
    let m = parse_module(ctx, ir.as_bytes(), name).expect("fixture parses");
    let stats = prepare(&m);
    m.verify()
        .unwrap_or_else(|e| panic!("prepared module does not verify: {e}"));
    (m, stats)
}

const IR: &str = r#"
@odr = linkonce_odr global i32 1
@weak = weak_odr global i64 2
@avail = available_externally global i32 3
@u_init = global [4 x i32] undef
@p_init = global ptr poison
@normal = global i32 undef

define linkonce_odr i32 @inline_me(i32 %x) {
  %y = add i32 %x, undef
  ret i32 %y
}

define available_externally i32 @elsewhere(i32 %x) {
entry:
  %c = icmp eq i32 %x, 0
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %p = phi i32 [ 1, %entry ], [ %x, %a ]
  ret i32 %p
}

define i32 @flags(i32 %a, i32 %b, ptr %p, i64 %i) {
  %s = add nsw nuw i32 %a, %b
  %d = sdiv exact i32 %s, 4
  %h = lshr exact i32 %d, 1
  %f = freeze i32 %h
  %g = getelementptr inbounds i32, ptr %p, i64 %i
  %q = load ptr, ptr %g, !nonnull !0
  %n = load i32, ptr %q, !range !1, !noundef !0
  %r = mul nsw i32 %f, %n
  ret i32 %r
}

!0 = !{}
!1 = !{i32 0, i32 10}

define i32 @user(i32 %x, i1 %c) {
entry:
  %v = call i32 @elsewhere(i32 poison)
  br i1 %c, label %l, label %r
l:
  br label %m
r:
  br label %m
m:
  %p = phi i32 [ undef, %l ], [ %v, %r ]
  %s = select i1 %c, i32 %p, i32 poison
  store i32 %s, ptr @odr
  %vec = insertelement <4 x i32> undef, i32 %s, i32 0
  %e = extractelement <4 x i32> %vec, i32 1
  ret i32 %e
}
"#;

#[test]
fn prepare_drops_odr_externalizes_and_zeroes_undef() {
    let ctx = Context::create();
    let (m, stats) = prepared(&ctx, IR, "prepare.ll");
    assert_eq!(
        stats,
        PrepareStats {
            odr_dropped: 3,
            externalized: 2,
            undef_zeroed: 8,
            ub_dropped: 9,
            words_as_integers: 0,
            byval_as_words: 0,
        }
    );

    let g = |n: &str| m.get_global(n).unwrap();
    assert_eq!(g("odr").get_linkage(), Linkage::LinkOnceAny);
    assert_eq!(g("weak").get_linkage(), Linkage::WeakAny);
    assert_eq!(g("avail").get_linkage(), Linkage::External);
    assert!(
        g("avail").get_initializer().is_none(),
        "available_externally global became a declaration"
    );
    for name in ["u_init", "p_init", "normal"] {
        let init = g(name)
            .get_initializer()
            .unwrap()
            .print_to_string()
            .to_string();
        assert!(
            init.contains("zeroinitializer") || init.ends_with(" 0") || init.ends_with("null"),
            "{name}: {init}"
        );
    }
    assert_eq!(
        m.get_function("inline_me").unwrap().get_linkage(),
        Linkage::LinkOnceAny
    );
    let elsewhere = m.get_function("elsewhere").unwrap();
    assert_eq!(elsewhere.get_linkage(), Linkage::External);
    assert_eq!(
        elsewhere.count_basic_blocks(),
        0,
        "available_externally function became a declaration"
    );

    let text = m.print_to_string().to_string();
    for bad in [
        "undef",
        "poison",
        "_odr",
        "available_externally",
        "nsw",
        "nuw",
        "exact",
        "inbounds",
        "freeze",
        "!nonnull",
        "!range",
        "!noundef",
    ] {
        assert!(!text.contains(bad), "{bad} left in:\n{text}");
    }
}

const WORDS: &str = r#"
define i64 @union_out(ptr %p) {
  %slot = alloca double
  store ptr %p, ptr %slot
  %d = load double, ptr %slot
  %w = bitcast double %d to i64
  ret i64 %w
}

define ptr @union_in(i64 %w) {
  %slot = alloca double
  %d = bitcast i64 %w to double
  store double %d, ptr %slot
  %p = load ptr, ptr %slot
  ret ptr %p
}

define double @number(ptr %slot) {
  %d = load double, ptr %slot
  %e = fadd double %d, 1.0
  ret double %e
}

define ptr @merged(ptr %a, ptr %b, i1 %c) {
entry:
  br i1 %c, label %l, label %r
l:
  %x = load double, ptr %a
  br label %m
r:
  %y = load double, ptr %b
  br label %m
m:
  %d = phi double [ %x, %l ], [ %y, %r ]
  %e = fadd double %d, 1.0
  store double %e, ptr %a
  %w = bitcast double %d to i64
  %p = inttoptr i64 %w to ptr
  ret ptr %p
}
"#;

#[test]
fn words_moved_as_doubles_become_integer_accesses() {
    let ctx = Context::create();
    let (m, stats) = prepared(&ctx, WORDS, "words.ll");
    // The union's load and store move an `i64`, which carries the
    // pointer's capability; a double only used as a number stays one; a
    // web of loads and phis cast to an integer is rebuilt as integers (3),
    // the number it is also used as cast back.
    assert_eq!(stats.words_as_integers, 5);
    let body = |n: &str| m.get_function(n).unwrap().print_to_string().to_string();
    assert!(
        body("union_out").contains("load i64"),
        "{}",
        body("union_out")
    );
    assert!(!body("union_out").contains("load double"));
    assert!(
        body("union_in").contains("store i64 %w"),
        "{}",
        body("union_in")
    );
    assert!(body("number").contains("load double"), "{}", body("number"));
    let merged = body("merged");
    assert!(
        merged.contains("phi i64") && !merged.contains("phi double"),
        "{merged}"
    );
    assert!(merged.contains("inttoptr i64 %"), "{merged}");
    assert!(
        merged.contains("bitcast i64"),
        "the fadd's double: {merged}"
    );
    // The pointer now comes from integer loads: the inference gives it
    // their capabilities.
    let f = gimso_pass::llvm::Func::of(m.get_function("merged").unwrap());
    let r = gimso_pass::inttoptr::infer(f);
    let itp = f
        .instructions()
        .into_iter()
        .find(|i| i.opcode() == gimso_pass::llvm::Opcode::LLVMIntToPtr)
        .unwrap();
    assert!(
        matches!(r.inttoptr_cap(itp), gimso_pass::inttoptr::Cap::Definite(_)),
        "{merged}"
    );
}

const VECTORS: &str = r#"
define void @push(ptr %sp, ptr %p) {
  %w = ptrtoint ptr %p to i64
  %a = insertelement <2 x i64> poison, i64 %w, i64 0
  %b = insertelement <2 x i64> %a, i64 -1, i64 1
  store <2 x i64> %b, ptr %sp, align 8
  ret void
}

define void @copy(ptr %dst, ptr %src) {
  %v = load <2 x i64>, ptr %src, align 8
  store <2 x i64> %v, ptr %dst, align 8
  ret void
}

define void @numbers(ptr %dst, <2 x i64> %x) {
  %y = add <2 x i64> %x, <i64 1, i64 2>
  store <2 x i64> %y, ptr %dst, align 16
  ret void
}
"#;

#[test]
fn vectors_of_words_are_stored_word_by_word() {
    let ctx = Context::create();
    let (m, stats) = prepared(&ctx, VECTORS, "vectors.ll");
    // A value-and-tag pair the SLP vectoriser made one store, and a
    // vector copy: each word stored on its own (with its capability);
    // vector arithmetic stays a vector.
    assert_eq!(stats.words_as_integers, 2);
    let body = |n: &str| m.get_function(n).unwrap().print_to_string().to_string();
    let push = body("push");
    assert!(!push.contains("store <2 x i64>"), "{push}");
    assert!(push.contains("store i64 %w"), "{push}");
    let copy = body("copy");
    assert!(!copy.contains("<2 x i64>"), "{copy}");
    assert_eq!(copy.matches("load i64").count(), 2, "{copy}");
    assert!(body("numbers").contains("store <2 x i64>"));
}

const BYVAL: &str = r#"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
%struct.Value = type { ptr, i64 }
%struct.Big = type { [9 x i64] }
%struct.Wide = type { x86_fp80 }

define i64 @callee(i64 %a, ptr byval(%struct.Value) align 8 %v, i32 %n) {
  %t = getelementptr i8, ptr %v, i64 8
  %tag = load i64, ptr %t, align 8
  call void @escape(ptr %v)
  %r = add i64 %a, %tag
  ret i64 %r
}

declare void @escape(ptr)
declare i64 @elsewhere(ptr byval(%struct.Value) align 8)
declare void @big(ptr byval(%struct.Big) align 8)
declare void @wide(ptr byval(%struct.Wide) align 16)
declare void @variadic(i32, ...)
declare i32 @printf(ptr, ...)

define i64 @caller(ptr %p, ptr %fp) {
  %r = call i64 @callee(i64 1, ptr byval(%struct.Value) align 8 %p, i32 2)
  %e = call i64 @elsewhere(ptr byval(%struct.Value) align 8 %p)
  %i = call i64 %fp(i64 1, ptr byval(%struct.Value) align 8 %p, i32 3)
  call void (i32, ...) @variadic(i32 1, ptr byval(%struct.Value) align 8 %p)
  call void @big(ptr byval(%struct.Big) align 8 %p)
  call void @wide(ptr byval(%struct.Wide) align 16 %p)
  %q = call i32 (ptr, ...) @printf(ptr %p, ptr byval(%struct.Value) align 8 %p)
  %s = add i64 %r, %e
  %t = add i64 %s, %i
  ret i64 %t
}
"#;

#[test]
fn small_byval_structs_are_passed_as_words() {
    let ctx = Context::create();
    let (m, stats) = prepared(&ctx, BYVAL, "byval.ll");
    // `callee` and `elsewhere`'s parameters; the calls of `callee`,
    // `elsewhere`, through `%fp` and of `variadic` (in its variadic part).
    // A 72-byte struct, a 16-aligned one and the C library's `printf`
    // keep their `byval`.
    assert_eq!(stats.byval_as_words, 6);
    let text = |n: &str| m.get_function(n).unwrap().print_to_string().to_string();
    let callee = text("callee");
    assert!(
        callee.starts_with("define i64 @callee(i64 %a, i64 %0, i64 %1, i32 %n)"),
        "{callee}"
    );
    // The parameter is a local holding the words; its address escapes as
    // the old pointer's did.
    assert!(callee.contains("%v = alloca %struct.Value"), "{callee}");
    assert!(callee.contains("call void @escape(ptr %v)"), "{callee}");
    assert!(text("elsewhere").contains("@elsewhere(i64, i64)"));
    let caller = text("caller");
    for call in [
        "call i64 @callee(i64 1, i64 %",
        "call i64 @elsewhere(i64 %",
        "call i64 %fp(i64 1, i64 %",
        "call void (i32, ...) @variadic(i32 1, i64 %",
        "call void @big(ptr byval(%struct.Big)",
        "call void @wide(ptr byval(%struct.Wide)",
        "@printf(ptr %p, ptr byval(%struct.Value)",
    ] {
        assert!(caller.contains(call), "no `{call}` in\n{caller}");
    }
    assert_eq!(caller.matches("load i64").count(), 8, "{caller}");
}
