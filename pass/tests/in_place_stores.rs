//! A pointer store of the capability read from the same slot, with nothing
//! written in between (`L->top++`), stores the intval alone (the full store
//! only if the read found the slot in atomic mode); any store or call
//! between the read and the store makes it a full store (function.rs
//! `store_ptr_in_place`).

mod common;

use common::translate;

#[test]
fn an_increment_of_a_pointer_field_is_in_place() {
    let (stats, out) = translate(
        r#"
define void @push(ptr %l) {
  %top = load ptr, ptr %l, align 8
  %next = getelementptr inbounds i8, ptr %top, i64 16
  store ptr %next, ptr %l, align 8
  ret void
}
"#,
    );
    assert_eq!(stats.in_place_stores, 1, "{out}");
    // The usual path stores the intval before the aux word is read again
    // for the shadow word's address (the load makes the first `ashr`),
    // which only the atomic-mode path (the full store) does.
    assert!(first_store_before_second_shadow_address(&out), "{out}");
}

#[test]
fn a_store_between_the_read_and_the_write_back_makes_it_a_full_store() {
    // `saved = s->top; s->top = other; s->top = saved;`: the restore must
    // put `saved`'s capability back in the shadow word.
    let (stats, out) = translate(
        r#"
define void @restore(ptr %s, ptr %other) {
  %saved = load ptr, ptr %s, align 8
  store ptr %other, ptr %s, align 8
  store ptr %saved, ptr %s, align 8
  ret void
}
"#,
    );
    assert_eq!(stats.in_place_stores, 0, "{out}");
    assert!(!first_store_before_second_shadow_address(&out), "{out}");
}

#[test]
fn a_call_between_the_read_and_the_write_back_makes_it_a_full_store() {
    let (stats, out) = translate(
        r#"
declare void @touch(ptr)
define void @around(ptr %s) {
  %saved = load ptr, ptr %s, align 8
  call void @touch(ptr %s)
  store ptr %saved, ptr %s, align 8
  ret void
}
"#,
    );
    assert_eq!(stats.in_place_stores, 0, "{out}");
}

#[test]
fn a_store_to_another_slot_is_not_in_place() {
    let (stats, out) = translate(
        r#"
define void @copy(ptr %s) {
  %p = load ptr, ptr %s, align 8
  %t = getelementptr inbounds i8, ptr %s, i64 8
  store ptr %p, ptr %t, align 8
  ret void
}
"#,
    );
    assert_eq!(stats.in_place_stores, 0, "{out}");
}

/// Whether the first pointer store of the direct body comes before its
/// second shadow-word address (`ashr` of an aux word; the load makes the
/// first).
fn first_store_before_second_shadow_address(out: &str) -> bool {
    let body = &out[out
        .find("define { i64 } @gimso.fd.")
        .expect("a direct body")..];
    let store = body.find("store atomic ptr %").expect("a pointer store");
    let second = body
        .match_indices(" = ashr i64 ")
        .nth(1)
        .expect("two shadow-word addresses")
        .0;
    store < second
}
