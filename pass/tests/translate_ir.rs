//! The translation on hand-written IR: every output verifies, and the
//! originals are gone (only `gimso.*` symbols, runtime calls and `main`).

mod common;

use gimso_pass::parse_module;
use inkwell::context::Context;

/// A computed goto: a dispatch table of block addresses and `indirectbr`.
const COMPUTED_GOTO: &str = r#"
@t = internal global [2 x ptr] [ptr blockaddress(@f, %a), ptr blockaddress(@f, %b)]
define i32 @f(i32 %i) {
entry:
  %p = getelementptr [2 x ptr], ptr @t, i32 0, i32 %i
  %l = load ptr, ptr %p
  indirectbr ptr %l, [label %a, label %b]
a:
  ret i32 1
b:
  ret i32 2
}
"#;

fn translate(ir: &str) -> String {
    let (stats, out) = common::translate(ir);
    assert!(stats.functions > 0);
    out
}

#[test]
fn computed_goto_jumps_through_a_table_of_its_own_labels() {
    let out = translate(COMPUTED_GOTO);
    // The block numbers of the two destinations are ranks 1 and 2: a
    // range test, then a table of the two code addresses and the failure
    // block's (for the numbers in range that are no destination: none
    // here), then a real indirectbr.
    assert!(out.contains("icmp ult i64"), "{out}");
    assert!(
        out.contains("@gimso.indirectbr = private constant [2 x ptr]"),
        "{out}"
    );
    assert!(out.contains("indirectbr ptr"), "{out}");
    assert!(out.contains("gimso_indirectbr_failed"), "{out}");
    assert!(!out.contains("switch i64"), "{out}");
}

#[test]
fn computed_goto_through_a_constant_table_reads_code_addresses_alongside() {
    // `static const void *const t[]`: the load from @t keeps its bounds
    // check, and the jump reads the same element of a table of code
    // addresses instead of mapping the block number.
    let out = translate(&COMPUTED_GOTO.replace("internal global", "internal constant"));
    assert!(
        out.contains("@gimso.indirectbr = private constant [2 x ptr]"),
        "{out}"
    );
    assert!(out.contains("indirectbr ptr"), "{out}");
    assert!(!out.contains("icmp ult i64"), "{out}");
    assert!(out.contains("gimso_access_failed"), "{out}");
}

/// `GIMSO_TRANSLATE_FILE=x.ll cargo test -p gimso-pass --test translate_ir
/// file -- --nocapture` translates one file (debugging aid; a no-op
/// without the variable).
#[test]
fn file() {
    if let Ok(path) = std::env::var("GIMSO_TRANSLATE_FILE") {
        let ir = std::fs::read_to_string(path).expect("readable");
        let ctx = Context::create();
        let m = parse_module(&ctx, ir.as_bytes(), "t.ll").expect("parses");
        gimso_pass::optimize::front_half(&m, "2").expect("optimises");
        m.verify().expect("front half verifies");
        println!("{}", translate(&m.print_to_string().to_string()));
    }
}

/// Whether translated function `prefix` reads a shadow word (the
/// `acquire` load of a capability at rest).
fn reads_shadow_word(out: &str, prefix: &str) -> bool {
    let body = common::function(out, &format!("gimso.fd.{prefix}."));
    body.contains("load atomic i64, ptr") && body.contains("acquire")
}

#[test]
fn a_pointer_only_compared_or_jumped_to_is_loaded_without_its_capability() {
    let ir = &format!(
        r#"{COMPUTED_GOTO}define i1 @last(ptr %n) {{
  %next = load ptr, ptr %n
  %end = icmp eq ptr %next, null
  ret i1 %end
}}
define i64 @follow(ptr %n) {{
  %next = load ptr, ptr %n
  %v = load i64, ptr %next
  ret i64 %v
}}
"#
    );
    let (stats, out) = common::translate(ir);
    // The dispatch-table load and the `next == NULL` test need no
    // capability; the pointer that is dereferenced does.
    assert_eq!(stats.capless_loads, 2, "{out}");
    // A shadow word is read with an acquire load (the atomic-box protocol):
    // only in `follow`.
    assert!(!reads_shadow_word(&out, "last"), "{out}");
    assert!(reads_shadow_word(&out, "follow"), "{out}");
}

#[test]
fn a_pointer_only_subtracted_from_another_is_loaded_without_its_capability() {
    let ir = r#"
define i64 @room(ptr %l, ptr %base) {
  %topp = getelementptr i8, ptr %l, i64 16
  %top = load ptr, ptr %topp
  %a = ptrtoint ptr %top to i64
  %b = ptrtoint ptr %base to i64
  %d = sub i64 %a, %b
  ret i64 %d
}
define ptr @shifted(ptr %l) {
  %top = load ptr, ptr %l
  %a = ptrtoint ptr %top to i64
  %d = sub i64 %a, 16
  %p = inttoptr i64 %d to ptr
  ret ptr %p
}
"#;
    let (stats, out) = common::translate(ir);
    // `top - base` uses addresses only; `top - 16` turned back into a
    // pointer keeps top's capability (inttoptr inference), so its shadow
    // word is read.
    assert_eq!(stats.capless_loads, 1, "{out}");
    assert!(!reads_shadow_word(&out, "room"), "{out}");
    assert!(reads_shadow_word(&out, "shifted"), "{out}");
}

#[test]
fn a_pointer_only_compared_after_an_offset_is_loaded_without_its_capability() {
    let ir = r#"
define i1 @is_nil(ptr %l, ptr %o) {
  %gp = getelementptr i8, ptr %l, i64 24
  %g = load ptr, ptr %gp
  %nil = getelementptr i8, ptr %g, i64 80
  %same = icmp eq ptr %o, %nil
  ret i1 %same
}
define i64 @field(ptr %l) {
  %g = load ptr, ptr %l
  %f = getelementptr i8, ptr %g, i64 80
  %v = load i64, ptr %f
  ret i64 %v
}
define ptr @escapes(ptr %l, ptr %o) {
  %g = load ptr, ptr %l
  %nil = getelementptr i8, ptr %g, i64 80
  %same = icmp eq ptr %o, %nil
  %r = select i1 %same, ptr %o, ptr %nil
  ret ptr %r
}
"#;
    let (stats, out) = common::translate(ir);
    // `o == &G(L)->nilvalue` needs G(L)'s address alone; a field loaded
    // through the offset, or the offset pointer flowing on, needs the
    // capability.
    assert_eq!(stats.capless_loads, 1, "{out}");
    assert!(!reads_shadow_word(&out, "is_nil"), "{out}");
    assert!(reads_shadow_word(&out, "field"), "{out}");
    assert!(reads_shadow_word(&out, "escapes"), "{out}");
}

#[test]
fn an_integer_written_back_where_it_was_read_leaves_the_capability_at_rest() {
    let ir = r#"
define void @debit(ptr %g, i64 %n) {
  %p = getelementptr i8, ptr %g, i64 24
  %d = load i64, ptr %p
  %e = sub i64 %d, %n
  store i64 %e, ptr %p
  ret void
}
define void @copy(ptr %a, ptr %b) {
  %d = load i64, ptr %a
  store i64 %d, ptr %b
  ret void
}
"#;
    let (_, out) = common::translate(ir);
    // `g->debt -= n`: the word keeps the capability at rest in it, so
    // neither its shadow word is read nor a pointer store made; a word
    // copied elsewhere (a lowered memcpy) carries its capability along.
    let body = |prefix: &str| common::function(&out, &format!("gimso.fd.{prefix}."));
    let reads_shadow = |b: &str| b.contains("load atomic i64, ptr") && b.contains("acquire");
    let stores_cap = |b: &str| b.contains("gimso_store_ptr");
    assert!(!reads_shadow(body("debit")), "{out}");
    assert!(!stores_cap(body("debit")), "{out}");
    assert!(reads_shadow(body("copy")), "{out}");
    assert!(stores_cap(body("copy")), "{out}");
}

#[test]
fn storing_a_null_pointer_skips_the_barrier() {
    let ir = r#"
define void @clear(ptr %n) {
  store ptr null, ptr %n
  ret void
}
define void @link(ptr %n, ptr %m) {
  store ptr %m, ptr %n
  ret void
}
"#;
    let (_, out) = common::translate(ir);
    // A null needs no store barrier: the collector's marking flag is not
    // read; any other pointer's store looks at it.
    let body = |prefix: &str| common::function(&out, &format!("gimso.fd.{prefix}."));
    assert!(!body("clear").contains("gimso_gc_marking"), "{out}");
    assert!(!body("clear").contains("gimso_store_ptr"), "{out}");
    assert!(body("link").contains("gimso_gc_marking"), "{out}");
}

#[test]
fn cold_paths_call_their_preserve_most_entries() {
    let ir = r#"
define ptr @next(ptr %n) {
  %m = load ptr, ptr %n
  %o = getelementptr inbounds i8, ptr %n, i64 8
  store ptr %m, ptr %o
  ret ptr %m
}
"#;
    let (_, out) = common::translate(ir);
    // The pointer load's atomic-box path, the store's barrier path and the
    // safepoint's slow path are rarely taken: they go to the `_pm` entries
    // under preserve_most (declared and called so), never to the C ones.
    let body = common::function(&out, "gimso.fd.next.");
    for entry in [
        "call preserve_mostcc { ptr, ptr } @gimso_load_ptr_pm(",
        "call preserve_mostcc void @gimso_store_ptr_pm(",
    ] {
        assert!(body.contains(entry), "{entry} missing:\n{out}");
    }
    for decl in [
        "declare preserve_mostcc { ptr, ptr } @gimso_load_ptr_pm(",
        "declare preserve_mostcc void @gimso_store_ptr_pm(",
    ] {
        assert!(out.contains(decl), "{decl} missing:\n{out}");
    }
    assert!(!out.contains("@gimso_load_ptr("), "{out}");
    assert!(!out.contains("@gimso_store_ptr("), "{out}");
}
