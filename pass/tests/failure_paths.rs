//! Failure paths handed to code generation (`gimso_pass::failure_paths`):
//! reports end in one self-loop per function instead of `unreachable`, the
//! reporting functions lose `noreturn` and `cold`, and branches into
//! failure paths say in branch weights what the `unreachable` said. That
//! the reports still end the program is `tests/c/` (every misuse test).

use gimso_pass::failure_paths::spin_failure_paths;
use gimso_pass::parse_module;
use inkwell::context::Context;

const REPORTS: &[&str] = &["gimso_access_failed", "gimso_unreachable"];

const IR: &str = r#"
declare void @gimso_access_failed(ptr, ptr, i64, i32, ptr) #0
declare void @gimso_unreachable(ptr) #0
declare void @abort() #1

define i64 @walk(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %cont ]
  %ok = icmp ult i64 %i, %n
  br i1 %ok, label %cont, label %fail
fail:
  call void @gimso_access_failed(ptr %p, ptr %p, i64 8, i32 1, ptr null)
  unreachable
cont:
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, 100
  br i1 %more, label %loop, label %either, !prof !0
either:
  %odd = trunc i64 %next to i1
  br i1 %odd, label %fail2, label %fail3
fail2:
  call void @gimso_unreachable(ptr null)
  unreachable
fail3:
  call void @gimso_access_failed(ptr %p, ptr %p, i64 1, i32 1, ptr null)
  unreachable
}

define i64 @choose(i64 %k, ptr %p) {
entry:
  switch i64 %k, label %bad [ i64 1, label %one
                              i64 2, label %two ]
one:
  ret i64 1
two:
  %c = icmp eq ptr %p, null
  br i1 %c, label %user, label %done
user:
  call void @abort()
  unreachable
done:
  ret i64 2
bad:
  call void @gimso_access_failed(ptr %p, ptr %p, i64 4, i32 1, ptr null)
  unreachable
}

define i64 @plain(i64 %x) {
  ret i64 %x
}

attributes #0 = { cold noreturn nounwind }
attributes #1 = { noreturn nounwind }
!0 = !{!"branch_weights", i32 7, i32 3}
"#;

fn rewritten() -> (String, usize) {
    let ctx = Context::create();
    let m = parse_module(&ctx, IR.as_bytes(), "failure_paths.ll").expect("test IR parses");
    let n = spin_failure_paths(&m, REPORTS);
    m.verify().expect("the rewritten module verifies");
    (m.print_to_string().to_string(), n)
}

/// The text of block `label` of function `f`.
fn block<'a>(ir: &'a str, f: &str, label: &str) -> &'a str {
    let start = ir.find(&format!("@{f}(")).expect("function present");
    let body = &ir[start..];
    let body = &body[..body.find("\n}").expect("function end")];
    let at = body
        .find(&format!("\n{label}:"))
        .unwrap_or_else(|| panic!("block {label} in {f}:\n{body}"));
    let rest = &body[at + 1..];
    &rest[..rest.find("\n\n").unwrap_or(rest.len())]
}

#[test]
fn reports_end_in_one_self_loop_per_function() {
    let (ir, n) = rewritten();
    assert_eq!(n, 4, "four reports rewritten:\n{ir}");
    for (f, b) in [
        ("walk", "fail"),
        ("walk", "fail2"),
        ("walk", "fail3"),
        ("choose", "bad"),
    ] {
        let text = block(&ir, f, b);
        assert!(text.ends_with("br label %gimso.spin"), "{f}/{b}:\n{text}");
        assert!(
            !text.lines().any(|l| l.trim() == "unreachable"),
            "{f}/{b}:\n{text}"
        );
    }
    for f in ["walk", "choose"] {
        let spin = block(&ir, f, "gimso.spin");
        assert!(spin.contains("br label %gimso.spin"), "{f}:\n{spin}");
    }
    // No report in `plain`: no spin block added.
    let plain = &ir[ir.find("@plain(").unwrap()..];
    assert!(!plain[..plain.find("\n}").unwrap()].contains("gimso.spin"));
    // A program's own `unreachable` after its own noreturn call stays.
    let user = block(&ir, "choose", "user");
    assert!(user.ends_with("unreachable"), "{user}");
}

#[test]
fn reporting_functions_lose_noreturn_and_cold_others_keep_them() {
    let (ir, _) = rewritten();
    let decl = |name: &str| {
        let line = ir
            .lines()
            .find(|l| l.starts_with("declare") && l.contains(&format!("@{name}(")))
            .expect("declaration");
        // The attribute group the declaration refers to.
        let group = line.rsplit('#').next().unwrap().trim().to_owned();
        ir.lines()
            .find(|l| l.starts_with(&format!("attributes #{group} ")))
            .unwrap_or("")
            .to_owned()
    };
    for name in REPORTS {
        let attrs = decl(name);
        assert!(
            !attrs.contains("noreturn") && !attrs.contains("cold"),
            "{name}: {attrs}"
        );
    }
    assert!(decl("abort").contains("noreturn"), "{}", decl("abort"));
}

#[test]
fn branches_into_failure_paths_get_weights_and_existing_weights_stay() {
    let (ir, _) = rewritten();
    let prof_of = |line: &str| -> String {
        let id = line.split("!prof ").nth(1).expect("branch weights").trim();
        ir.lines()
            .find(|l| l.starts_with(&format!("{id} = ")))
            .expect("metadata node")
            .to_owned()
    };
    // The loop's bounds check: the usual edge first, as the branch has it.
    let check = block(&ir, "walk", "loop")
        .lines()
        .last()
        .unwrap()
        .to_owned();
    assert!(check.contains("label %cont, label %fail"), "{check}");
    assert!(
        prof_of(&check).contains("i32 1048575, i32 1"),
        "{}",
        prof_of(&check)
    );
    // The program's own weights are kept.
    let latch = block(&ir, "walk", "cont")
        .lines()
        .last()
        .unwrap()
        .to_owned();
    assert!(
        prof_of(&latch).contains("i32 7, i32 3"),
        "{}",
        prof_of(&latch)
    );
    // A block whose every successor fails is itself a failure path: it
    // gets no weights, and the edges into it are what it would have.
    let either = block(&ir, "walk", "either")
        .lines()
        .last()
        .unwrap()
        .to_owned();
    assert!(!either.contains("!prof"), "{either}");
    // A switch: the default (first successor) fails, the cases do not.
    let sw = block(&ir, "choose", "entry");
    let sw_line = sw
        .lines()
        .find(|l| l.contains("!prof"))
        .expect("switch weighted");
    assert!(
        prof_of(sw_line).contains("i32 1, i32 1048575, i32 1048575"),
        "{}",
        prof_of(sw_line)
    );
    // The program's own `unreachable` is not a failure path of ours.
    let two = block(&ir, "choose", "two")
        .lines()
        .last()
        .unwrap()
        .to_owned();
    assert!(!two.contains("!prof"), "{two}");
}
