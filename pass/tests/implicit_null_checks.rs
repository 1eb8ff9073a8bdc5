//! Null tests folded into header loads (LLVM's implicit null checks): the
//! in-process back end turns them on and leaves a linkable fault map
//! (`gimso_pass::fault_map`); through clang the tests stay explicit. The
//! runtime half (a null capability reported at its line through the fault)
//! is `tests/c/null_cap_folded_check.c`.

use std::fs;
use std::path::{Path, PathBuf};

mod common;
use common::gimso_cc_object;

use gimso_abi::{FAULT_MAP_SECTION, LLVM_FAULT_MAP_SECTION};
use gimso_pass::fault_map::{SHF_GNU_RETAIN, SHF_WRITE, find_section};

const LIST_WALK: &str = "struct node { struct node *next; long v; };\n\
long sum(struct node *n) {\n\
  long s = 0;\n\
  for (int i = 0; i < 3; i++) { s += n->v; n = n->next; }\n\
  return s;\n\
}\n";

fn compile(name: &str, flags: &[&str]) -> Vec<u8> {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("implicit_null_checks");
    fs::create_dir_all(&dir).unwrap();
    let src = dir.join(format!("{name}.c"));
    let obj = dir.join(format!("{name}.o"));
    fs::write(&src, LIST_WALK).unwrap();
    gimso_cc_object(&src, &obj, flags)
}

#[test]
fn in_process_objects_carry_a_writable_retained_fault_map() {
    let obj = compile("in_process", &["-O2"]);
    let (flags, size) = find_section(&obj, FAULT_MAP_SECTION).expect("a fault map section");
    assert_eq!(
        flags & (SHF_WRITE | SHF_GNU_RETAIN),
        SHF_WRITE | SHF_GNU_RETAIN
    );
    // The 8-byte map header, one function (16 bytes) and at least one
    // faulting load (12 bytes).
    assert!(size >= 8 + 16 + 12, "map of {size} bytes");
    assert_eq!(find_section(&obj, LLVM_FAULT_MAP_SECTION), None);
}

#[test]
fn shared_library_code_keeps_explicit_null_tests() {
    // The runtime's fault handler reads the executable's map only.
    let obj = compile("pic", &["-O2", "-fPIC"]);
    assert_eq!(find_section(&obj, FAULT_MAP_SECTION), None);
    assert_eq!(find_section(&obj, LLVM_FAULT_MAP_SECTION), None);
}

#[test]
fn objects_from_clang_keep_explicit_null_tests() {
    // A target option sends the translated bitcode through clang, which
    // does not fold null tests: no fault map, in either name.
    let obj = compile("through_clang", &["-O2", "-march=x86-64"]);
    assert_eq!(find_section(&obj, FAULT_MAP_SECTION), None);
    assert_eq!(find_section(&obj, LLVM_FAULT_MAP_SECTION), None);
}
