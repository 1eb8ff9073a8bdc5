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

; An integer from memory: the capability at rest in the word it was read
; from (the spec: loading a stored pointer as an integer is a ptrtoint).
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

; SROA's split of a union {ptr; int}: the pointer's low half truncated and
; its high half masked, each merged with the int member's value by its own
; phi, then or'ed back together. The two phis give the same capability on
; every edge, so the result keeps it.
define ptr @union(ptr %p, i32 %n, i1 %c) {
entry:
  br i1 %c, label %ptr, label %int
ptr:
  %i = ptrtoint ptr %p to i64
  %lo = trunc i64 %i to i32
  %hi = and i64 %i, -4294967296
  br label %join
int:
  br label %join
join:
  %h = phi i64 [ %hi, %ptr ], [ 0, %int ]
  %l = phi i32 [ %lo, %ptr ], [ %n, %int ]
  %lz = zext i32 %l to i64
  %u = or i64 %h, %lz
  %q = inttoptr i64 %u to ptr
  ret ptr %q
}

; An 8-byte memcpy lowered to an integer copy: the loaded word carries the
; capability at rest; a word only used in arithmetic needs no capability.
define void @copy(ptr %dst, ptr %src, ptr %slot, ptr %p) {
entry:
  %w = load i64, ptr %src
  store i64 %w, ptr %dst
  %i = ptrtoint ptr %p to i64
  store i64 %i, ptr %slot
  %n = load i64, ptr %slot
  %sum = add i64 %n, 1
  ret void
}

; The union's halves set on different paths (QuickJS's JSValue after
; SROA: a path returning a number sets only the low half): on each edge at
; most one phi brings a capability, so the merges still count as one.
define ptr @union_half(ptr %p, ptr %r, i1 %c) {
entry:
  br i1 %c, label %ptr, label %num
ptr:
  %i = ptrtoint ptr %p to i64
  %lo = trunc i64 %i to i32
  %hi = and i64 %i, -4294967296
  br label %join
num:
  %j = ptrtoint ptr %r to i64
  %n = trunc i64 %j to i32
  br label %join
join:
  %h = phi i64 [ %hi, %ptr ], [ 0, %num ]
  %l = phi i32 [ %lo, %ptr ], [ %n, %num ]
  %lz = zext i32 %l to i64
  %u = or i64 %h, %lz
  %q = inttoptr i64 %u to ptr
  ret ptr %q
}

; The same shape with different pointers on the same edge: no single
; capability.
define ptr @union_two(ptr %p, ptr %r, i1 %c) {
entry:
  br i1 %c, label %ptr, label %int
ptr:
  %i = ptrtoint ptr %p to i64
  %j = ptrtoint ptr %r to i64
  %lo = trunc i64 %j to i32
  %hi = and i64 %i, -4294967296
  br label %join
int:
  br label %join
join:
  %h = phi i64 [ %hi, %ptr ], [ 0, %int ]
  %l = phi i32 [ %lo, %ptr ], [ 7, %int ]
  %lz = zext i32 %l to i64
  %u = or i64 %h, %lz
  %q = inttoptr i64 %u to ptr
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
    let s = inst(mask, "s");
    assert_eq!(
        r.cap(s),
        Cap::Definite(Origin::Merge(s)),
        "a call's 64-bit result brings the capability returned with it"
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
    let i = inst(loaded, "i");
    assert_eq!(
        infer(loaded).inttoptr_cap(inst(loaded, "q")),
        Cap::Definite(Origin::Loaded(i))
    );

    let either = f("either");
    let r = infer(either);
    let s = inst(either, "s");
    assert_eq!(
        r.inttoptr_cap(inst(either, "q")),
        Cap::Definite(Origin::Merge(s))
    );

    let union = f("union");
    let r = infer(union);
    assert_eq!(
        r.inttoptr_cap(inst(union, "q")),
        Cap::Definite(Origin::Merge(inst(union, "h"))),
        "two phis with the same capability on every edge are one origin"
    );

    let copy = f("copy");
    let r = infer(copy);
    let w = inst(copy, "w");
    assert_eq!(r.cap(w), Cap::Definite(Origin::Loaded(w)));
    let needed = r.needed_loads(copy);
    assert!(needed.contains(&w), "the copied word's capability is read");
    assert!(
        !needed.contains(&inst(copy, "n")),
        "a word only used in arithmetic needs no capability"
    );

    let union_half = f("union_half");
    assert_eq!(
        infer(union_half).inttoptr_cap(inst(union_half, "q")),
        Cap::Definite(Origin::Merge(inst(union_half, "h"))),
        "a capability on one side of an edge and none on the other is one origin"
    );

    let union_two = f("union_two");
    assert_eq!(
        infer(union_two).inttoptr_cap(inst(union_two, "q")),
        Cap::Top,
        "different pointers on one edge stay Top"
    );
}
