//! `gimso-cc`'s command line: what a Makefile passes is understood, what
//! would undo gimso's guarantees is refused with a clear error.

use std::path::PathBuf;

use gimso_pass::driver::args::{Input, Mode, parse, parse_as};

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn a_typical_compile_and_link() {
    let inv = parse(&args("-O2 -g -Wall -Iinclude -I /usr/local/include -DNDEBUG -DX=1 -UY -std=c11 -fPIC -c foo.c -o foo.o -MMD -MF foo.d")).unwrap();
    assert_eq!(inv.mode, Mode::Compile);
    assert_eq!(inv.opt_level, "2");
    assert_eq!(inv.inputs, vec![Input::C(PathBuf::from("foo.c"))]);
    assert_eq!(inv.output, Some(PathBuf::from("foo.o")));
    for f in [
        "-g",
        "-Wall",
        "-Iinclude",
        "-I/usr/local/include",
        "-DNDEBUG",
        "-DX=1",
        "-UY",
        "-std=c11",
        "-fPIC",
        "-MMD",
    ] {
        assert!(
            inv.compile_flags.contains(&f.to_owned()),
            "{f} missing from {:?}",
            inv.compile_flags
        );
    }
    assert!(inv.compile_flags.windows(2).any(|w| w == ["-MF", "foo.d"]));

    let inv = parse(&args(
        "main.o util.o -L/opt/lib -lm -lz -pthread -Wl,--as-needed -o prog",
    ))
    .unwrap();
    assert_eq!(inv.mode, Mode::Link);
    assert_eq!(
        inv.inputs,
        vec![
            Input::Object(PathBuf::from("main.o")),
            Input::Object(PathBuf::from("util.o")),
            Input::Library("m".to_owned()),
            Input::Library("z".to_owned()),
        ]
    );
    assert_eq!(
        inv.link_flags,
        vec!["-L/opt/lib", "-pthread", "-Wl,--as-needed"]
    );
    assert_eq!(inv.output, Some(PathBuf::from("prog")));
}

#[test]
fn modes_and_levels() {
    assert_eq!(parse(&args("-S a.c")).unwrap().mode, Mode::Assemble);
    assert_eq!(parse(&args("-E a.c")).unwrap().mode, Mode::Preprocess);
    assert_eq!(parse(&args("--version")).unwrap().mode, Mode::Version);
    // Build systems' probes: answered by clang, with no input files.
    for probe in [
        "-dumpversion",
        "-dumpmachine",
        "-print-search-dirs",
        "-print-file-name=libc.so",
    ] {
        assert_eq!(
            parse(&args(probe)).unwrap().mode,
            Mode::Query(vec![probe.to_owned()]),
            "{probe}"
        );
    }
    assert_eq!(
        parse(&args("-Wl,--version")).unwrap().mode,
        Mode::Query(vec!["-Wl,--version".to_owned()])
    );
    assert!(parse(&args("-Wl,--as-needed")).is_err(), "no input files");
    assert_eq!(parse(&args("a.c")).unwrap().opt_level, "0");
    assert_eq!(parse(&args("-O a.c")).unwrap().opt_level, "1");
    assert_eq!(parse(&args("-Os a.c")).unwrap().opt_level, "s");
    assert_eq!(parse(&args("-Ofast a.c")).unwrap().opt_level, "3");
    assert_eq!(
        parse(&args("-x c prog.txt")).unwrap().inputs,
        vec![Input::C(PathBuf::from("prog.txt"))]
    );
}

#[test]
fn cxx_sources() {
    // gimso-c++ takes C++ sources; gimso-cc takes them after `-x c++`.
    let inv = parse_as(&args("-c a.cpp b.cc"), true).unwrap();
    assert!(inv.cxx);
    assert_eq!(inv.inputs.len(), 2);
    let inv = parse(&args("-x c++ a.cpp")).unwrap();
    assert!(inv.cxx);
    assert!(!parse(&args("a.c")).unwrap().cxx);
    // `-x c` in gimso-c++ compiles what follows as C.
    assert!(!parse_as(&args("-x c a.c"), true).unwrap().cxx);
}

#[test]
fn refusals_name_the_problem() {
    let err = |s: &str| parse(&args(s)).unwrap_err().to_string();
    assert!(err("-fsanitize=address a.c").contains("'-fsanitize=address' is not supported"));
    assert!(err("-fdelete-null-pointer-checks a.c").contains("delete the checks"));
    assert!(err("--frobnicate a.c").contains("unsupported option '--frobnicate'"));
    assert!(err("a.cpp").contains("gimso-c++"));
    assert!(err("start.S").contains("assembly"));
    assert!(err("-O9 a.c").contains("-O9"));
    assert!(err("-x objective-c a.m").contains("C and C++ only"));
    assert!(err("-Wall").contains("no input files"));
    assert!(err("-c a.c b.c -o x.o").contains("several source files"));
    assert!(err("-o").contains("missing value after '-o'"));
    assert!(err("-fsanitize=address a.c").starts_with("gimso-cc: error: "));
}
