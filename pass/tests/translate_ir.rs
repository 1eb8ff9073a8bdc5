//! The translation on hand-written IR: every output verifies, and the
//! originals are gone (only `gimso.*` symbols, runtime calls and `main`).

mod common;

use gimso_pass::parse_module;
use inkwell::context::Context;

fn translate(ir: &str) -> String {
    let (stats, out) = common::translate(ir);
    assert!(stats.functions > 0);
    out
}

#[test]
fn computed_goto_becomes_a_switch() {
    let out = translate(
        r#"
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
"#,
    );
    assert!(out.contains("switch i64"), "{out}");
    assert!(out.contains("gimso_indirectbr_failed"), "{out}");
    assert!(!out.contains("indirectbr ptr"), "{out}");
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
