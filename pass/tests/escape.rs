//! Which allocas stay stack slots: private and provably in bounds only.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use gimso_pass::escape::{AllocaHome, classify_allocas};
use gimso_pass::llvm::{DataLayout, Func};
use gimso_pass::load_module;
use inkwell::context::Context;
use inkwell::module::Module;

fn compile_named(source: &str) -> PathBuf {
    compile_at(source, "-O0")
}

fn compile_at(source: &str, level: &str) -> PathBuf {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/c")
        .join(source);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{source}{level}.ll"));
    let st = Command::new("clang-16")
        .args([level, "-fno-discard-value-names", "-emit-llvm", "-S", "-o"])
        .arg(&out)
        .arg(&src)
        .status()
        .expect("run clang-16 (scripts/setup.sh installs it)");
    assert!(st.success());
    out
}

/// The home of alloca `v` of function `f`.
fn home_of(module: &Module<'_>, f: &str, v: &str) -> AllocaHome {
    let layout = DataLayout::new(module);
    classify_allocas(&layout, Func::of(module.get_function(f).unwrap()))
        .into_iter()
        .find(|(i, _)| i.name() == v)
        .unwrap_or_else(|| panic!("{f} has no alloca {v}"))
        .1
}

#[test]
fn allocas_are_stack_only_when_private_and_in_bounds() {
    let ctx = Context::create();
    let module = load_module(&ctx, &compile_named("escape.c")).expect("loads");
    let homes = |f: &str| -> HashMap<String, AllocaHome> {
        let layout = DataLayout::new(&module);
        classify_allocas(&layout, Func::of(module.get_function(f).unwrap()))
            .into_iter()
            .map(|(i, h)| (i.name(), h))
            .collect()
    };

    let h = homes("only_scalars");
    for name in ["x.addr", "a", "b"] {
        assert_eq!(h[name], AllocaHome::Stack, "{name}: {h:?}");
    }
    assert_eq!(homes("fields")["p"], AllocaHome::Stack);
    // Indexed with a variable but never passed on: a frame object, its
    // accesses checked against the header in the frame.
    assert_eq!(homes("var_index")["arr"], AllocaHome::Frame);
    // Passed to the last call on its path: copied in and out around it.
    assert_eq!(
        homes("escapes")["a"],
        AllocaHome::StackCaps { escapes: true }
    );
    // A later call could write through a pointer the first one kept.
    assert!(matches!(&homes("call_after")["a"], AllocaHome::Heap(why) if why.contains("escapes")));
    assert!(matches!(&homes("in_loop")["a"], AllocaHome::Heap(why) if why.contains("escapes")));
    // After the call, memory reached through a pointer obtained after it
    // (returned by it, loaded from a global) may be the copy: kept whole.
    for f in ["returned_alias", "kept_in_global"] {
        assert!(
            matches!(&homes(f)["a"], AllocaHome::Heap(why) if why.contains("obtained after")),
            "{f}: {:?}",
            homes(f)
        );
    }

    // Pointers at rest in a private slot: a capability slot beside it.
    let h = homes("holds_pointer");
    let caps = AllocaHome::StackCaps { escapes: false };
    assert_eq!(h["q"], caps, "{h:?}");
    assert_eq!(h["p.addr"], caps, "{h:?}");
    // Not word-aligned: no capability slot, but a frame object's shadow.
    assert_eq!(homes("unaligned_pointer")["k"], AllocaHome::Frame);
    // An i64 beside a pointer may be a copy of one: the capability slot
    // keeps what it carries, as shadow storage would.
    assert_eq!(homes("int_word_beside_pointer")["m"], caps);
}

#[test]
fn an_address_escaping_only_on_never_returning_paths_keeps_the_local_in_the_frame() {
    let ctx = Context::create();
    let module = load_module(&ctx, &compile_named("escape.c")).expect("loads");
    let home = |f: &str, v: &str| home_of(&module, f, v);
    // Passed to `report` only on the path that ends in `fail()`.
    assert_eq!(
        home("escapes_on_error", "t"),
        AllocaHome::StackCaps { escapes: true }
    );
    // Written after the call that got the heap copy: it would be stale.
    assert!(
        matches!(home("used_after_escape", "t"), AllocaHome::Heap(why) if why.contains("after")),
        "{:?}",
        home("used_after_escape", "t")
    );
    // The call returns and is the last on its path, but the frame then
    // follows `t.a`, which the callee may have pointed at the copy.
    assert!(matches!(
        home("escapes_and_returns", "t"),
        AllocaHome::Heap(why) if why.contains("obtained after")
    ));
}

#[test]
fn an_out_parameter_of_the_last_call_keeps_the_local_in_the_frame() {
    let ctx = Context::create();
    let module = load_module(&ctx, &compile_at("escape_opt.c", "-O1")).expect("loads");
    let home = |f: &str, v: &str| home_of(&module, f, v);
    // A pointer the frame had before the call cannot point at the copy.
    assert_eq!(
        home("old_pointer_after", "a"),
        AllocaHome::StackCaps { escapes: true }
    );
    assert_eq!(
        home("to_integer", "res"),
        AllocaHome::StackCaps { escapes: true }
    );
}

#[test]
fn an_address_passed_only_to_nocapture_parameters_is_a_frame_object() {
    let ctx = Context::create();
    let module = load_module(&ctx, &compile_at("escape_opt.c", "-O1")).expect("loads");
    let home = |f: &str, v: &str| home_of(&module, f, v);
    // `fill` is defined here (LLVM infers `nocapture`), `snprintf`'s
    // buffer is `nocapture` by LLVM's library knowledge.
    assert_eq!(home("nocapture_callees", "x"), AllocaHome::Frame);
    assert_eq!(home("nocapture_callees", "buf"), AllocaHome::Frame);
    // `stash` keeps it; a variadic argument has no attribute; 4 KiB is
    // more than a frame object may take.
    // `getcwd` returns its argument (whatever its attributes say): a
    // declaration returning a pointer never gets a frame object.
    for (f, v) in [
        ("captured", "a"),
        ("as_vararg", "a"),
        ("too_big", "big"),
        ("cwd_first", "buf"),
    ] {
        assert!(
            matches!(home(f, v), AllocaHome::Heap(_)),
            "{f}: {:?}",
            home(f, v)
        );
    }
}
