//! `gimso-cc` as a program: what works before the translation exists (the
//! front half, the checks, diagnostics, `-E`, `-v`, dependency files, the
//! runtime search, link-error rewriting, temporary files), and the
//! front-half flags' promise that clang keeps the user's memory bugs.
//!
//! Nothing here depends on `translate_module` succeeding: the end-to-end
//! tests (compile, link, run) come with the translation.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gimso_pass::driver::args::{Mode, parse};
use gimso_pass::driver::errors::{DriverError, EXIT_INTERNAL};
use gimso_pass::driver::flags::{
    BACK_HALF_FLAGS, FRONT_HALF_FLAGS, FRONT_HALF_NO_PASSES, PREPROCESSOR_FLAGS,
    back_half_user_flags, dependency_defaults, in_process_back_half, wants_debug,
};
use gimso_pass::driver::link_errors::rewrite_link_errors;
use gimso_pass::driver::pass_step::verify_translated;
use gimso_pass::driver::pipeline::{render_command, version_line};
use gimso_pass::driver::toolchain::{RUNTIME_LIB, find_runtime, system_header_dir};
use inkwell::context::Context;

const GIMSO_CC: &str = env!("CARGO_BIN_EXE_gimso-cc");

/// A fresh directory for one test.
fn workdir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("driver_pipeline")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `gimso-cc args` in `dir` with a private `TMPDIR` (`dir/tmp`) and no
/// inherited gimso variables.
fn gimso_cc(dir: &Path, args: &[&str]) -> Output {
    let tmp = dir.join("tmp");
    fs::create_dir_all(&tmp).unwrap();
    Command::new(GIMSO_CC)
        .args(args)
        .current_dir(dir)
        .env("TMPDIR", &tmp)
        .env_remove("GIMSO_LIBDIR")
        .env_remove("GIMSO_KEEP_TEMPS")
        .env_remove("GIMSO_CLANG")
        .output()
        .expect("run gimso-cc")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

const ASM_C: &str = "int f(int x) {\n  int y = x;\n  asm(\"mov %eax, %ebx\");\n  return y;\n}\n";

#[test]
fn version_names_crate_abi_and_clang() {
    let dir = workdir("version");
    let out = gimso_cc(&dir, &["--version"]);
    assert!(out.status.success());
    let expected = format!(
        "gimso-cc {} (gimso runtime ABI {}, clang-16)\n",
        env!("CARGO_PKG_VERSION"),
        gimso_abi::ABI_VERSION
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
    assert_eq!(format!("{}\n", version_line()), expected);

    // Makefiles and configure scripts read these: clang's answers.
    let out = gimso_cc(&dir, &["-dumpversion"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v = String::from_utf8_lossy(&out.stdout);
    assert!(v.starts_with("16."), "{v}");
    let out = gimso_cc(&dir, &["-dumpmachine"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("linux"));

    // `cc -v` alone (configure scripts) shows both versions.
    let out = gimso_cc(&dir, &["-v"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with(&expected), "{stdout}");
    assert!(stdout.contains("clang version 16"), "{stdout}");
}

#[test]
fn preprocessing_is_clangs() {
    let dir = workdir("preprocess");
    fs::write(
        dir.join("p.c"),
        "#define TWICE(x) ((x) * 2)\nint v = TWICE(N);\n#ifdef __OPTIMIZE__\nint o;\n#endif\n",
    )
    .unwrap();
    for opt in ["-O0", "-O2"] {
        let ours = gimso_cc(&dir, &[opt, "-E", "-DN=21", "p.c"]);
        assert!(ours.status.success(), "{}", stderr(&ours));
        let theirs = Command::new("clang-16")
            .args([opt, "-E", "-DN=21", "p.c"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout)
        );
        assert!(String::from_utf8_lossy(&ours.stdout).contains("int v = ((21) * 2);"));
    }
    // -o and a name that is only C because of -x c.
    fs::copy(dir.join("p.c"), dir.join("p.txt")).unwrap();
    let out = gimso_cc(&dir, &["-E", "-DN=1", "-x", "c", "p.txt", "-o", "p.i"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(
        fs::read_to_string(dir.join("p.i"))
            .unwrap()
            .contains("int v = ((1) * 2);")
    );
}

#[test]
fn rejected_construct_is_a_clang_style_error() {
    let dir = workdir("reject");
    fs::write(dir.join("t.c"), ASM_C).unwrap();
    for opt in ["-O0", "-O2"] {
        let out = gimso_cc(&dir, &[opt, "-c", "t.c"]);
        assert_eq!(out.status.code(), Some(1), "{opt}: {}", stderr(&out));
        let err = stderr(&out);
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("t.c:3:3: error: gimso does not support inline assembly"),
            "{opt}: {err}"
        );
        assert!(first.ends_with("(in function `f`)"), "{opt}: {err}");
        assert!(err.contains("\n1 error generated.\n"), "{opt}: {err}");
        assert!(!dir.join("t.o").exists());
    }
    // With -g too, and from a subdirectory: the path is shown as given.
    fs::create_dir_all(dir.join("src")).unwrap();
    fs::write(dir.join("src/u.c"), ASM_C).unwrap();
    let out = gimso_cc(&dir, &["-g", "-c", "src/u.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("src/u.c:3:3: error: gimso does not support inline assembly"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn clang_errors_pass_through_with_clangs_status() {
    let dir = workdir("clang_errors");
    let ours = gimso_cc(&dir, &["-c", "missing.c"]);
    let theirs = Command::new("clang-16")
        .args(["-c", "missing.c"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(ours.status.code(), theirs.status.code());
    assert_ne!(ours.status.code(), Some(0));
    assert!(
        stderr(&ours).contains("no such file or directory: 'missing.c'"),
        "{}",
        stderr(&ours)
    );

    // A C error is clang's, verbatim (exit status 1, no gimso output).
    fs::write(dir.join("bad.c"), "int f(void) { return undeclared; }\n").unwrap();
    let ours = gimso_cc(&dir, &["-c", "bad.c"]);
    assert_eq!(ours.status.code(), Some(1));
    let err = stderr(&ours);
    assert!(
        err.starts_with("bad.c:1:22: error: use of undeclared identifier 'undeclared'"),
        "{err}"
    );
    assert!(!err.contains("gimso"), "{err}");

    // Command-line errors are gimso-cc's own.
    let out = gimso_cc(&dir, &["-fsanitize=address", "-c", "bad.c"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("gimso-cc: error: option '-fsanitize=address'"));
}

#[test]
fn verbose_shows_the_pipeline() {
    let dir = workdir("verbose");
    fs::write(dir.join("t.c"), ASM_C).unwrap();
    let out = gimso_cc(
        &dir,
        &[
            "-v",
            "-O2",
            "-Wall",
            "-DX=1",
            "-D_FORTIFY_SOURCE=2",
            "-c",
            "t.c",
        ],
    );
    let err = stderr(&out);
    let front = err
        .lines()
        .find(|l| l.starts_with("clang-16 -O2 "))
        .unwrap_or_else(|| panic!("no front-half command in:\n{err}"));
    for part in [
        "-Wall",
        "-DX=1",
        "-fno-builtin-malloc",
        "-fno-builtin-free",
        "-fno-delete-null-pointer-checks",
        "-fwrapv",
        "-gline-tables-only",
        "-Xclang -disable-llvm-passes -Xclang -disable-O0-optnone -emit-llvm -c t.c -o ",
    ] {
        assert!(front.contains(part), "{part} missing from {front}");
    }
    // User flags come first so gimso's win.
    assert!(front.find("-Wall").unwrap() < front.find("-fwrapv").unwrap());
    assert!(front.find("-D_FORTIFY_SOURCE=2").unwrap() < front.find("-U_FORTIFY_SOURCE").unwrap());
    assert!(
        err.lines()
            .any(|l| l.starts_with("gimso-cc: pass: load ") && l.contains("translate")),
        "{err}"
    );
}

#[test]
fn temporary_files_are_removed_unless_kept() {
    let dir = workdir("temps");
    fs::write(dir.join("t.c"), ASM_C).unwrap();
    let out = gimso_cc(&dir, &["-c", "t.c"]);
    assert_eq!(out.status.code(), Some(1));
    let left: Vec<_> = fs::read_dir(dir.join("tmp")).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");

    // Directories of runs that died (no such pid) are swept once stale.
    let tmp = dir.join("tmp");
    let dead = |name: &str, age_secs: u64| {
        let d = tmp.join(name);
        fs::create_dir_all(&d).unwrap();
        fs::write(d.join("0-x.bc"), b"").unwrap();
        let when = std::time::SystemTime::now() - std::time::Duration::from_secs(age_secs);
        fs::File::open(&d).unwrap().set_modified(when).unwrap();
        d
    };
    let stale = dead("gimso-cc-4000000000-00000001", 7200);
    let recent = dead("gimso-cc-4000000000-00000002", 10);
    let kept = dead("gimso-cc-keep-4000000000-00000003", 7200);
    let _ = gimso_cc(&dir, &["-c", "t.c"]);
    assert!(!stale.exists());
    assert!(recent.exists() && kept.exists());
    fs::remove_dir_all(recent).unwrap();
    fs::remove_dir_all(kept).unwrap();

    let out = Command::new(GIMSO_CC)
        .args(["-c", "t.c"])
        .current_dir(&dir)
        .env("TMPDIR", dir.join("tmp"))
        .env("GIMSO_KEEP_TEMPS", "1")
        .output()
        .unwrap();
    let err = stderr(&out);
    let kept = err
        .lines()
        .find_map(|l| l.strip_prefix("gimso-cc: keeping temporary files in "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(Path::new(kept).join("0-t.bc").is_file(), "{err}");
    fs::remove_dir_all(kept).unwrap();
}

#[test]
fn dependency_files_name_the_real_output() {
    let dir = workdir("deps");
    fs::write(dir.join("h.h"), "#define N 1\n").unwrap();
    fs::write(dir.join("d.c"), "#include \"h.h\"\nint n = N;\n").unwrap();
    fs::create_dir_all(dir.join("obj")).unwrap();
    // The front half writes the file whatever the pass then says.
    let _ = gimso_cc(&dir, &["-MMD", "-MP", "-c", "d.c", "-o", "obj/d.o"]);
    let deps = fs::read_to_string(dir.join("obj/d.d")).expect("obj/d.d written");
    assert!(deps.starts_with("obj/d.o: d.c h.h"), "{deps}");
    assert!(deps.contains("\nh.h:"), "{deps}");

    let _ = gimso_cc(&dir, &["-MD", "-MF", "x.dep", "-MT", "tgt", "-c", "d.c"]);
    let deps = fs::read_to_string(dir.join("x.dep")).unwrap();
    assert!(deps.starts_with("tgt: d.c"), "{deps}");

    // -MM alone is preprocessing: clang's output.
    let out = gimso_cc(&dir, &["-MM", "d.c"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "d.o: d.c h.h\n");
}

#[test]
fn runtime_search_names_every_place() {
    let dir = workdir("runtime");
    let exe = dir.join("prefix/bin/gimso-cc");
    let err = find_runtime(None, Some(&exe), None).unwrap_err();
    let msg = err.to_string();
    let lines: Vec<&str> = msg.lines().collect();
    assert_eq!(
        lines[0],
        "gimso-cc: error: cannot find the gimso runtime library 'libgimso.a'; searched:"
    );
    assert!(lines[1].contains(&format!("{}/prefix/bin/libgimso.a", dir.display())));
    assert!(lines[2].contains(&format!("{}/prefix/lib/libgimso.a", dir.display())));
    assert_eq!(lines[3], "  $GIMSO_LIBDIR (not set)");
    assert!(lines[4].contains("cargo build --release -p gimso"), "{msg}");
    assert!(lines[4].contains("--gimso-libdir=DIR"), "{msg}");

    // Found: next to the binary first, then ../lib, then $GIMSO_LIBDIR.
    let envdir = dir.join("env");
    fs::create_dir_all(&envdir).unwrap();
    fs::write(envdir.join(RUNTIME_LIB), b"!<arch>\n").unwrap();
    assert_eq!(
        find_runtime(None, Some(&exe), Some(&envdir)).unwrap(),
        envdir.join(RUNTIME_LIB)
    );
    fs::create_dir_all(dir.join("prefix/lib")).unwrap();
    fs::write(dir.join("prefix/lib").join(RUNTIME_LIB), b"!<arch>\n").unwrap();
    assert_eq!(
        find_runtime(None, Some(&exe), Some(&envdir)).unwrap(),
        dir.join("prefix/lib").join(RUNTIME_LIB)
    );
    // --gimso-libdir is the only place looked at when given.
    let err = find_runtime(Some(&dir), Some(&exe), Some(&envdir)).unwrap_err();
    assert_eq!(err.searched.len(), 1);
    assert!(err.to_string().contains("(--gimso-libdir)"));
    assert!(!err.to_string().contains("$GIMSO_LIBDIR"));

    // The binary reports it before compiling anything.
    fs::write(dir.join("ok.c"), "int main(void) { return 0; }\n").unwrap();
    let empty = dir.join("empty");
    fs::create_dir_all(&empty).unwrap();
    let flag = format!("--gimso-libdir={}", empty.display());
    let out = gimso_cc(&dir, &[&flag, "ok.c"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with("gimso-cc: error: cannot find the gimso runtime library"),
        "{err}"
    );
    assert!(
        err.contains(&format!("{}/libgimso.a (--gimso-libdir)", empty.display())),
        "{err}"
    );
    assert!(!dir.join("a.out").exists());
}

/// GNU ld 2.40's output for a program calling `foo` and reading `bar`
/// (neither has a gimso definition) and calling an undefined C function.
const GNU_LD: &str = "\
/usr/bin/ld: m.o: in function `gimso.fn.helper':
m.c:(.text+0xa): undefined reference to `gimso.fn.foo'
/usr/bin/ld: m.c:(.text+0x11): undefined reference to `gimso.obj.bar'
/usr/bin/ld: m.o: in function `main':
m.c:(.text+0x3d): undefined reference to `gimso.fn.foo'
/usr/bin/ld: m.c:(.text+0x4c): undefined reference to `plain_missing'
clang: error: linker command failed with exit code 1 (use -v to see invocation)
";

#[test]
fn missing_wrappers_are_named_in_link_errors() {
    let report = rewrite_link_errors(GNU_LD, &[]);
    let lines: Vec<&str> = report.text.lines().collect();
    assert_eq!(
        lines,
        [
            "gimso-cc: error: no gimso wrapper for external function 'foo' (referenced from m.c:(.text+0xa) in function 'helper', and from 1 other place)",
            "gimso-cc: error: no gimso wrapper for external function or variable 'bar' (referenced from m.c:(.text+0x11) in function 'helper')",
            "/usr/bin/ld: m.o: in function `main':",
            "/usr/bin/ld: m.c:(.text+0x4c): undefined reference to `plain_missing'",
            "clang: error: linker command failed with exit code 1 (use -v to see invocation)",
            "gimso-cc: note: code compiled by gimso-cc can only call functions that are themselves compiled by gimso-cc or that the gimso runtime wraps; compile the library defining them with gimso-cc",
        ]
    );
    assert_eq!(report.missing, ["foo", "bar"]);

    // With debug info (file:line), and temporary objects renamed.
    let with_g = "\
/usr/bin/ld: /tmp/gimso-cc-1-0/0-m.o: in function `gimso.fn.main':
/src/m.c:6: undefined reference to `gimso.fn.puts'
/usr/bin/ld: /src/m.c:7: more undefined references to `gimso.fn.puts' follow
/usr/bin/ld: /tmp/gimso-cc-1-0/0-m.o: in function `gimso.fn.g':
/src/m.c:9: undefined reference to `other'
";
    let renames = [("/tmp/gimso-cc-1-0/0-m.o".to_owned(), "m.c".to_owned())];
    let report = rewrite_link_errors(with_g, &renames);
    assert_eq!(
        report.text,
        "gimso-cc: error: no gimso wrapper for external function 'puts' (referenced from /src/m.c:6 in function 'main')\n\
         /usr/bin/ld: m.c: in function `gimso.fn.g':\n\
         /src/m.c:9: undefined reference to `other'\n\
         gimso-cc: note: code compiled by gimso-cc can only call functions that are themselves compiled by gimso-cc or that the gimso runtime wraps; compile the library defining them with gimso-cc\n"
    );

    // gold.
    let gold = "m.o:m.c:function gimso.fn.helper: error: undefined reference to 'gimso.fn.foo'\n";
    assert_eq!(
        rewrite_link_errors(gold, &[]).text.lines().next().unwrap(),
        "gimso-cc: error: no gimso wrapper for external function 'foo' (referenced from m.c in function 'helper')"
    );

    // lld and mold.
    let lld = "\
ld.lld: error: undefined symbol: gimso.fn.foo
>>> referenced by m.c:5
>>>               m.o:(gimso.fn.helper)
>>> referenced by m.o:(main)
ld.lld: error: undefined symbol: other
>>> referenced by m.o:(main)
clang: error: linker command failed with exit code 1 (use -v to see invocation)
";
    let report = rewrite_link_errors(lld, &[]);
    let lines: Vec<&str> = report.text.lines().collect();
    assert_eq!(
        lines[..4],
        [
            "gimso-cc: error: no gimso wrapper for external function 'foo' (referenced from m.c:5 in function 'helper', and from 1 other place)",
            "ld.lld: error: undefined symbol: other",
            ">>> referenced by m.o:(main)",
            "clang: error: linker command failed with exit code 1 (use -v to see invocation)",
        ]
    );

    // A call references the entry and the function object: one error,
    // and it is a function.
    let both = "\
/usr/bin/ld: m.o: in function `main':
m.c:(.text+0x74): undefined reference to `gimso.obj.mkfifo'
/usr/bin/ld: m.c:(.text+0x82): undefined reference to `gimso.fn.mkfifo'
";
    let report = rewrite_link_errors(both, &[]);
    assert_eq!(
        report.text.lines().next().unwrap(),
        "gimso-cc: error: no gimso wrapper for external function 'mkfifo' (referenced from m.c:(.text+0x74) in function 'main')"
    );
    assert_eq!(report.text.lines().count(), 2, "{}", report.text);
    assert_eq!(report.missing, ["mkfifo"]);

    // Output without gimso symbols is untouched.
    let plain = "/usr/bin/ld: warning: x.o: missing .note.GNU-stack section\n";
    let report = rewrite_link_errors(plain, &[]);
    assert_eq!(report.text, plain);
    assert!(report.missing.is_empty());
}

#[test]
fn link_errors_are_rewritten_end_to_end() {
    let dir = workdir("link");
    // An object as the translation will emit it: calls go to gimso.fn.NAME.
    fs::write(
        dir.join("m.c"),
        "extern int foo(int) __asm__(\"gimso.fn.foo\");\n\
         int main(void) { return foo(1); }\n",
    )
    .unwrap();
    let status = Command::new("clang-16")
        .args(["-c", "m.c", "-o", "m.o"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    // An empty runtime archive: only the wrapper for `foo` is missing.
    let lib = dir.join("lib");
    fs::create_dir_all(&lib).unwrap();
    fs::write(lib.join(RUNTIME_LIB), b"!<arch>\n").unwrap();
    let flag = format!("--gimso-libdir={}", lib.display());
    let out = gimso_cc(&dir, &[&flag, "m.o", "-o", "prog"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.starts_with(
            "gimso-cc: error: no gimso wrapper for external function 'foo' (referenced from m.c"
        ),
        "{err}"
    );
    assert!(err.contains("in function 'main')"), "{err}");
    assert!(
        !err.contains("undefined reference to `gimso.fn.foo'"),
        "{err}"
    );

    // -v shows the link command, with the runtime after the inputs.
    let out = gimso_cc(&dir, &["-v", &flag, "m.o", "-lm", "-o", "prog"]);
    let err = stderr(&out);
    let link = err
        .lines()
        .find(|l| l.starts_with("clang-16 "))
        .unwrap_or_else(|| panic!("{err}"));
    let runtime = lib.join(RUNTIME_LIB).display().to_string();
    assert!(
        link.contains(&format!("m.o -lm {runtime} -lpthread -ldl -lm -o prog")),
        "{link}"
    );
}

#[test]
fn a_module_the_verifier_rejects_is_an_internal_error() {
    let ctx = Context::create();
    let module = ctx.create_module("broken");
    let fn_type = ctx.void_type().fn_type(&[], false);
    let ok = module.add_function("fine", fn_type, None);
    let builder = ctx.create_builder();
    builder.position_at_end(ctx.append_basic_block(ok, "entry"));
    builder.build_return(None).unwrap();
    // A block without a terminator.
    let bad = module.add_function("broken_fn", fn_type, None);
    ctx.append_basic_block(bad, "entry");

    let err = verify_translated(&module, Path::new("x.c")).unwrap_err();
    assert!(matches!(err, DriverError::Internal(_)));
    assert_eq!(err.exit_code(), EXIT_INTERNAL);
    let msg = err.message().unwrap();
    assert!(
        msg.starts_with("gimso-cc: internal compiler error: the translation of x.c fails LLVM verification in function `broken_fn`"),
        "{msg}"
    );
    assert!(msg.contains("does not have terminator"), "{msg}");

    let fine = ctx.create_module("fine");
    assert!(verify_translated(&fine, Path::new("x.c")).is_ok());
}

#[test]
fn helper_rules() {
    assert!(!wants_debug(&args("-O2 -Wall")));
    assert!(wants_debug(&args("-g")));
    assert!(wants_debug(&args("-gdwarf-4")));
    assert!(wants_debug(&args("-ggdb3")));
    assert!(!wants_debug(&args("-g -g0")));
    assert!(!wants_debug(&args("-gsplit-dwarf")));

    assert_eq!(
        back_half_user_flags(&args(
            "-Iinc -DX -std=c11 -Wall -fPIC -flto -ffunction-sections -march=native -g -MMD"
        )),
        args("-fPIC -ffunction-sections -march=native -g")
    );

    // Code generation in process unless a flag changes it.
    assert!(in_process_back_half(&args(
        "-Iinc -DX -std=c11 -Wall -O2 -g -fPIC -fno-omit-frame-pointer -fno-builtin-memcpy"
    )));
    for flag in [
        "-march=native",
        "-ffunction-sections",
        "-gsplit-dwarf",
        "-fsanitize=address",
    ] {
        assert!(!in_process_back_half(&args(flag)), "{flag}");
    }

    let d = |flags: &str, target: &str| -> Vec<String> {
        dependency_defaults(&args(flags), Path::new(target))
            .into_iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(d("-MMD -MP", "obj/a.o"), args("-MF obj/a.d -MT obj/a.o"));
    assert_eq!(d("-MD -MF x.d", "a.o"), args("-MT a.o"));
    assert_eq!(d("-MD -MQ $t", "a.o"), args("-MF a.d"));
    assert!(d("-Wall", "a.o").is_empty());

    let mut cmd = Command::new("clang-16");
    cmd.args(["-DS=\"a b\"", "-c", "it's.c"]);
    assert_eq!(
        render_command(&cmd),
        r#"clang-16 '-DS="a b"' -c 'it'\''s.c'"#
    );
    assert_eq!(BACK_HALF_FLAGS[0], "-Qunused-arguments");
}

#[test]
fn driver_options() {
    let inv = parse(&args("-v --gimso-libdir=/opt/g -c a.c")).unwrap();
    assert!(inv.verbose);
    assert_eq!(inv.gimso_libdir, Some(PathBuf::from("/opt/g")));
    let inv = parse(&args("--gimso-libdir /opt/h a.o")).unwrap();
    assert_eq!(inv.gimso_libdir, Some(PathBuf::from("/opt/h")));
    assert_eq!(parse(&args("-v")).unwrap().mode, Mode::Version);
    assert!(parse(&args("-S -emit-llvm a.c")).unwrap().emit_llvm);
    assert!(
        parse(&args("-emit-llvm a.c"))
            .unwrap_err()
            .to_string()
            .contains("cannot be used when linking")
    );
    assert!(
        parse(&args("--gimso-libdir"))
            .unwrap_err()
            .to_string()
            .contains("missing value")
    );
}

/// Functions whose memory bugs clang -O2 deletes without the front-half
/// flags, and the instruction that must survive with them.
const UB_CASES: &str = r#"
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
void uaf_store(void) { char *p = malloc(16); free(p); p[0] = 1; }
void malloc_free_pair(void) { char *p = malloc(16); free(p); }
void double_free(void) { char *p = malloc(8); free(p); free(p); }
void store_before_free(char *p) { p[0] = 1; free(p); }
void memset_before_free(char *p) { memset(p, 0, 64); free(p); }
int malloc_read(void) { int *p = malloc(16); int r = p[9]; free(p); return r; }
int calloc_oob_read(void) { int *p = calloc(4, 4); int r = p[5]; free(p); return r; }
void realloc_stale(void) { char *p = malloc(8); char *q = realloc(p, 16); p[0] = 1; free(q); }
int aligned_read(void) { int *p = aligned_alloc(16, 32); int r = p[9]; free(p); return r; }
int memalign_read(void) { int *p = memalign(16, 32); int r = p[9]; free(p); return r; }
int deref_then_check(int *p) { int v = *p; if (!p) return v + 1; return v; }
int null_store(void) { int *p = 0; *p = 1; return 2; }
int overflow_check(int off, int len) { if (off + len < off) return -1; return 0; }
int ptr_overflow_check(char *p, unsigned long n) { if (p + n < p) return -1; return 0; }
int type_pun(int *i, float *f) { *i = 1; *f = 2.0f; return *i; }
int uninit_branch(int (*a)(void), int (*b)(void)) { int x; if (x == 5) return a(); return b(); }
void leaked_oob_store(void) { int *p = malloc(32); p[20] = 1; }
static int static_helper(int x) { return x * x; }
int uses_helper(int y) { return static_helper(y) + 1; }
"#;

/// `(function, what must be in its optimised body)`.
const UB_EXPECT: &[(&str, &str)] = &[
    ("uaf_store", "store i8 1, ptr"),
    ("malloc_free_pair", "call void @free"),
    ("double_free", "call void @free"),
    ("store_before_free", "store i8 1, ptr"),
    ("memset_before_free", "@llvm.memset"),
    ("malloc_read", "load i32"),
    ("calloc_oob_read", "load i32"),
    ("realloc_stale", "store i8 1, ptr"),
    ("aligned_read", "load i32"),
    ("memalign_read", "load i32"),
    ("deref_then_check", "icmp eq ptr"),
    ("null_store", "store i32 1, ptr null"),
    ("overflow_check", "icmp slt"),
    ("ptr_overflow_check", "icmp ult ptr"),
    ("type_pun", "load i32"),
    ("uninit_branch", "call i32"),
];

/// Deleted by clang -O2 even with the flags (glibc declares `malloc` with
/// `__attribute__((malloc))`: a `noalias` result, so a store to a buffer
/// that never escapes is dead); kept by gimso-cc's in-process optimiser,
/// which strips that promise.
const NEEDS_PROMISES_STRIPPED: (&str, &str) = ("leaked_oob_store", "store i32 1, ptr");

/// The optimised body of each function in `ir`.
fn bodies(ir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in ir.lines() {
        if let Some(rest) = line.strip_prefix("define ") {
            let name = rest
                .split('@')
                .nth(1)
                .and_then(|s| s.split('(').next())
                .unwrap_or_default();
            current = Some((name.to_owned(), String::new()));
        } else if line == "}" {
            out.extend(current.take());
        } else if let Some((_, body)) = &mut current {
            body.push_str(line);
            body.push('\n');
        }
    }
    out
}

fn optimised(dir: &Path, extra: &[&str]) -> Vec<(String, String)> {
    let out = Command::new("clang-16")
        .args(["-O2", "-w"])
        .args(extra)
        .args(["-emit-llvm", "-S", "ub.c", "-o", "-"])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    bodies(&String::from_utf8_lossy(&out.stdout))
}

#[test]
fn front_half_flags_keep_the_bugs_the_checks_must_see() {
    let dir = workdir("ub");
    fs::write(dir.join("ub.c"), UB_CASES).unwrap();
    let with = optimised(&dir, FRONT_HALF_FLAGS);
    let without = optimised(&dir, &[]);
    let body = |set: &[(String, String)], function: &str| {
        set.iter()
            .find(|(n, _)| n == function)
            .map(|(_, b)| b.clone())
            .unwrap_or_else(|| panic!("{function} not found"))
    };
    for (function, needle) in UB_EXPECT {
        let body = |set: &[(String, String)]| body(set, function);
        let kept = body(&with);
        assert!(
            kept.contains(needle),
            "{function}: `{needle}` deleted even with the front-half flags:\n{kept}"
        );
        // Each case is one the plain optimiser does delete.
        let plain = body(&without);
        assert!(
            !plain.contains(needle),
            "{function}: plain clang -O2 keeps `{needle}`; the case tests nothing:\n{plain}"
        );
    }
    let (function, needle) = NEEDS_PROMISES_STRIPPED;
    assert!(!body(&with, function).contains(needle));

    // gimso-cc's own front half (clang without LLVM passes, then the
    // in-process optimiser) keeps every case, the last one included.
    let status = Command::new("clang-16")
        .args(["-O2", "-w"])
        .args(FRONT_HALF_FLAGS)
        .args(FRONT_HALF_NO_PASSES)
        .args(["-emit-llvm", "-c", "ub.c", "-o", "ub.bc"])
        .current_dir(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let ctx = Context::create();
    let module = gimso_pass::load_module(&ctx, &dir.join("ub.bc")).unwrap();
    gimso_pass::optimize::front_half(&module, "2").unwrap();
    let ours = bodies(&module.print_to_string().to_string());
    for (function, needle) in UB_EXPECT.iter().chain([&NEEDS_PROMISES_STRIPPED]) {
        let kept = body(&ours, function);
        assert!(
            kept.contains(needle),
            "{function}: `{needle}` deleted by gimso-cc's front half:\n{kept}"
        );
    }
    // Inlining still happens (no blanket `noinline` from clang's -O0).
    assert!(!ours.iter().any(|(n, _)| n == "static_helper"));

    // _FORTIFY_SOURCE from distribution flags calls no unwrapped `*_chk`.
    fs::write(
        dir.join("fortify.c"),
        "#include <stdio.h>\n#include <string.h>\n\
         int main(int c, char **v) { char b[8]; strcpy(b, v[0]); printf(\"%s %d\\n\", b, c); return 0; }\n",
    )
    .unwrap();
    let ir = |extra: &[&str]| {
        let out = Command::new("clang-16")
            .args(["-O2", "-D_FORTIFY_SOURCE=2"])
            .args(extra)
            .args(["-emit-llvm", "-S", "fortify.c", "-o", "-"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(ir(&[]).contains("@__printf_chk"));
    assert!(!ir(&[FRONT_HALF_FLAGS, PREPROCESSOR_FLAGS].concat()).contains("_chk"));

    // The flags draw no warning, so -Werror builds are unaffected.
    fs::write(
        dir.join("clean.c"),
        "#include <stdlib.h>\nint main(void) { int *p = malloc(4); *p = 1; int r = *p; free(p); return r; }\n",
    )
    .unwrap();
    let out = Command::new("clang-16")
        .args(["-O2", "-Wall", "-Wextra", "-Werror"])
        .args(FRONT_HALF_FLAGS)
        .args(PREPROCESSOR_FLAGS)
        .args([
            "-gline-tables-only",
            "-emit-llvm",
            "-c",
            "clean.c",
            "-o",
            "clean.bc",
        ])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn cxx_driver_compiles_cpp() {
    let dir = workdir("cxx");
    fs::write(
        dir.join("t.cpp"),
        "struct S { virtual ~S() {} };\nint f(int x) { try { if (x) throw S(); } catch (S &) { return 1; } return 0; }\n",
    )
    .unwrap();
    let cxx = env!("CARGO_BIN_EXE_gimso-cxx");
    // No standard headers: the C++ library is built by scripts/build-libcxx.sh
    // next to the release runtime, which this test does not need.
    let out = Command::new(cxx)
        .args(["-O2", "-nostdinc++", "-c", "t.cpp", "-o", "t.o"])
        .current_dir(&dir)
        .env("TMPDIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(dir.join("t.o").is_file());
    let v = Command::new(cxx).arg("--version").output().unwrap();
    assert!(String::from_utf8_lossy(&v.stdout).starts_with("gimso-c++ "));
    // gimso-cc refuses C++ sources unless told the language.
    let out = gimso_cc(&dir, &["-c", "t.cpp"]);
    assert!(stderr(&out).contains("gimso-c++"), "{}", stderr(&out));
    let out = gimso_cc(
        &dir,
        &["-x", "c++", "-nostdinc++", "-c", "t.cpp", "-o", "u.o"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn over_aligned_globals_past_a_page_are_refused() {
    let dir = workdir("overaligned");
    let src = "_Alignas(8192) char big[10];\n\
               _Thread_local _Alignas(64) int tl;\n\
               _Alignas(64) char fine[10];\n\
               int f(void) { return big[0] + tl + fine[0]; }\n";
    fs::write(dir.join("a.c"), src).unwrap();
    let out = gimso_cc(&dir, &["-O2", "-c", "a.c"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("`big` needs 8192-byte alignment (more than a page)"),
        "{err}"
    );
    // Over-aligned thread-locals are supported (thread_local_aligned.c).
    assert!(!err.contains("`tl`"), "{err}");
    assert!(!err.contains("`fine`"), "{err}");
    assert!(err.contains("\n1 error generated.\n"), "{err}");
}

#[test]
fn system_headers_unpack_epoll_event() {
    let dir = workdir("system_headers");
    // Under gimso-cc the struct is unpacked; under plain clang it is not.
    fs::write(
        dir.join("e.c"),
        "#include <stddef.h>\n#include <sys/epoll.h>\n\
         _Static_assert(sizeof(struct epoll_event) == SIZE, \"size\");\n\
         _Static_assert(offsetof(struct epoll_event, data) == OFF, \"offset\");\n\
         int flags = EPOLL_CLOEXEC;\n",
    )
    .unwrap();
    let out = gimso_cc(&dir, &["-c", "-DSIZE=16", "-DOFF=8", "e.c", "-o", "e.o"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let plain = Command::new("clang-16")
        .args(["-c", "-DSIZE=12", "-DOFF=4", "e.c", "-o", "plain.o"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(plain.status.success(), "{}", stderr(&plain));
    // -E gives what the compile sees, so a preprocessed file compiles alike.
    let out = gimso_cc(&dir, &["-E", "-DSIZE=16", "-DOFF=8", "e.c", "-o", "e.i"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = gimso_cc(&dir, &["-c", "e.i", "-o", "ei.o"]);
    assert!(out.status.success(), "{}", stderr(&out));

    // The directory is written once, under the first writable base.
    let unusable = dir.join("not-a-dir");
    fs::write(&unusable, "").unwrap();
    let base = dir.join("base");
    fs::create_dir_all(&base).unwrap();
    let first = system_header_dir(&[unusable.clone(), base.clone()]).unwrap();
    assert!(first.starts_with(&base), "{}", first.display());
    assert!(
        fs::read_to_string(first.join("bits/epoll.h"))
            .unwrap()
            .contains("EPOLL_CLOEXEC")
    );
    assert_eq!(
        system_header_dir(std::slice::from_ref(&base)).unwrap(),
        first
    );
    assert_eq!(fs::read_dir(&base).unwrap().count(), 1, "no staging left");
    let err = system_header_dir(&[unusable]).unwrap_err();
    assert!(err.to_string().contains("system headers"), "{err}");
}

/// `__builtin_frame_address(0)` compiles (a number without a capability;
/// tests/c/builtin_frame_address.c runs it); a deeper level, which walks
/// the callers' saved frame pointers, is an error at its line.
#[test]
fn frame_address_level_zero_only() {
    let dir = workdir("frame-address");
    fs::write(
        dir.join("ok.c"),
        "void *f(void) {\n  return __builtin_frame_address(0);\n}\n",
    )
    .unwrap();
    fs::write(
        dir.join("deep.c"),
        "void *f(void) {\n  return __builtin_frame_address(1);\n}\n",
    )
    .unwrap();
    for opt in ["-O0", "-O2"] {
        let out = gimso_cc(&dir, &[opt, "-c", "ok.c"]);
        assert!(out.status.success(), "{opt}: {}", stderr(&out));
        let out = gimso_cc(&dir, &[opt, "-c", "deep.c"]);
        assert_eq!(out.status.code(), Some(1), "{opt}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("deep.c:2:10: error: gimso does not support `__builtin_frame_address` with a level other than 0"),
            "{opt}: {err}"
        );
    }
}

/// `-S` shows the code `-c` makes: the same in-process back half (failure
/// paths end in a jump to the function's self-loop, not clang's `ud2`),
/// and the assembly, assembled by clang and linked by gimso-cc, still
/// reports the program's out-of-bounds read.
#[test]
fn assembly_comes_from_the_in_process_back_half() {
    let dir = workdir("assembly");
    fs::write(
        dir.join("oob.c"),
        "#include <stdlib.h>\n\
         int main(int argc, char **argv) {\n\
           int *a = malloc(4 * sizeof(int));\n\
           for (int i = 0; i < 4; i++) a[i] = i;\n\
           return a[argc + 3];\n\
         }\n",
    )
    .unwrap();
    let o = gimso_cc(&dir, &["-O2", "-S", "oob.c"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let asm = fs::read_to_string(dir.join("oob.s")).unwrap();
    let lines: Vec<&str> = asm.lines().map(str::trim).collect();
    let reports: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("callq\tgimso_access_failed"))
        .collect();
    assert!(!reports.is_empty(), "no bounds check reported in:\n{asm}");
    for i in reports {
        let next = lines[i + 1..]
            .iter()
            .find(|l| !l.starts_with('.') && !l.starts_with('#'))
            .unwrap();
        assert!(next.starts_with("jmp"), "after a report: {next}\n{asm}");
    }
    let cc = Command::new("clang-16")
        .args(["-c", "oob.s", "-o", "oob.o"])
        .current_dir(&dir)
        .status()
        .expect("run clang-16");
    assert!(cc.success());
    let o = gimso_cc(&dir, &["oob.o", "-o", "oob"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = Command::new(dir.join("oob")).output().unwrap();
    assert!(!run.status.success());
    let err = stderr(&run);
    assert!(err.contains("out-of-bounds read"), "{err}");
    assert!(err.contains("oob.c:5"), "{err}");
}

/// Dynamic `R_X86_64_RELATIVE` relocations of the executable `exe`.
fn relative_relocations(exe: &Path) -> usize {
    let out = Command::new("readelf")
        .args(["-r", "-W"])
        .arg(exe)
        .output()
        .expect("run readelf (binutils)");
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| l.contains("R_X86_64_RELATIVE"))
        .count()
}

#[test]
fn source_locations_cost_no_dynamic_relocations() {
    // N functions with one checked access each, so N location records
    // (each naming its file and function), in a position-independent
    // executable (clang's default here): the records hold offsets, which
    // the static linker resolves. Each function still costs the dynamic
    // relocations of its function object (three); with addresses in the
    // records it was five.
    const N: usize = 300;
    let dir = workdir("site_relocations");
    let mut src = String::from("#include <stdio.h>\n");
    for i in 0..N {
        src += &format!("int f{i}(int *p, int n) {{ return p[n] + {i}; }}\n");
    }
    src += "int main(int argc, char **argv) {\n  int a[4] = {1, 2, 3, 4}, s = 0;\n";
    src += "  (void)argv;\n  if (argc > 1) s += f7(a, 100 * argc);\n";
    for i in 0..N {
        src += &format!("  s += f{i}(a, {});\n", i % 4);
    }
    src += "  printf(\"%d\\n\", s);\n  return 0;\n}\n";
    fs::write(dir.join("many.c"), src).unwrap();
    fs::write(dir.join("none.c"), "int main(void) { return 0; }\n").unwrap();
    for name in ["many", "none"] {
        let out = gimso_cc(&dir, &["-O2", &format!("{name}.c"), "-o", name]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let added = relative_relocations(&dir.join("many"))
        .saturating_sub(relative_relocations(&dir.join("none")));
    assert!(added <= 4 * N, "{added} relocations for {N} functions");
    let run = Command::new(dir.join("many")).output().unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    // The records still name their places: f7's check, line 9, column 32,
    // inlined into main at the call on line 305.
    let run = Command::new(dir.join("many")).arg("x").output().unwrap();
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(134), "{err}");
    assert!(err.contains("many.c:9:32 in main (inlined at "), "{err}");
    assert!(err.contains("many.c:305:"), "{err}");
}

#[test]
fn cxx_without_its_library_says_how_to_build_it() {
    let dir = workdir("cxx_missing_library");
    fs::write(
        dir.join("t.cpp"),
        "#include <vector>\nint main() { return std::vector<int>(3).size(); }\n",
    )
    .unwrap();
    // A runtime directory with no gimso-libcxx/ beside the archive.
    let libdir = dir.join("lib");
    fs::create_dir_all(&libdir).unwrap();
    fs::write(libdir.join("libgimso.a"), "").unwrap();
    let flag = format!("--gimso-libdir={}", libdir.display());
    for args in [
        vec!["-x", "c++", "-c", "t.cpp", "-o", "t.o", flag.as_str()],
        vec!["-x", "c++", "t.cpp", "-o", "t", flag.as_str()],
    ] {
        let out = gimso_cc(&dir, &args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(
            err.contains("the C++ standard library is not built")
                && err.contains("scripts/build-libcxx.sh"),
            "{err}"
        );
    }
    // A C compile does not need it.
    fs::write(dir.join("c.c"), "int f(void) { return 1; }\n").unwrap();
    let out = gimso_cc(&dir, &["-c", "c.c", "-o", "c.o", flag.as_str()]);
    assert!(out.status.success(), "{}", stderr(&out));
}
