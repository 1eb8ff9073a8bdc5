//! The `inttoptr` capability inference on the spec's examples.

use gimso_pass::inttoptr::{Cap, Origin, infer};
use gimso_pass::parse_module;
use inkwell::context::Context;
use inkwell::values::{BasicValueEnum, FunctionValue, InstructionValue};

const IR: &str = r#"
declare i64 @get_offset()
declare i1 @stuff()

; The spec's example: p = (int *)(((uintptr_t)p & MASK) + (stuff() ? get_offset() : 0))
define ptr @mask(ptr %p) {
entry:
  %i = ptrtoint ptr %p to i64
  %m = and i64 %i, -16
  %c = call i1 @stuff()
  %o = call i64 @get_offset()
  %s = select i1 %c, i64 %o, i64 0
  %a = add i64 %m, %s
  %q = inttoptr i64 %a to ptr
  ret ptr %q
}

; Two pointers combined: no single capability.
define ptr @two(ptr %p, ptr %r) {
entry:
  %i = ptrtoint ptr %p to i64
  %j = ptrtoint ptr %r to i64
  %d = sub i64 %i, %j
  %q = inttoptr i64 %d to ptr
  ret ptr %q
}

; A pointer walked in a loop: the phi gets a capability phi beside it.
define ptr @walk(ptr %p, i64 %n) {
entry:
  %i0 = ptrtoint ptr %p to i64
  br label %loop
loop:
  %i = phi i64 [ %i0, %entry ], [ %next, %loop ]
  %k = phi i64 [ 0, %entry ], [ %k1, %loop ]
  %next = add i64 %i, 8
  %k1 = add i64 %k, 1
  %done = icmp eq i64 %k1, %n
  br i1 %done, label %exit, label %loop
exit:
  %q = inttoptr i64 %next to ptr
  ret ptr %q
}

; An integer from memory: nothing known.
define ptr @loaded(ptr %pp) {
entry:
  %i = load i64, ptr %pp
  %t = trunc i64 %i to i32
  %z = zext i32 %t to i64
  %q = inttoptr i64 %z to ptr
  ret ptr %q
}

; Either of two pointers: a capability select, never Top.
define ptr @either(ptr %p, ptr %r, i1 %c) {
entry:
  %i = ptrtoint ptr %p to i64
  %j = ptrtoint ptr %r to i64
  %s = select i1 %c, i64 %i, i64 %j
  %q = inttoptr i64 %s to ptr
  ret ptr %q
}
"#;

fn inst<'ctx>(f: FunctionValue<'ctx>, name: &str) -> InstructionValue<'ctx> {
    f.get_basic_block_iter()
        .flat_map(|b| b.get_instructions())
        .find(|i| i.get_name().is_some_and(|n| n.to_str() == Ok(name)))
        .unwrap_or_else(|| panic!("no %{name}"))
}

fn param<'ctx>(f: FunctionValue<'ctx>, i: u32) -> BasicValueEnum<'ctx> {
    f.get_nth_param(i).unwrap()
}

#[test]
fn inferred_capabilities_follow_the_spec() {
    let ctx = Context::create();
    let m = parse_module(&ctx, IR.as_bytes(), "inttoptr.ll").expect("fixture parses");
    let f = |name: &str| m.get_function(name).unwrap();

    let mask = f("mask");
    let r = infer(mask);
    assert_eq!(
        r.inttoptr_cap(inst(mask, "q")),
        Cap::Definite(Origin::Pointer(param(mask, 0)))
    );
    assert_eq!(
        r.cap(inst(mask, "s")),
        Cap::Bottom,
        "a select of call results stays Bottom"
    );

    let two = f("two");
    assert_eq!(infer(two).inttoptr_cap(inst(two, "q")), Cap::Top);

    let walk = f("walk");
    let r = infer(walk);
    let phi = inst(walk, "i");
    assert_eq!(r.cap(phi), Cap::Definite(Origin::Merge(phi)));
    assert_eq!(
        r.inttoptr_cap(inst(walk, "q")),
        Cap::Definite(Origin::Merge(phi))
    );
    assert_eq!(
        r.cap(inst(walk, "k")),
        Cap::Bottom,
        "a counter never touched by a pointer"
    );

    let loaded = f("loaded");
    assert_eq!(infer(loaded).inttoptr_cap(inst(loaded, "q")), Cap::Bottom);

    let either = f("either");
    let r = infer(either);
    let s = inst(either, "s");
    assert_eq!(
        r.inttoptr_cap(inst(either, "q")),
        Cap::Definite(Origin::Merge(s))
    );
}
