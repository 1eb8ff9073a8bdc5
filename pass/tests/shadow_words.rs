//! Where pointer loads and stores find a capability's word: loads read it
//! at the distance the header records with no "has shadow words" test (an
//! object without any leads into the runtime's zero region), stores test
//! `FLAG_SHADOW`, and frame objects and globals defined in the module, born
//! with inline shadow words, need no header load at all.

mod common;

use gimso_abi::{FLAG_GLOBAL, FLAG_SHADOW, aux_with_delta};

/// The `and` of an aux word with `FLAG_SHADOW`, as printed.
fn flag_test() -> String {
    format!(", {FLAG_SHADOW}\n")
}

#[test]
fn loads_read_the_word_untested_and_stores_test_the_flag() {
    let ir = r#"
define i64 @follow(ptr %n) {
  %next = load ptr, ptr %n
  %v = load i64, ptr %next
  ret i64 %v
}
define void @link(ptr %n, ptr %m) {
  store ptr %m, ptr %n
  ret void
}
"#;
    let (_, out) = common::translate(ir);
    let follow = common::function(&out, "gimso.fd.follow.");
    assert!(follow.contains("load atomic i64, ptr"), "{follow}");
    // The word is read in the block that computes its address from the
    // header's distance: no branch between the two.
    let from_shift = &follow[follow.find("ashr i64").expect("distance from the header")..];
    let read = from_shift.find("acquire").expect("the word read");
    assert!(
        !from_shift[..read].contains("br "),
        "no test before the read: {follow}"
    );
    assert!(!follow.contains(&flag_test()), "{follow}");
    let link = common::function(&out, "gimso.fd.link.");
    assert!(link.contains(&flag_test()), "stores test the flag: {link}");
}

#[test]
fn globals_carry_inline_shadow_words_found_without_the_header() {
    let ir = r#"
@table = global [3 x ptr] zeroinitializer
@bytes = global [5 x i8] c"abcde"
define ptr @first() {
  %p = load ptr, ptr @table
  ret ptr %p
}
define void @set(ptr %v) {
  store ptr %v, ptr getelementptr (i8, ptr @table, i64 8)
  ret void
}
"#;
    let (_, out) = common::translate(ir);
    let def = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("@gimso.obj.{name} =")))
            .unwrap_or_else(|| panic!("no {name}: {out}"))
            .to_string()
    };
    // 24 payload bytes, then their 24 bytes of shadow words.
    let table = def("table");
    assert!(table.contains("[3 x ptr], [24 x i8] }>"), "{table}");
    let aux = aux_with_delta(FLAG_GLOBAL, 24);
    assert_ne!(aux & FLAG_SHADOW, 0);
    assert!(table.contains(&format!("i64 {aux},")), "{table}");
    // 5 bytes: 3 of padding to whole words, then one shadow word.
    let bytes = def("bytes");
    assert!(bytes.contains("[5 x i8], [11 x i8] }>"), "{bytes}");
    assert!(
        bytes.contains(&format!("i64 {},", aux_with_delta(FLAG_GLOBAL, 8))),
        "{bytes}"
    );
    // Neither the load nor the store reads the header's aux word (the
    // store's check needs no header either: the bounds are constants).
    for f in ["first", "set"] {
        let body = common::function(&out, &format!("gimso.fd.{f}."));
        assert!(!body.contains("ashr i64"), "{body}");
        assert!(!body.contains(&flag_test()), "{body}");
    }
    let first = common::function(&out, "gimso.fd.first.");
    assert!(first.contains("load atomic i64, ptr"), "{first}");
}
