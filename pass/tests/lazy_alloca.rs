//! Escaping allocas are created at the nearest common dominator of their
//! uses (pass/src/translate/function/lazy_alloca.rs), except where that is
//! the entry block or the function calls setjmp.

mod common;

use common::translate;

const DECLS: &str = r#"
declare void @use(ptr)
declare i32 @_setjmp(ptr) returns_twice
declare void @llvm.lifetime.start.p0(i64, ptr)
declare void @llvm.lifetime.end.p0(i64, ptr)
@env = global [25 x i64] zeroinitializer
"#;

/// The label of the block holding the first `gimso_alloc_stack` call.
fn alloc_block(out: &str) -> String {
    let mut label = String::new();
    for line in out.lines() {
        if !line.starts_with(' ') && !line.starts_with("define") {
            if let Some((l, _)) = line.split_once(':') {
                label = l.to_string();
            }
        }
        if line.contains("call { ptr, ptr } @gimso_alloc_stack") {
            return label;
        }
    }
    panic!("no gimso_alloc_stack in {out}");
}

#[test]
fn local_of_one_branch_is_made_in_that_branch() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define void @f(i1 %c) {{
entry:
  %x = alloca i64
  %f = getelementptr inbounds i8, ptr %x, i64 4
  br i1 %c, label %then, label %done
then:
  call void @llvm.lifetime.start.p0(i64 8, ptr %x)
  call void @use(ptr %x)
  call void @use(ptr %f)
  call void @llvm.lifetime.end.p0(i64 8, ptr %x)
  br label %done
done:
  ret void
}}
"#
    ));
    assert_eq!(stats.heap_allocas, 1, "{out}");
    assert_eq!(stats.lazy_allocas, 1, "{out}");
    // Behind the frame slot's null test, not in the prologue.
    assert!(out.contains("icmp ne ptr"), "{out}");
    assert_ne!(alloc_block(&out), "gimso.entry", "{out}");
}

#[test]
fn local_used_in_a_loop_is_made_once_per_call() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define void @f(i64 %n) {{
entry:
  %x = alloca [4 x i64]
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  call void @use(ptr %x)
  %j = add i64 %i, 1
  %more = icmp ult i64 %j, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}}
"#
    ));
    assert_eq!(stats.lazy_allocas, 1, "{out}");
    // One slot test guards the allocation: it reuses the object on later
    // iterations.
    assert_eq!(out.matches("@gimso_alloc_stack(i64 32").count(), 1, "{out}");
    assert!(out.contains("store ptr null"), "{out}");
}

#[test]
fn phi_use_is_made_in_the_incoming_block() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define ptr @f(i1 %c, ptr %other) {{
entry:
  %x = alloca i64
  br i1 %c, label %a, label %join
a:
  br label %join
join:
  %p = phi ptr [ %x, %a ], [ %other, %entry ]
  call void @use(ptr %p)
  ret ptr %p
}}
"#
    ));
    assert_eq!(stats.lazy_allocas, 1, "{out}");
}

#[test]
fn local_used_in_the_entry_block_is_made_at_entry() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define void @f(i1 %c) {{
entry:
  %x = alloca i64
  call void @use(ptr %x)
  br i1 %c, label %then, label %done
then:
  call void @use(ptr %x)
  br label %done
done:
  ret void
}}
"#
    ));
    assert_eq!(stats.heap_allocas, 1, "{out}");
    assert_eq!(stats.lazy_allocas, 0, "{out}");
}

#[test]
fn functions_calling_setjmp_make_locals_at_entry() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(i1 %c) {{
entry:
  %x = alloca i64
  br i1 %c, label %then, label %done
then:
  %r = call i32 @_setjmp(ptr @env)
  call void @use(ptr %x)
  %v = load i64, ptr %x
  ret i64 %v
done:
  ret i64 0
}}
"#
    ));
    assert_eq!(stats.heap_allocas, 1, "{out}");
    assert_eq!(stats.lazy_allocas, 0, "{out}");
}

const MEMSET: &str = "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)";

#[test]
fn zeroing_a_fresh_entry_object_is_left_out() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}{MEMSET}
define void @f() {{
entry:
  %x = alloca [7 x i64]
  call void @llvm.memset.p0.i64(ptr %x, i8 0, i64 56, i1 false)
  call void @use(ptr %x)
  call void @use(ptr %x)
  ret void
}}
"#
    ));
    assert_eq!(stats.fresh_zeroings, 1, "{out}");
    assert!(!out.contains("gimso_memset_at"), "{out}");
}

#[test]
fn zeroing_after_another_use_stays() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}{MEMSET}
define void @f() {{
entry:
  %x = alloca [7 x i64]
  call void @use(ptr %x)
  call void @llvm.memset.p0.i64(ptr %x, i8 0, i64 56, i1 false)
  call void @use(ptr %x)
  ret void
}}
"#
    ));
    assert_eq!(stats.fresh_zeroings, 0, "{out}");
    assert!(out.contains("gimso_memset_at"), "{out}");
}

#[test]
fn nonzero_fills_stay() {
    for len in [48, 56] {
        let (stats, out) = translate(&format!(
            r#"{DECLS}{MEMSET}
define void @f() {{
entry:
  %x = alloca [7 x i64]
  call void @llvm.memset.p0.i64(ptr %x, i8 1, i64 {len}, i1 false)
  call void @use(ptr %x)
  call void @use(ptr %x)
  ret void
}}
"#
        ));
        assert_eq!(stats.fresh_zeroings, 0, "{out}");
        assert!(out.contains("gimso_memset_at"), "{out}");
    }
}

/// `-ftrivial-auto-var-init=zero` leaves a field the program sets itself
/// out of the fill (Lua's `BuffFS b; b.L = L;`): zeroing the rest of a
/// fresh object, at any constant offset, changes nothing either.
#[test]
fn partial_zero_fills_of_a_fresh_object_are_left_out() {
    for (off, len) in [(0, 48), (8, 48), (16, 40)] {
        let (stats, out) = translate(&format!(
            r#"{DECLS}{MEMSET}
define void @f() {{
entry:
  %x = alloca [7 x i64]
  %p = getelementptr inbounds i8, ptr %x, i64 {off}
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 {len}, i1 false)
  call void @use(ptr %x)
  call void @use(ptr %x)
  ret void
}}
"#
        ));
        assert_eq!(stats.fresh_zeroings, 1, "{out}");
        assert!(!out.contains("gimso_memset_at"), "{out}");
    }
}

#[test]
fn zeroing_a_lazy_object_happens_only_on_reuse() {
    let (stats, out) = translate(
        &format!(
            r#"{DECLS}{MEMSET}
define void @f(i64 %n) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  call void @llvm.memset.p0.i64(ptr %x, i8 0, i64 56, i1 false)
  call void @use(ptr %x)
  %j = add i64 %i, 1
  %more = icmp ult i64 %j, %n
  br i1 %more, label %loop, label %done
done:
  ret void
}}
"#
        )
        .replace("entry:\n", "entry:\n  %x = alloca [7 x i64]\n"),
    );
    assert_eq!(stats.lazy_allocas, 1, "{out}");
    assert_eq!(stats.fresh_zeroings, 1, "{out}");
    // Still cleared when a later iteration reuses the object.
    assert_eq!(
        out.matches("call void @gimso_memset_at").count(),
        1,
        "{out}"
    );
}

/// An escaping local whose type holds pointers gets its shadow words with
/// it (`gimso_alloc_stack_ptrs`), one of plain bytes the usual object, in
/// the prologue and lazily alike.
#[test]
fn pointer_holding_locals_get_inline_shadow() {
    for (ty, want) in [
        ("{ ptr, i32, i32, [200 x i8] }", "@gimso_alloc_stack_ptrs("),
        ("[7 x ptr]", "@gimso_alloc_stack_ptrs("),
        ("[216 x i8]", "@gimso_alloc_stack("),
    ] {
        for lazy in [false, true] {
            let body = if lazy {
                "  br i1 %c, label %then, label %done\nthen:\n  call void @use(ptr %x)\n  call void @use(ptr %x)\n  br label %done\ndone:\n  ret void"
            } else {
                "  call void @use(ptr %x)\n  call void @use(ptr %x)\n  ret void"
            };
            let (stats, out) = translate(&format!(
                "{DECLS}\ndefine void @f(i1 %c) {{\nentry:\n  %x = alloca {ty}\n{body}\n}}\n"
            ));
            assert_eq!(stats.heap_allocas, 1, "{out}");
            assert!(out.contains(want), "{ty} (lazy {lazy}): {out}");
            let other = if want.contains("_ptrs") {
                "@gimso_alloc_stack("
            } else {
                "@gimso_alloc_stack_ptrs("
            };
            assert!(
                !out.contains(&format!("call {{ ptr, ptr }} {other}")),
                "{out}"
            );
        }
    }
}
