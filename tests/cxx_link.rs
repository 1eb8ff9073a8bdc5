//! Mixed C and C++ programs: C objects from gimso-cc and C++ objects from
//! gimso-c++ link with either driver, `-lstdc++` (and `-lc++`) standing
//! for gimso's own libc++; the system's libstdc++ is refused. Sources in
//! `tests/c-link/`.

mod support;

use std::process::Command;

use support::run_ok;

fn compile(cc: &std::path::Path, dir: &std::path::Path, src: &str, obj: &str) {
    let src = support::root().join("tests/c-link").join(src);
    run_ok(
        Command::new(cc)
            .args(["-O2", "-c"])
            .arg(&src)
            .arg("-o")
            .arg(dir.join(obj)),
    );
}

#[test]
fn c_and_cxx_objects_link_with_either_driver() {
    let cc = support::gimso_cc();
    let cxx = cc.with_file_name("gimso-c++");
    let dir = support::scratch("cxx_link");
    std::fs::create_dir_all(&dir).unwrap();
    compile(cc, &dir, "c_side.c", "c_side.o");
    compile(&cxx, &dir, "cxx_side.cpp", "cxx_side.o");
    let objs = [dir.join("c_side.o"), dir.join("cxx_side.o")];
    // banana(6), fig(3), pear(4): (6*3 + 3)*3 + 4.
    let want = "total 67\n";
    let links: [(&std::path::Path, &[&str], &str); 3] = [
        (&cxx, &[], "by_cxx"),
        (cc, &["-lstdc++"], "by_cc_lstdcxx"),
        (cc, &["-lc++", "-lc++abi"], "by_cc_lcxx"),
    ];
    for (driver, extra, name) in links {
        let exe = dir.join(name);
        run_ok(
            Command::new(driver)
                .args(&objs)
                .args(extra)
                .arg("-o")
                .arg(&exe),
        );
        let out = run_ok(&mut Command::new(&exe));
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{name}");
    }
    // Without a C++ library the link names what is missing.
    let out = Command::new(cc)
        .args(&objs)
        .arg("-o")
        .arg(dir.join("no_cxx_lib"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no gimso wrapper"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&cxx)
        .args(["-stdlib=libstdc++", "-c"])
        .arg(support::root().join("tests/c-link/cxx_side.cpp"))
        .arg("-o")
        .arg(dir.join("refused.o"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("-stdlib=libstdc++"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
