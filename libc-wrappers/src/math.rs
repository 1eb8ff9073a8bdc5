//! `<math.h>`: glibc's libm behind generic entries (no pointers, except
//! `frexp`/`modf`, whose out-parameters are checked).

use gimso_abi::FlightPtr;

use crate::mem;
use crate::wrapper;

mod libm {
    unsafe extern "C" {
        pub fn sqrt(x: f64) -> f64;
        pub fn cbrt(x: f64) -> f64;
        pub fn sin(x: f64) -> f64;
        pub fn cos(x: f64) -> f64;
        pub fn tan(x: f64) -> f64;
        pub fn asin(x: f64) -> f64;
        pub fn acos(x: f64) -> f64;
        pub fn atan(x: f64) -> f64;
        pub fn sinh(x: f64) -> f64;
        pub fn cosh(x: f64) -> f64;
        pub fn tanh(x: f64) -> f64;
        pub fn exp(x: f64) -> f64;
        pub fn exp2(x: f64) -> f64;
        pub fn expm1(x: f64) -> f64;
        pub fn log(x: f64) -> f64;
        pub fn log2(x: f64) -> f64;
        pub fn log10(x: f64) -> f64;
        pub fn log1p(x: f64) -> f64;
        pub fn floor(x: f64) -> f64;
        pub fn ceil(x: f64) -> f64;
        pub fn round(x: f64) -> f64;
        pub fn trunc(x: f64) -> f64;
        pub fn rint(x: f64) -> f64;
        pub fn nearbyint(x: f64) -> f64;
        pub fn fabs(x: f64) -> f64;
        pub fn pow(x: f64, y: f64) -> f64;
        pub fn atan2(y: f64, x: f64) -> f64;
        pub fn fmod(x: f64, y: f64) -> f64;
        pub fn hypot(x: f64, y: f64) -> f64;
        pub fn fmin(x: f64, y: f64) -> f64;
        pub fn fmax(x: f64, y: f64) -> f64;
        pub fn copysign(x: f64, y: f64) -> f64;
        pub fn remainder(x: f64, y: f64) -> f64;
        pub fn ldexp(x: f64, e: i32) -> f64;
        pub fn frexp(x: f64, e: *mut i32) -> f64;
        pub fn modf(x: f64, i: *mut f64) -> f64;
        pub fn lround(x: f64) -> i64;
        pub fn sqrtf(x: f32) -> f32;
        pub fn sinf(x: f32) -> f32;
        pub fn cosf(x: f32) -> f32;
        pub fn expf(x: f32) -> f32;
        pub fn logf(x: f32) -> f32;
        pub fn floorf(x: f32) -> f32;
        pub fn ceilf(x: f32) -> f32;
        pub fn fabsf(x: f32) -> f32;
        pub fn roundf(x: f32) -> f32;
        pub fn powf(x: f32, y: f32) -> f32;
        pub fn fmodf(x: f32, y: f32) -> f32;
        pub fn atan2f(y: f32, x: f32) -> f32;
    }
}

macro_rules! math1 {
    ($t:ty: $($name:ident),*) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "` from libm.")]
            fn $name(x: $t) -> $t {
                // SAFETY: a pure libm function of its value argument.
                unsafe { libm::$name(x) }
            }
        }
    )*};
}

macro_rules! math2 {
    ($t:ty: $($name:ident),*) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "` from libm.")]
            fn $name(x: $t, y: $t) -> $t {
                // SAFETY: a pure libm function of its value arguments.
                unsafe { libm::$name(x, y) }
            }
        }
    )*};
}

math1!(f64: sqrt, cbrt, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, exp, exp2, expm1,
    log, log2, log10, log1p, floor, ceil, round, trunc, rint, nearbyint, fabs);
math2!(f64: pow, atan2, fmod, hypot, fmin, fmax, copysign, remainder);
math1!(f32: sqrtf, sinf, cosf, expf, logf, floorf, ceilf, fabsf, roundf);
math2!(f32: powf, fmodf, atan2f);

wrapper! {
    /// `double ldexp(double x, int e)`.
    fn ldexp(x: f64, e: i32) -> f64 {
        // SAFETY: a pure libm function.
        unsafe { libm::ldexp(x, e) }
    }
}

wrapper! {
    /// `long lround(double x)`.
    fn lround(x: f64) -> i64 {
        // SAFETY: a pure libm function.
        unsafe { libm::lround(x) }
    }
}

wrapper! {
    /// `double frexp(double x, int *e)`: `*e` is a checked 4-byte write.
    fn frexp(x: f64, e: FlightPtr) -> f64 {
        let mut exp = 0;
        // SAFETY: `exp` is a local int.
        let r = unsafe { libm::frexp(x, &mut exp) };
        mem::write_int(e, &exp.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `double modf(double x, double *i)`: `*i` is a checked 8-byte write.
    fn modf(x: f64, i: FlightPtr) -> f64 {
        let mut int = 0.0;
        // SAFETY: `int` is a local double.
        let r = unsafe { libm::modf(x, &mut int) };
        mem::write_int(i, &int.to_ne_bytes());
        r
    }
}
