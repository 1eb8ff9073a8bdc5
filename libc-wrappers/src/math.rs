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
        pub fn asinh(x: f64) -> f64;
        pub fn acosh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
        pub fn lgamma(x: f64) -> f64;
        pub fn logb(x: f64) -> f64;
        pub fn fdim(x: f64, y: f64) -> f64;
        pub fn nextafter(x: f64, y: f64) -> f64;
        pub fn fma(x: f64, y: f64, z: f64) -> f64;
        pub fn fmaf(x: f32, y: f32, z: f32) -> f32;
        pub fn scalbn(x: f64, e: i32) -> f64;
        pub fn scalbnf(x: f32, e: i32) -> f32;
        pub fn ldexpf(x: f32, e: i32) -> f32;
        pub fn ilogb(x: f64) -> i32;
        pub fn llround(x: f64) -> i64;
        pub fn lrint(x: f64) -> i64;
        pub fn llrint(x: f64) -> i64;
        pub fn lroundf(x: f32) -> i64;
        pub fn lrintf(x: f32) -> i64;
        pub fn frexpf(x: f32, e: *mut i32) -> f32;
        pub fn modff(x: f32, i: *mut f32) -> f32;
        pub fn sincos(x: f64, s: *mut f64, c: *mut f64);
        pub fn sincosf(x: f32, s: *mut f32, c: *mut f32);
        pub fn remquo(x: f64, y: f64, q: *mut i32) -> f64;
        pub fn remquof(x: f32, y: f32, q: *mut i32) -> f32;
        pub fn lgamma_r(x: f64, sign: *mut i32) -> f64;
        pub fn nan(tag: *const core::ffi::c_char) -> f64;
        pub fn nanf(tag: *const core::ffi::c_char) -> f32;
        pub fn tanf(x: f32) -> f32;
        pub fn asinf(x: f32) -> f32;
        pub fn acosf(x: f32) -> f32;
        pub fn atanf(x: f32) -> f32;
        pub fn sinhf(x: f32) -> f32;
        pub fn coshf(x: f32) -> f32;
        pub fn tanhf(x: f32) -> f32;
        pub fn exp2f(x: f32) -> f32;
        pub fn expm1f(x: f32) -> f32;
        pub fn log2f(x: f32) -> f32;
        pub fn log10f(x: f32) -> f32;
        pub fn log1pf(x: f32) -> f32;
        pub fn cbrtf(x: f32) -> f32;
        pub fn truncf(x: f32) -> f32;
        pub fn rintf(x: f32) -> f32;
        pub fn nearbyintf(x: f32) -> f32;
        pub fn hypotf(x: f32, y: f32) -> f32;
        pub fn fminf(x: f32, y: f32) -> f32;
        pub fn fmaxf(x: f32, y: f32) -> f32;
        pub fn copysignf(x: f32, y: f32) -> f32;
        pub fn remainderf(x: f32, y: f32) -> f32;
        pub fn fdimf(x: f32, y: f32) -> f32;
        pub fn nextafterf(x: f32, y: f32) -> f32;
        pub fn erff(x: f32) -> f32;
        pub fn tgammaf(x: f32) -> f32;
        pub fn lgammaf(x: f32) -> f32;
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
    log, log2, log10, log1p, floor, ceil, round, trunc, rint, nearbyint, fabs, asinh, acosh,
    atanh, erf, erfc, tgamma, lgamma, logb);
math2!(f64: pow, atan2, fmod, hypot, fmin, fmax, copysign, remainder, fdim, nextafter);
math1!(f32: sqrtf, sinf, cosf, expf, logf, floorf, ceilf, fabsf, roundf, tanf, asinf, acosf,
    atanf, sinhf, coshf, tanhf, exp2f, expm1f, log2f, log10f, log1pf, cbrtf, truncf, rintf,
    nearbyintf, erff, tgammaf, lgammaf);
math2!(f32: powf, fmodf, atan2f, hypotf, fminf, fmaxf, copysignf, remainderf, fdimf,
    nextafterf);

/// Functions of one value to a value of another type.
macro_rules! math_to {
    ($from:ty => $to:ty: $($name:ident),*) => {$(
        wrapper! {
            #[doc = concat!("`", stringify!($name), "` from libm.")]
            fn $name(x: $from) -> $to {
                // SAFETY: a pure libm function of its value argument.
                unsafe { libm::$name(x) }
            }
        }
    )*};
}

math_to!(f64 => i64: llround, lrint, llrint);
math_to!(f32 => i64: lroundf, lrintf);
math_to!(f64 => i32: ilogb);

wrapper! {
    /// `double fma(double, double, double)`.
    fn fma(x: f64, y: f64, z: f64) -> f64 {
        // SAFETY: a pure libm function.
        unsafe { libm::fma(x, y, z) }
    }
}

wrapper! {
    /// `float fmaf(float, float, float)`.
    fn fmaf(x: f32, y: f32, z: f32) -> f32 {
        // SAFETY: a pure libm function.
        unsafe { libm::fmaf(x, y, z) }
    }
}

wrapper! {
    /// `double scalbn(double, int)`.
    fn scalbn(x: f64, e: i32) -> f64 {
        // SAFETY: a pure libm function.
        unsafe { libm::scalbn(x, e) }
    }
}

wrapper! {
    /// `float scalbnf(float, int)`.
    fn scalbnf(x: f32, e: i32) -> f32 {
        // SAFETY: a pure libm function.
        unsafe { libm::scalbnf(x, e) }
    }
}

wrapper! {
    /// `float ldexpf(float, int)`.
    fn ldexpf(x: f32, e: i32) -> f32 {
        // SAFETY: a pure libm function.
        unsafe { libm::ldexpf(x, e) }
    }
}

wrapper! {
    /// `float frexpf(float x, int *e)`: `*e` is a checked 4-byte write.
    fn frexpf(x: f32, e: FlightPtr) -> f32 {
        let mut exp = 0;
        // SAFETY: `exp` is a local.
        let r = unsafe { libm::frexpf(x, &mut exp) };
        mem::write_int(e, &exp.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `float modff(float x, float *i)`: `*i` is a checked 4-byte write.
    fn modff(x: f32, i: FlightPtr) -> f32 {
        let mut int = 0.0;
        // SAFETY: `int` is a local.
        let r = unsafe { libm::modff(x, &mut int) };
        mem::write_int(i, &int.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `void sincos(double x, double *s, double *c)`: both checked 8-byte
    /// writes, checked before either is written.
    fn sincos(x: f64, s: FlightPtr, c: FlightPtr) -> () {
        mem::check_write(s, 8);
        mem::check_write(c, 8);
        let (mut sv, mut cv) = (0.0, 0.0);
        // SAFETY: locals.
        unsafe { libm::sincos(x, &mut sv, &mut cv) };
        mem::write_int(s, &sv.to_ne_bytes());
        mem::write_int(c, &cv.to_ne_bytes());
    }
}

wrapper! {
    /// `void sincosf(float x, float *s, float *c)`.
    fn sincosf(x: f32, s: FlightPtr, c: FlightPtr) -> () {
        mem::check_write(s, 4);
        mem::check_write(c, 4);
        let (mut sv, mut cv) = (0.0, 0.0);
        // SAFETY: locals.
        unsafe { libm::sincosf(x, &mut sv, &mut cv) };
        mem::write_int(s, &sv.to_ne_bytes());
        mem::write_int(c, &cv.to_ne_bytes());
    }
}

wrapper! {
    /// `double remquo(double x, double y, int *q)`.
    fn remquo(x: f64, y: f64, q: FlightPtr) -> f64 {
        let mut quo = 0;
        // SAFETY: a local.
        let r = unsafe { libm::remquo(x, y, &mut quo) };
        mem::write_int(q, &quo.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `float remquof(float x, float y, int *q)`.
    fn remquof(x: f32, y: f32, q: FlightPtr) -> f32 {
        let mut quo = 0;
        // SAFETY: a local.
        let r = unsafe { libm::remquof(x, y, &mut quo) };
        mem::write_int(q, &quo.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `double lgamma_r(double x, int *sign)`.
    fn lgamma_r(x: f64, sign: FlightPtr) -> f64 {
        let mut sg = 0;
        // SAFETY: a local.
        let r = unsafe { libm::lgamma_r(x, &mut sg) };
        mem::write_int(sign, &sg.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `double nan(const char *tag)`: the tag is a checked C string.
    fn nan(tag: FlightPtr) -> f64 {
        let t = mem::c_string_nul(tag);
        // SAFETY: a NUL-terminated copy.
        unsafe { libm::nan(t.as_ptr().cast()) }
    }
}

wrapper! {
    /// `float nanf(const char *tag)`.
    fn nanf(tag: FlightPtr) -> f32 {
        let t = mem::c_string_nul(tag);
        // SAFETY: a NUL-terminated copy.
        unsafe { libm::nanf(t.as_ptr().cast()) }
    }
}

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
