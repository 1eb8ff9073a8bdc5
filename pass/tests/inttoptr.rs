//! The `inttoptr` capability inference on the spec's examples.

use gimso_pass::inttoptr::{Cap, Origin, infer};
use gimso_pass::llvm::{Func, Value};
use gimso_pass::parse_module;
use inkwell::context::Context;

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

fn inst<'m>(f: Func<'m>, name: &str) -> Value<'m> {
    f.instructions()
        .into_iter()
        .find(|i| i.name() == name)
        .unwrap_or_else(|| panic!("no %{name}"))
}

fn param(f: Func<'_>, i: u32) -> Value<'_> {
    f.param(i)
}

#[test]
fn inferred_capabilities_follow_the_spec() {
    let ctx = Context::create();
    let m = parse_module(&ctx, IR.as_bytes(), "inttoptr.ll").expect("fixture parses");
    let f = |name: &str| Func::of(m.get_function(name).unwrap());

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

const CALLS: &str = r#"
; Only the second word is looked at, as a number (a tag test).
define i32 @tag_only(i64 %v, i64 %t) {
entry:
  %c = icmp eq i64 %t, 7
  %r = zext i1 %c to i32
  ret i32 %r
}

define i32 @deref(i64 %v) {
entry:
  %p = inttoptr i64 %v to ptr
  %x = load i32, ptr %p
  ret i32 %x
}

; Hands its words on: what it consumes is what its callees consume.
define i32 @forward(i64 %a, i64 %b) {
entry:
  %x = call i32 @tag_only(i64 %a, i64 %b)
  %y = call i32 @deref(i64 %b)
  %s = add i32 %x, %y
  ret i32 %s
}

; Recursion: %x reaches an inttoptr at the bottom, %n never does.
define i32 @recur(i64 %x, i64 %n) {
entry:
  %z = icmp eq i64 %n, 0
  br i1 %z, label %base, label %step
base:
  %p = inttoptr i64 %x to ptr
  %v = load i32, ptr %p
  ret i32 %v
step:
  %m = sub i64 %n, 1
  %r = call i32 @recur(i64 %x, i64 %m)
  ret i32 %r
}

declare void @opaque(i64)

; A call of code the module does not hold consumes whatever it is passed.
define void @escape(i64 %v, i64 %w) {
entry:
  call void @opaque(i64 %w)
  ret void
}

define i32 @caller(ptr %pp) {
entry:
  %w1 = load i64, ptr %pp
  %q = getelementptr i8, ptr %pp, i64 8
  %w2 = load i64, ptr %q
  %r = call i32 @forward(i64 %w1, i64 %w2)
  ret i32 %r
}
"#;

#[test]
fn callers_read_only_the_capabilities_their_callees_consume() {
    use gimso_pass::inttoptr::param_cap_demands;
    use std::collections::{HashMap, HashSet};

    let ctx = Context::create();
    let m = parse_module(&ctx, CALLS.as_bytes(), "calls.ll").expect("fixture parses");
    let bodies: HashMap<_, _> = m
        .get_functions()
        .map(Func::of)
        .filter(|f| f.count_blocks() > 0)
        .map(|f| (f, infer(f)))
        .collect();
    fn callee(call: Value<'_>) -> Option<Func<'_>> {
        if !call.is_call_base() {
            return None;
        }
        call.called_value()
            .as_func()
            .filter(|g| g.count_blocks() > 0)
    }
    let used = param_cap_demands(&bodies, &callee);
    let f = |name: &str| Func::of(m.get_function(name).unwrap());
    let set = |name: &str| {
        let mut v: Vec<u32> = used[&f(name)].iter().copied().collect();
        v.sort();
        v
    };
    assert_eq!(
        set("tag_only"),
        Vec::<u32>::new(),
        "a tag test needs no capability"
    );
    assert_eq!(set("deref"), vec![0]);
    assert_eq!(set("forward"), vec![1], "only the word passed on to @deref");
    assert_eq!(
        set("recur"),
        vec![0],
        "the fixpoint goes round the recursion"
    );
    assert_eq!(set("escape"), vec![1], "unknown code consumes what it gets");

    // The caller reads the capability of the word @forward consumes only.
    let caller = f("caller");
    let needed: HashSet<_> = bodies[&caller]
        .demands(caller, &|call, k| {
            callee(call).is_none_or(|g| used[&g].contains(&k))
        })
        .loads;
    assert!(needed.contains(&inst(caller, "w2")));
    assert!(
        !needed.contains(&inst(caller, "w1")),
        "the tag-only word is read without its capability"
    );
    assert_eq!(
        bodies[&caller].needed_loads(caller).len(),
        2,
        "without the callee sets both words would be read with capabilities"
    );
}
