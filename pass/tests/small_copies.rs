//! Constant-length copies of up to 64 bytes in whole words are done as
//! word loads and stores (with the runtime call kept for unaligned
//! addresses); longer, odd-length and volatile copies call the runtime.

mod common;

use common::translate;

fn copy(len: u64, volatile: bool) -> String {
    format!(
        r#"declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
define void @f(ptr %d, ptr %s) {{
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %d, ptr align 8 %s, i64 {len}, i1 {volatile})
  ret void
}}
"#
    )
}

#[test]
fn short_word_copies_are_inline_with_the_runtime_for_unaligned_addresses() {
    let (stats, out) = translate(&copy(24, false));
    assert_eq!(stats.inline_copies, 1, "{out}");
    // Three words loaded with their capabilities and stored with theirs;
    // the runtime call stays for the unaligned case.
    assert_eq!(out.matches("load atomic ptr").count(), 3, "{out}");
    assert!(out.contains("call void @gimso_memmove_at"), "{out}");
}

#[test]
fn long_odd_and_volatile_copies_call_the_runtime() {
    for (len, volatile) in [(72, false), (20, false), (24, true)] {
        let (stats, out) = translate(&copy(len, volatile));
        assert_eq!(stats.inline_copies, 0, "{len} {volatile}: {out}");
        assert!(out.contains("call void @gimso_memmove_at"), "{out}");
    }
}
