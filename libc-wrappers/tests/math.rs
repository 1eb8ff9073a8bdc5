//! `<math.h>` wrappers: glibc's results, float arguments in their slots,
//! checked out-parameters.

mod support;

use gimso_libc_wrappers::math::*;
use support::*;

#[test]
fn double_functions() {
    assert_eq!(invoke(sqrt::entry, &[A::D(2.0)]).f64(), 2f64.sqrt());
    assert_eq!(invoke(pow::entry, &[A::D(2.0), A::D(10.0)]).f64(), 1024.0);
    assert_eq!(invoke(floor::entry, &[A::D(-1.5)]).f64(), -2.0);
    assert_eq!(invoke(fmod::entry, &[A::D(7.5), A::D(2.0)]).f64(), 1.5);
    assert_eq!(
        invoke(atan2::entry, &[A::D(1.0), A::D(1.0)]).f64(),
        1f64.atan2(1.0)
    );
    assert_eq!(invoke(ldexp::entry, &[A::D(1.5), A::I(4)]).f64(), 24.0);
    assert_eq!(invoke(lround::entry, &[A::D(2.5)]).i64(), 3);
}

#[test]
fn float_functions() {
    let r = invoke(sqrtf::entry, &[A::I(4.0f32.to_bits() as i64)]);
    assert_eq!(r.result.ret_bytes, 8);
    assert_eq!(f32::from_bits(r.word as u32), 2.0);
    let r = invoke(
        powf::entry,
        &[A::I(3.0f32.to_bits() as i64), A::I(2.0f32.to_bits() as i64)],
    );
    assert_eq!(f32::from_bits(r.word as u32), 9.0);
}

#[test]
fn out_parameters() {
    let e = buf(8);
    let m = invoke(frexp::entry, &[A::D(48.0), A::P(e)]).f64();
    assert_eq!((m, read(e, 4)), (0.75, 6i32.to_ne_bytes().to_vec()));
    let i = buf(8);
    let f = invoke(modf::entry, &[A::D(3.25), A::P(i)]).f64();
    assert_eq!((f, read(i, 8)), (0.25, 3.0f64.to_ne_bytes().to_vec()));
}

fn run(name: &str) {
    match name {
        "modf_small_target" => {
            invoke(modf::entry, &[A::D(3.25), A::P(buf(8).offset(4))]);
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn out_parameters_are_checked() {
    expect_error("modf_small_target", "out-of-bounds write");
}
