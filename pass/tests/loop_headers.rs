//! Object headers read once per loop: a loop polls the safepoint on its
//! back edge, and the poll's runtime call (its slow path) is marked as not
//! touching object headers (`!noalias` with the header scope), so header
//! loads of a loop's checks are not repeated on every iteration when the
//! same header was read before the loop. Without the mark the call
//! clobbers them and every iteration reloads them.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::succeed;

const GIMSO_CC: &str = env!("CARGO_BIN_EXE_gimso-cc");

/// A loop over two arrays whose first elements were accessed before it
/// (so their capabilities are known non-null and their headers read);
/// nothing in the loop frees or resizes them: the store into `out` is a
/// program access (outside the header scope).
const LOOP: &str = "long scale(long *out, const int *in, long n, int k) {\n\
  long first = in[0];\n\
  out[0] = first;\n\
  for (long i = 1; i < n; i++) out[i] = (long)in[i] * k;\n\
  return first;\n\
}\n";

fn optimised_ir(name: &str, source: &str) -> String {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("loop_headers");
    fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.c"));
    fs::write(&src, source).unwrap();
    let ir = succeed(
        Command::new(GIMSO_CC)
            .args([
                "-O2",
                "-fno-vectorize",
                "-fno-unroll-loops",
                "-S",
                "-emit-llvm",
            ])
            .arg(&src)
            .args(["-o", "-"])
            .env_remove("GIMSO_KEEP_TEMPS"),
        "gimso-cc",
    );
    // `-emit-llvm` gives the translation before the in-process clean-up;
    // run the clean-up the object path runs.
    let ll = dir.join(format!("{name}.ll"));
    fs::write(&ll, ir).unwrap();
    let opt = succeed(
        Command::new("opt-16")
            .arg("-S")
            .arg(format!("-passes={}", gimso_pass::backend::CLEANUP_PIPELINE))
            .arg(&ll),
        "opt-16 (package llvm-16)",
    );
    String::from_utf8(opt).unwrap()
}

/// The blocks of the first function whose name starts with `prefix`: label
/// to (instruction lines, successor labels).
fn blocks(ir: &str, prefix: &str) -> HashMap<String, (Vec<String>, Vec<String>)> {
    let start = ir
        .lines()
        .position(|l| l.starts_with("define") && l.contains(prefix))
        .unwrap_or_else(|| panic!("no function {prefix} in\n{ir}"));
    let mut out = HashMap::new();
    let mut label = "entry".to_string();
    for line in ir.lines().skip(start + 1).take_while(|l| *l != "}") {
        if !line.starts_with(' ') && line.contains(':') {
            label = line.split(':').next().unwrap().trim().to_string();
            continue;
        }
        let entry = out
            .entry(label.clone())
            .or_insert_with(|| (Vec::new(), Vec::new()));
        entry.0.push(line.to_string());
        if line.trim_start().starts_with("br ") || line.trim_start().starts_with("switch ") {
            for part in line.split("label %").skip(1) {
                let succ: String = part
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '.' || *c == '_')
                    .collect();
                entry.1.push(succ);
            }
        }
    }
    out
}

/// Labels of blocks on a cycle (a block that reaches itself).
fn loop_blocks(blocks: &HashMap<String, (Vec<String>, Vec<String>)>) -> HashSet<String> {
    let reaches_itself = |b: &String| {
        let mut seen = HashSet::new();
        let mut work: Vec<&String> = blocks[b].1.iter().collect();
        while let Some(s) = work.pop() {
            if s == b {
                return true;
            }
            if seen.insert(s.clone()) {
                if let Some((_, succ)) = blocks.get(s) {
                    work.extend(succ.iter());
                }
            }
        }
        false
    };
    blocks
        .keys()
        .filter(|b| reaches_itself(b))
        .cloned()
        .collect()
}

#[test]
fn loop_checks_read_headers_before_the_loop() {
    let ir = optimised_ir("scale", LOOP);
    let blocks = blocks(&ir, "@gimso.fd.scale");
    let in_loop = loop_blocks(&blocks);
    assert!(!in_loop.is_empty(), "no loop found:\n{ir}");
    // The loop polls the safepoint (so it has the runtime call in it) ...
    let polls = in_loop
        .iter()
        .flat_map(|b| &blocks[b].0)
        .filter(|l| l.contains("@gimso_pollcheck_slow"))
        .count();
    assert_eq!(polls, 1, "{ir}");
    // ... and reads no header: every header load sits before it.
    let header_loads = |pred: &dyn Fn(&String) -> bool| {
        blocks
            .iter()
            .filter(|(b, _)| pred(b))
            .flat_map(|(_, (lines, _))| lines)
            .filter(|l| l.contains("= load i64") && l.contains("!alias.scope"))
            .count()
    };
    assert_eq!(header_loads(&|b| in_loop.contains(b)), 0, "{ir}");
    assert!(header_loads(&|b| !in_loop.contains(b)) >= 2, "{ir}");
}
