//! Checks implied by earlier ones on every path are left out or reduced to
//! one end of the object (pass/src/translate/function/checked.rs); calls
//! forget what was checked, loops that call nothing keep it.

mod common;

use common::{function, translate};

const DECLS: &str = r#"
%pair = type { i64, i64, i32 }
declare void @use(ptr)
"#;

#[test]
fn fields_of_one_struct_share_a_check() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p) {{
  %a = getelementptr inbounds %pair, ptr %p, i64 0, i32 0
  %b = getelementptr inbounds %pair, ptr %p, i64 0, i32 1
  %x = load i64, ptr %a
  %y = load i64, ptr %b
  %z = load i64, ptr %a
  %s = add i64 %x, %y
  %t = add i64 %s, %z
  ret i64 %t
}}
"#
    ));
    // The first load's check is widened to both fields (the second load
    // follows in the same block with no call between), so the others need
    // none.
    assert_eq!(stats.checks, 1, "{out}");
    assert_eq!(stats.widened_checks, 1, "{out}");
    assert_eq!(stats.narrowed_checks, 0, "{out}");
    assert_eq!(stats.merged_checks, 2, "{out}");
}

#[test]
fn a_lower_field_is_checked_against_the_lower_end() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p) {{
entry:
  %b = getelementptr inbounds i64, ptr %p, i64 1
  %a = getelementptr inbounds i64, ptr %p, i64 -1
  %y = load i64, ptr %b
  br label %next
next:
  %x = load i64, ptr %a
  %s = add i64 %x, %y
  ret i64 %s
}}
"#
    ));
    // (In another block: a check is only widened within its block.)
    assert_eq!((stats.checks, stats.narrowed_checks), (1, 1), "{out}");
    // The narrowed check compares the address with the capability's lower
    // end only: one `icmp uge` of two integers.
    assert!(out.contains("icmp uge i64 %"), "{out}");
}

#[test]
fn a_call_forgets_the_upper_end_only() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p) {{
  %x = load i64, ptr %p
  call void @use(ptr %p)
  %y = load i64, ptr %p
  %s = add i64 %x, %y
  ret i64 %s
}}
"#
    ));
    // `use` may free `p`: the second load compares with `upper` again,
    // but `p >= lower` still holds (two unchanged values) and `p`'s
    // capability is known not to be null (only the first check tests it).
    assert_eq!((stats.checks, stats.narrowed_checks), (1, 1), "{out}");
    assert_eq!(stats.merged_checks, 0, "{out}");
    assert_eq!(null_tests(&out), 1, "{out}");
    let lower_compares = body(&out).matches("icmp sge i64").count();
    assert_eq!(lower_compares, 1, "{out}");
}

#[test]
fn intrinsics_do_not_forget() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define i64 @f(ptr %p, ptr %q) {{
  %x = load i64, ptr %p
  call void @llvm.memset.p0.i64(ptr %q, i8 0, i64 200, i1 false)
  %y = load i64, ptr %p
  %s = add i64 %x, %y
  ret i64 %s
}}
"#
    ));
    assert_eq!((stats.checks, stats.merged_checks), (1, 1), "{out}");
}

#[test]
fn writes_test_read_only_once() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define void @f(ptr %p) {{
  %x = load i64, ptr %p
  store i64 1, ptr %p
  %b = getelementptr inbounds i64, ptr %p, i64 1
  store i64 2, ptr %b
  ret void
}}
"#
    ));
    // The load's check covers both stores' bounds; the first store still
    // tests the read-only flag (the load did not), the second nothing.
    assert_eq!(stats.checks, 1, "{out}");
    assert_eq!(stats.widened_checks, 1, "{out}");
    assert_eq!(stats.narrowed_checks, 1, "{out}");
    assert_eq!(stats.merged_checks, 1, "{out}");
    // The flag is tested as its byte of the header: the aux word's low
    // byte, eight below `lower`.
    assert_eq!(out.matches("i64 -8\n").count(), 1, "{out}");
    assert_eq!(out.matches(", 2\n").count(), 1, "{out}");
}

#[test]
fn paths_meet_on_what_both_checked() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p, i1 %c) {{
entry:
  %b = getelementptr inbounds i64, ptr %p, i64 1
  br i1 %c, label %then, label %else
then:
  %x = load i64, ptr %p
  %y = load i64, ptr %b
  %s = add i64 %x, %y
  br label %join
else:
  %z = load i64, ptr %b
  br label %join
join:
  %v = phi i64 [ %s, %then ], [ %z, %else ]
  %w = load i64, ptr %b
  %u = load i64, ptr %p
  %r = add i64 %v, %w
  %t = add i64 %r, %u
  ret i64 %t
}}
"#
    ));
    // then: one check widened to both loads; else: full; join: %b known
    // on both paths (left out), %p only on one (checked against the lower
    // end).
    assert_eq!(stats.checks, 2, "{out}");
    assert_eq!(stats.widened_checks, 1, "{out}");
    assert_eq!(stats.narrowed_checks, 1, "{out}");
    assert_eq!(stats.merged_checks, 2, "{out}");
}

#[test]
fn nothing_flows_around_a_loop() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p, i64 %n) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %a2, %loop ]
  %x = load i64, ptr %p
  %a2 = add i64 %acc, %x
  %j = add i64 %i, 1
  %more = icmp ult i64 %j, %n
  br i1 %more, label %loop, label %done
done:
  %y = load i64, ptr %p
  %r = add i64 %a2, %y
  ret i64 %r
}}
"#
    ));
    // The loop's load is checked in full (its back edge brings nothing);
    // the exit block follows the loop, where the load passed.
    assert_eq!((stats.checks, stats.merged_checks), (1, 1), "{out}");
}

/// `@f(p, q, n)`: loads `p` before a loop that loads it again on each of
/// `n` rounds, with `in_loop` as the rest of the loop's body.
fn reload_in_a_loop(in_loop: &str) -> String {
    format!(
        r#"{DECLS}
define i64 @f(ptr %p, ptr %q, i64 %n) {{
entry:
  %x = load i64, ptr %p
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  %acc = phi i64 [ %x, %entry ], [ %a2, %loop ]
  %y = load i64, ptr %p
  %a2 = add i64 %acc, %y
  {in_loop}
  %j = add i64 %i, 1
  %more = icmp ult i64 %j, %n
  br i1 %more, label %loop, label %done
done:
  ret i64 %a2
}}
"#
    )
}

#[test]
fn a_check_before_a_loop_that_calls_nothing_holds_in_it() {
    let (stats, out) = translate(&reload_in_a_loop(
        "%at = getelementptr inbounds i8, ptr %q, i64 %i\n  store i8 0, ptr %at",
    ));
    // Nothing in the loop can free `p`: the entry's check covers the
    // loop's load on every round. The store through `q` is checked in
    // full each time.
    assert_eq!((stats.checks, stats.merged_checks), (2, 1), "{out}");
    assert_eq!(stats.narrowed_checks, 0, "{out}");
}

#[test]
fn a_loop_that_calls_checks_again() {
    let (stats, out) = translate(&reload_in_a_loop("call void @use(ptr %p)"));
    // `use` may free `p` in one round; the next round's load compares
    // with `upper` again (its lower end and non-null capability last).
    assert_eq!((stats.checks, stats.narrowed_checks), (1, 1), "{out}");
    assert_eq!(stats.merged_checks, 0, "{out}");
}

#[test]
fn a_full_check_compares_with_both_ends() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p, i64 %i, i64 %j) {{
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  %b = getelementptr inbounds i64, ptr %p, i64 %j
  %x = load i64, ptr %a
  %y = load i64, ptr %b
  %s = add i64 %x, %y
  ret i64 %s
}}
"#
    ));
    // Two roots, two full checks, each `addr >= lower` (signed) and a
    // compare with `upper`; only the first tests the capability for null.
    // That test may fold into the header load (`make.implicit`), so its
    // upper end is `addr < upper - 7`, which does not compute from the
    // address before the load; the second is `addr + 8 <= upper`.
    assert_eq!(stats.checks, 2, "{out}");
    let body = body(&out);
    let count = |pat: &str| body.lines().filter(|l| l.contains(pat)).count();
    assert_eq!(count("icmp sge i64"), 2, "{out}");
    assert_eq!(count("icmp ule i64"), 1, "{out}");
    assert_eq!(count("icmp ult i64"), 1, "{out}");
    assert_eq!(count("!make.implicit"), 1, "{out}");
    let ends = body
        .lines()
        .filter(|l| l.contains("= add i64 %") && l.ends_with(", 8"))
        .count();
    assert_eq!(ends, 1, "{out}");
    let lasts = body
        .lines()
        .filter(|l| l.contains("= sub i64 %") && l.ends_with(", 7"))
        .count();
    assert_eq!(lasts, 1, "{out}");
    assert_eq!(null_tests(&out), 1, "{out}");
}

/// The translated body of `f` (its direct entry).
fn body(out: &str) -> &str {
    let at = out
        .lines()
        .find(|l| l.starts_with("define") && l.contains("@gimso.fd.f."))
        .and_then(|l| out.find(l))
        .expect("a direct body");
    let start = out[at..].find('{').map_or(at, |b| at + b);
    let end = out[start..].find("\n}").map_or(out.len(), |e| start + e);
    &out[start..end]
}

/// How many pointers `f` tests for null (capabilities, before reading a
/// header): `icmp ne` with 0 of a `ptrtoint`.
fn null_tests(out: &str) -> usize {
    let body = body(out);
    let ints: Vec<&str> = body
        .lines()
        .filter(|l| l.contains("= ptrtoint ptr"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    body.lines()
        .filter(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.len() == 7
                && w[2..5] == ["icmp", "ne", "i64"]
                && w[6] == "0"
                && ints.contains(&w[5].trim_end_matches(','))
        })
        .count()
}

#[test]
fn a_check_covers_the_later_accesses_of_its_stretch() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p) {{
  %c = getelementptr inbounds i64, ptr %p, i64 2
  %b = getelementptr inbounds i64, ptr %p, i64 1
  %x = load i64, ptr %p
  store i64 5, ptr %c
  %y = load i64, ptr %b
  %s = add i64 %x, %y
  ret i64 %s
}}
"#
    ));
    // One check of p[0..3) before the first load; the store and the second
    // load need no bounds check (the store still tests read-only).
    assert_eq!((stats.checks, stats.widened_checks), (1, 1), "{out}");
    assert_eq!(stats.merged_checks, 1, "{out}");
    // Its failure path rechecks the three accesses in program order (the
    // first failing one is reported, with its own size and location)
    // before the catch-all report.
    let rechecks: Vec<&str> = out
        .lines()
        .filter(|l| l.contains("call preserve_mostcc void @gimso_access_recheck_pm("))
        .collect();
    assert_eq!(rechecks.len(), 3, "{out}");
    assert!(rechecks[0].contains("i64 8, i32 1"), "{}", rechecks[0]);
    assert!(rechecks[1].contains("i64 8, i32 2"), "{}", rechecks[1]);
    assert!(rechecks[2].contains("i64 8, i32 1"), "{}", rechecks[2]);
}

#[test]
fn a_call_ends_the_stretch() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p) {{
  %b = getelementptr inbounds i64, ptr %p, i64 1
  %x = load i64, ptr %p
  call void @use(ptr %p)
  %y = load i64, ptr %b
  %s = add i64 %x, %y
  ret i64 %s
}}
"#
    ));
    // `use` may free p or never return: the first check covers only its
    // own load; the second compares with upper only.
    assert_eq!((stats.checks, stats.widened_checks), (1, 0), "{out}");
    assert_eq!(stats.narrowed_checks, 1, "{out}");
    assert!(!out.contains("gimso_access_recheck"), "{out}");
}

#[test]
fn fields_of_one_array_element_share_a_root() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p, i64 %i) {{
  %e = getelementptr inbounds %pair, ptr %p, i64 %i
  %b = getelementptr inbounds %pair, ptr %p, i64 %i, i32 1
  %c = getelementptr inbounds %pair, ptr %p, i64 %i, i32 2
  %x = load i64, ptr %e
  %y = load i64, ptr %b
  %z = load i32, ptr %c
  %w = zext i32 %z to i64
  %s = add i64 %x, %y
  %t = add i64 %s, %w
  ret i64 %t
}}
"#
    ));
    // `&p[i]`, `&p[i].b` and `&p[i].c` are one element plus constants: the
    // first load's check covers all three fields.
    assert_eq!((stats.checks, stats.widened_checks), (1, 1), "{out}");
    assert_eq!(stats.merged_checks, 2, "{out}");
}

#[test]
fn a_global_defined_here_is_checked_against_constants() {
    let (stats, out) = translate(
        r#"
@g = internal global [16 x i64] zeroinitializer
define i32 @f(i64 %i) {
  %p = getelementptr [16 x i64], ptr @g, i64 0, i64 %i
  %x = load i64, ptr %p
  %y = trunc i64 %x to i32
  ret i32 %y
}
"#,
    );
    // (An i32 result: a returned i64 carries the capability of the word it
    // was loaded from, whose shadow read would add its own compares.)
    // A variable index needs a check, but the global's bounds are
    // constants: no header word is loaded, and the check is one unsigned
    // compare of the offset (below the start wraps to a huge offset).
    assert_eq!(stats.checks, 1, "{out}");
    let body = common::function(&out, "gimso.fd.f.");
    assert!(!body.contains("!alias.scope"), "{body}");
    let bounds: Vec<&str> = body
        .lines()
        .filter(|l| l.contains("icmp") && !l.contains("icmp eq i64 %3, 0"))
        .collect();
    assert_eq!(bounds.len(), 1, "{body}");
    assert!(bounds[0].contains("icmp ule i64"), "{body}");
    assert!(bounds[0].ends_with(", 120"), "{body}");
}

#[test]
fn null_and_alignment_tests_last_across_calls_and_into_loops() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p, i64 %n) {{
entry:
  %x = load ptr, ptr %p
  call void @use(ptr %p)
  %y = load ptr, ptr %p
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  %z = load ptr, ptr %p
  call void @use(ptr %z)
  %j = add i64 %i, 1
  %c = icmp ult i64 %j, %n
  br i1 %c, label %loop, label %exit
exit:
  %a = ptrtoint ptr %x to i64
  %b = ptrtoint ptr %y to i64
  %s = add i64 %a, %b
  ret i64 %s
}}
"#
    ));
    // Each load after a call compares with `upper` again (the call may
    // free `p`), but the capability stays non-null, `p` 8-aligned and at
    // or above `lower`: the first check dominates the other two, in the
    // loop as well.
    assert_eq!((stats.checks, stats.narrowed_checks), (1, 2), "{out}");
    assert_eq!(null_tests(&out), 1, "{out}");
    let body = body(&out);
    let align_tests = body
        .lines()
        .filter(|l| l.contains("= and i64 %") && l.ends_with(", 7"))
        .count();
    assert_eq!(align_tests, 1, "{out}");
}

#[test]
fn an_escaping_local_is_checked_against_its_constant_size() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i32 @f(i64 %i) {{
  %a = alloca [6 x i32]
  call void @use(ptr %a)
  %p = getelementptr [6 x i32], ptr %a, i64 0, i64 %i
  %x = load i32, ptr %p
  ret i32 %x
}}
"#
    ));
    // The local escapes (a stack object), but its 24 bytes never change:
    // the indexed read is one unsigned compare of its offset with 24 - 4,
    // with no null test and no header load.
    assert_eq!(stats.checks, 1, "{out}");
    let body = body(&out);
    let bounds: Vec<&str> = body
        .lines()
        .filter(|l| l.contains("icmp ule") || l.contains("icmp sge"))
        .collect();
    assert_eq!(bounds.len(), 1, "{body}");
    assert!(bounds[0].ends_with(", 20"), "{body}");
    assert_eq!(null_tests(&out), 0, "{out}");
    // (The header's address may be computed, unused; it is never loaded.)
    let headers: Vec<&str> = body
        .lines()
        .filter(|l| l.ends_with("i64 -16"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for h in headers {
        assert!(!body.contains(&format!("ptr {h},")), "{body}");
        assert!(!body.contains(&format!("ptr {h}\n")), "{body}");
    }
}

#[test]
fn a_non_negative_index_from_a_checked_root_compares_with_upper_only() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p, i8 %i, i64 %j) {{
  %x = load i64, ptr %p
  call void @use(ptr %p)
  %k = zext i8 %i to i64
  %q = getelementptr i64, ptr %p, i64 %k
  %y = load i64, ptr %q
  %r = getelementptr i64, ptr %p, i64 %j
  %z = load i64, ptr %r
  %s = add i64 %x, %y
  %t = add i64 %s, %z
  ret i64 %t
}}
"#
    ));
    // `p[0]` passed, so `p >= lower` (even after the call); `p[zext i]` is
    // at or above it and compares with `upper` only. `p[j]` may be below
    // `p`: a full check.
    assert_eq!((stats.checks, stats.narrowed_checks), (2, 1), "{out}");
    assert_eq!(body(&out).matches("icmp sge i64").count(), 2, "{out}");
}

#[test]
fn alignment_is_tested_first_and_on_its_own_branch() {
    let (_, out) = translate(&format!(
        r#"{DECLS}
define ptr @f(ptr %p) {{
  %v = load ptr, ptr %p
  ret ptr %v
}}
"#
    ));
    // The alignment test ends the block it is computed in (so the code
    // generator makes it one `test` of the low byte), ahead of the null
    // test and the bounds.
    let start = out
        .match_indices("define ")
        .map(|(i, _)| i)
        .find(|&i| {
            out[i..]
                .lines()
                .next()
                .is_some_and(|l| l.contains("@gimso.fd.f"))
        })
        .expect("the body");
    let body = &out[start..];
    let body = &body[..body.find("\n}").expect("its end")];
    let mask = body.find(", 7\n").expect("an alignment mask");
    let null = body.find("icmp ne i64").expect("a null test");
    assert!(mask < null, "{out}");
    let after = &body[mask..];
    let line_end = |s: &str, from: usize| s[from..].find('\n').map_or(s.len(), |i| from + i);
    let next = line_end(after, line_end(after, 0) + 1);
    assert!(after[..next].contains("icmp eq i64"), "{out}");
    assert!(after[next..].trim_start().starts_with("br i1"), "{out}");
}

#[test]
fn a_loop_invariant_base_is_compared_with_upper_less_the_size() {
    let (stats, out) = translate(&format!(
        r#"{DECLS}
define i64 @f(ptr %p, i64 %n) {{
entry:
  %first = load i64, ptr %p
  br label %loop
loop:
  %i = phi i64 [ 1, %entry ], [ %i1, %loop ]
  %s = phi i64 [ %first, %entry ], [ %s1, %loop ]
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  %x = load i64, ptr %a
  %s1 = add i64 %s, %x
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i64 %s1
}}
"#
    ));
    // The loop's load (its capability known non-null from the first) is
    // based on an argument: its upper end is `addr < upper - 7`, whose
    // subtraction the optimiser makes once before the loop, not
    // `addr + 8 <= upper` on every iteration.
    assert_eq!(stats.checks, 2, "{out}");
    let body = body(&out);
    let ends = body
        .lines()
        .filter(|l| l.contains("= add i64 %") && l.ends_with(", 8"))
        .count();
    assert_eq!(ends, 0, "{out}");
    let lasts = body
        .lines()
        .filter(|l| l.contains("= sub i64 %") && l.ends_with(", 7"))
        .count();
    assert_eq!(lasts, 2, "{out}");
}

#[test]
fn stores_to_a_stack_object_need_no_read_only_test() {
    let (_, out) = translate(&format!(
        r#"{DECLS}
define void @f(ptr %p, ptr %q) {{
  %a = alloca [4 x i64]
  store ptr %a, ptr %q
  call void @use(ptr %q)
  %e = getelementptr inbounds [4 x i64], ptr %a, i64 0, i64 2
  store i64 1, ptr %e
  store i64 2, ptr %p
  ret void
}}
"#
    ));
    // The array (its address stored in memory) is an object of this frame,
    // never read-only; the arguments may point into read-only globals: one
    // flag test each.
    let body = body(&out);
    let flag_tests = body
        .lines()
        .filter(|l| l.contains("= and i8 ") && l.ends_with(", 2"))
        .count();
    assert_eq!(flag_tests, 2, "{out}");
}

/// `f(%i)` loading `@tab[%idx]`, a table defined in another module, with
/// `%idx` computed from `%i` (of type `param`) by `index`: its full and
/// narrowed check counts and the direct body's text.
fn extern_table_load(param: &str, index: &str) -> ((usize, usize), String) {
    let (stats, out) = translate(&format!(
        r#"
@tab = external global [256 x i32]
define i32 @f({param} %i) {{
{index}
  %p = getelementptr inbounds [256 x i32], ptr @tab, i64 0, i64 %idx
  %v = load i32, ptr %p
  ret i32 %v
}}
"#
    ));
    let body = function(&out, "gimso.fd.f").to_string();
    ((stats.checks, stats.narrowed_checks), body)
}

#[test]
fn a_global_indexed_from_its_start_is_checked_against_its_upper_end_only() {
    let (counts, body) =
        extern_table_load("i32", "  %m = and i32 %i, 255\n  %idx = zext i32 %m to i64");
    // Defined elsewhere, so its size is read from its header; but its
    // capability is its payload address (a constant, never null) and a
    // non-negative index cannot go below it.
    assert_eq!(counts, (0, 1), "{body}");
    assert!(!body.contains("icmp ne"), "no null test: {body}");
    assert!(!body.contains("icmp sge"), "no lower compare: {body}");
}

#[test]
fn a_global_indexed_by_a_signed_value_keeps_its_lower_compare() {
    let (counts, body) = extern_table_load("i64", "  %idx = add i64 %i, 0");
    assert_eq!(counts, (1, 0), "{body}");
    assert!(body.contains("icmp sge"), "{body}");
    // Still no null test: the capability is a constant.
    assert!(!body.contains("icmp ne"), "{body}");
}
