//! Reading: `fopen`/`fgets`/`fgetc`/`fread`/`fclose` on `FILE` objects,
//! with the bounds of the destination checked and closed files trapping.

mod support;

use gimso_abi::FlightPtr;
use gimso_libc_wrappers::stdio::*;
use support::*;

fn temp_file(name: &str, contents: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("gimso-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn read_a_file() {
    let path = temp_file("lines.txt", b"first line\nsecond\nxyz");
    let f = invoke(fopen::entry, &[A::P(cstr(&path)), A::P(cstr("r"))]).ptr();
    assert_ne!(f.lower(), 0);
    let line = buf(64);
    let r = invoke(fgets::entry, &[A::P(line), A::I(64), A::P(f)]).ptr();
    assert_eq!(r, line);
    assert_eq!(read_cstr(line), "first line\n");
    let r = invoke(fgets::entry, &[A::P(line), A::I(4), A::P(f)]).ptr();
    assert_eq!(r, line);
    assert_eq!(read_cstr(line), "sec");
    assert_eq!(invoke(fgetc::entry, &[A::P(f)]).i32(), b'o' as i32);
    let data = buf(16);
    let n = invoke(fread::entry, &[A::P(data), A::I(1), A::I(16), A::P(f)]).i64();
    assert_eq!(n, 6);
    assert_eq!(read(data, 6), b"nd\nxyz");
    assert_ne!(invoke(feof::entry, &[A::P(f)]).i32(), 0);
    assert_eq!(
        invoke(fgets::entry, &[A::P(line), A::I(64), A::P(f)]).ptr(),
        FlightPtr::NULL
    );
    assert_eq!(invoke(fclose::entry, &[A::P(f)]).i32(), 0);
    let missing = invoke(
        fopen::entry,
        &[A::P(cstr("/nonexistent/x")), A::P(cstr("r"))],
    )
    .ptr();
    assert_eq!(missing, FlightPtr::NULL);
    assert_eq!(gimso_libc_wrappers::errno::get(), libc::ENOENT);
}

fn run(name: &str) {
    let path = temp_file(&format!("{name}.txt"), b"0123456789abcdef\n");
    let f = invoke(fopen::entry, &[A::P(cstr(&path)), A::P(cstr("r"))]).ptr();
    match name {
        "fgets_small_buffer" => {
            invoke(fgets::entry, &[A::P(buf(8)), A::I(64), A::P(f)]);
        }
        "fgets_bounded" => {
            invoke(fgets::entry, &[A::P(buf(8)), A::I(8), A::P(f)]);
        }
        "fread_small_buffer" => {
            invoke(fread::entry, &[A::P(buf(8)), A::I(4), A::I(4), A::P(f)]);
        }
        "use_after_fclose" => {
            invoke(fclose::entry, &[A::P(f)]);
            invoke(fgetc::entry, &[A::P(f)]);
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn reads_are_checked() {
    expect_error("fgets_small_buffer", "out-of-bounds write");
    expect_silent("fgets_bounded");
    expect_error("fread_small_buffer", "out-of-bounds write");
    expect_error("use_after_fclose", "use after free");
}
