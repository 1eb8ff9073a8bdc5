//! Where translated code polls the safepoint: at the entry of a function
//! that calls anything (every cycle of calls passes through one), and on
//! every back edge of a loop, in a block of its own between the latch and
//! the loop header.

mod common;

use common::{function, translate};

const POLL: &str = "@gimso_pollcheck_slow";

fn polls(body: &str) -> usize {
    body.lines().filter(|l| l.contains(POLL)).count()
}

#[test]
fn only_functions_that_call_poll_at_entry() {
    let (_, out) = translate(
        r#"declare void @g()
define i64 @leaf(i64 %x) {
  %y = mul i64 %x, 3
  ret i64 %y
}
define void @caller() {
  call void @g()
  ret void
}
declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)
define void @clears(ptr %p) {
  call void @llvm.memset.p0.i64(ptr %p, i8 0, i64 8, i1 false)
  ret void
}
"#,
    );
    // Calls nothing (an intrinsic runs no program code): no poll.
    assert_eq!(polls(function(&out, "gimso.fd.leaf")), 0, "{out}");
    assert_eq!(polls(function(&out, "gimso.fd.clears")), 0, "{out}");
    // May be on a cycle of calls: polls once, at its entry.
    assert_eq!(polls(function(&out, "gimso.fd.caller")), 1, "{out}");
}

#[test]
fn loops_poll_on_their_back_edges() {
    let (_, out) = translate(
        r#"define i64 @sum(ptr %p, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %s = phi i64 [ 0, %entry ], [ %s1, %loop ]
  %a = getelementptr inbounds i64, ptr %p, i64 %i
  %x = load i64, ptr %a
  %s1 = add i64 %s, %x
  %i1 = add i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %done
done:
  ret i64 %s1
}
"#,
    );
    let body = function(&out, "gimso.fd.sum");
    // A leaf with a loop: the back edge's poll is its only one.
    assert_eq!(polls(body), 1, "{body}");
    // The loop header (the block with the phis) starts with the access's
    // check, not with the poll; the phis' back-edge values come from the
    // block the poll joins into, not from the latch.
    let header = body
        .split("\n\n")
        .find(|b| b.contains("phi i64"))
        .expect("a loop header");
    assert!(!header.contains("load volatile"), "{body}");
    let label = |block: &str| {
        block
            .lines()
            .next()
            .unwrap()
            .split(':')
            .next()
            .unwrap()
            .to_string()
    };
    let phi = header.lines().find(|l| l.contains("phi i64")).unwrap();
    let back = phi
        .split("[ ")
        .nth(2)
        .and_then(|s| s.split(", %").nth(1))
        .map(|s| s.trim_end_matches(" ]").trim().to_string())
        .expect("a back-edge incoming block");
    let back_block = body
        .split("\n\n")
        .find(|b| label(b) == back)
        .unwrap_or_else(|| panic!("no block {back}: {body}"));
    // That block is reached from the poll: it is the poll's join, whose
    // only instruction is the branch back to the header.
    assert_eq!(back_block.lines().count(), 2, "{back_block}\n{body}");
    assert!(
        back_block.contains(&format!("br label %{}", label(header))),
        "{body}"
    );
}
