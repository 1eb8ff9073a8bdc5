//! The printf engine through `sprintf`/`snprintf`/`vsnprintf`: output
//! byte-identical to glibc for every conversion, flag, width and precision.

mod support;

use gimso_abi::{FLAG_READONLY, FlightPtr};
use gimso_libc_wrappers::stdio::*;
use support::*;

/// Formats with `sprintf` into a fresh 512-byte buffer.
fn fmt(format: &str, args: &[A]) -> String {
    let out = buf(512);
    let mut all = vec![A::P(out), A::P(cstr(format))];
    all.extend_from_slice(args);
    let n = invoke(sprintf::entry, &all).i32();
    let s = read_cstr(out);
    assert_eq!(n as usize, s.len(), "sprintf result counts the bytes");
    s
}

/// What glibc's own snprintf prints for a format taking one argument of
/// the type of `v` (`i32`, `i64` or `f64`: the types a variadic call passes).
macro_rules! glibc {
    ($format:expr, $v:expr) => {{
        let f = std::ffi::CString::new($format).unwrap();
        let mut b = [0u8; 1024];
        // SAFETY: a format whose one conversion takes the type of `$v`.
        let n = unsafe { libc::snprintf(b.as_mut_ptr().cast(), b.len(), f.as_ptr(), $v) };
        String::from_utf8_lossy(&b[..n as usize]).into_owned()
    }};
}

#[test]
fn integers() {
    assert_eq!(
        fmt("%d|%i|%u", &[A::I(-42), A::I(7), A::I(-1)]),
        "-42|7|4294967295"
    );
    assert_eq!(
        fmt("%x|%X|%o", &[A::I(255), A::I(255), A::I(8)]),
        "ff|FF|10"
    );
    assert_eq!(
        fmt("%#x|%#o|%#X", &[A::I(255), A::I(8), A::I(0)]),
        "0xff|010|0"
    );
    assert_eq!(
        fmt("%5d|%-5d|%05d", &[A::I(42), A::I(42), A::I(-42)]),
        "   42|42   |-0042"
    );
    assert_eq!(
        fmt("%+d|% d|%+d", &[A::I(5), A::I(5), A::I(-5)]),
        "+5| 5|-5"
    );
    assert_eq!(
        fmt("%.3d|%8.3d|%.0d", &[A::I(7), A::I(-7), A::I(0)]),
        "007|    -007|"
    );
    assert_eq!(
        fmt("%hhd|%hd|%hhu", &[A::I(257), A::I(65537), A::I(-1)]),
        "1|1|255"
    );
    assert_eq!(
        fmt("%ld|%lld|%lu", &[A::I(i64::MIN), A::I(-3), A::I(-1)]),
        "-9223372036854775808|-3|18446744073709551615"
    );
    assert_eq!(
        fmt("%zu|%zd|%jd|%td", &[A::I(10), A::I(-10), A::I(1), A::I(2)]),
        "10|-10|1|2"
    );
    assert_eq!(
        fmt("%*d|%-*d|", &[A::I(4), A::I(1), A::I(3), A::I(2)]),
        "   1|2  |"
    );
    assert_eq!(
        fmt("%*d|", &[A::I(-4), A::I(1)]),
        "1   |",
        "negative * width means '-'"
    );
    assert_eq!(
        fmt("%.*d|%.*d", &[A::I(3), A::I(1), A::I(-1), A::I(0)]),
        "001|0"
    );
    // Only the low 4 bytes of an int slot count.
    assert_eq!(fmt("%d", &[A::I(0x1_0000_0005)]), "5");
    for f in ["%d", "%+08d", "%-8x", "%#o", "% .5i", "%X", "%#10.4x"] {
        for v in [0, 1, -1, 123456, i32::MIN, i32::MAX] {
            assert_eq!(
                fmt(f, &[A::I(v as i64)]),
                glibc!(f, v),
                "format {f} value {v}"
            );
        }
    }
}

#[test]
fn plain_formats_match_glibc() {
    // Formats made only of text, %%, and %d/%i/%u (with l ll j z t) or %s
    // take a path of their own that never calls glibc: digit for digit what
    // glibc prints, at every length of number.
    let mut values = vec![
        0i64,
        1,
        -1,
        i64::MIN,
        i64::MAX,
        i32::MIN as i64,
        u32::MAX as i64,
    ];
    let mut v = 1i64;
    for _ in 0..19 {
        values.extend([v - 1, v, v + 1, -v, -(v - 1)]);
        v = v.saturating_mul(10);
    }
    for f in ["%d", "%i", "%u", "x=%d;", "%%%u%%"] {
        for &v in &values {
            let v32 = v as i32;
            assert_eq!(fmt(f, &[A::I(v)]), glibc!(f, v32), "format {f} value {v}");
        }
    }
    for f in ["%ld", "%lld", "%lu", "%llu", "%ji", "%zu", "%td", "[%lli]"] {
        for &v in &values {
            assert_eq!(fmt(f, &[A::I(v)]), glibc!(f, v), "format {f} value {v}");
        }
    }
    assert_eq!(
        fmt(
            "%s=%d, %s%%",
            &[A::P(cstr("key")), A::I(-7), A::P(FlightPtr::NULL)]
        ),
        "key=-7, (null)%"
    );
    assert_eq!(fmt("no conversions", &[]), "no conversions");
    assert_eq!(fmt("", &[]), "");
    // One conversion outside the plain set sends the whole format through
    // the general engine, which takes the arguments in the same order.
    assert_eq!(
        fmt("%s %5d %u", &[A::P(cstr("a")), A::I(3), A::I(-1)]),
        "a     3 4294967295"
    );
    assert_eq!(fmt("%d%", &[A::I(4)]), "4");
}

#[test]
fn floats() {
    assert_eq!(
        fmt("%f|%.2f|%10.3f", &[A::D(3.25159), A::D(2.5), A::D(-1.0)]),
        "3.251590|2.50|    -1.000"
    );
    assert_eq!(
        fmt("%e|%E", &[A::D(12345.678), A::D(0.0)]),
        "1.234568e+04|0.000000E+00"
    );
    assert_eq!(
        fmt("%g|%g|%g", &[A::D(0.0001), A::D(1e20), A::D(100.0)]),
        "0.0001|1e+20|100"
    );
    assert_eq!(
        fmt("%#g|%+.3e", &[A::D(1.0), A::D(1.0)]),
        "1.00000|+1.000e+00"
    );
    assert_eq!(
        fmt("%f|%f", &[A::D(f64::INFINITY), A::D(-f64::NAN)]),
        "inf|-nan"
    );
    assert_eq!(fmt("%a", &[A::D(1.0)]), "0x1p+0");
    assert_eq!(fmt("%lf", &[A::D(1.5)]), "1.500000");
    for f in [
        "%f", "%.0f", "%e", "%g", "%-12.4g|", "%012.3f", "%G", "%.17g",
    ] {
        for v in [0.0, -0.0, 1.0 / 3.0, 1e300, 5e-324, 123456789.125, -2.5] {
            assert_eq!(fmt(f, &[A::D(v)]), glibc!(f, v), "format {f} value {v}");
        }
    }
    // A long double argument: 16 bytes aligned to 16 in the CC buffers.
    // 1.5 as x87 extended: mantissa 0xC000..., exponent 0x3fff.
    let ld = [0xC000_0000_0000_0000u64, 0x3fff];
    assert_eq!(
        fmt("%d %Lf %d", &[A::I(1), A::LD(ld), A::I(2)]),
        "1 1.500000 2"
    );
    // Full x87 precision: 1.0L / 3.0L.
    let third = [0xAAAA_AAAA_AAAA_AAABu64, 0x3ffd];
    assert_eq!(fmt("%.18Lf", &[A::LD(third)]), "0.333333333333333333");
    assert_eq!(fmt("%.20Le", &[A::LD(third)]), "3.33333333333333333342e-01");
    use gimso_libc_wrappers::format::{f64_to_f80, f80_to_f64};
    for d in [
        0.0,
        -2.5,
        1e300,
        5e-324,
        2.2250738585072014e-308,
        f64::INFINITY,
    ] {
        assert_eq!(f80_to_f64(f64_to_f80(d)), d, "{d}");
    }
    assert_eq!(f64_to_f80(1.5), ld);
}

#[test]
fn characters_strings_pointers() {
    assert_eq!(
        fmt(
            "%c%c%c",
            &[A::I(b'a' as i64), A::I(b'b' as i64), A::I(b'c' as i64)]
        ),
        "abc"
    );
    assert_eq!(
        fmt("[%3c][%-3c]", &[A::I(b'x' as i64), A::I(b'y' as i64)]),
        "[  x][y  ]"
    );
    let s = cstr("hello");
    assert_eq!(fmt("[%s]", &[A::P(s)]), "[hello]");
    assert_eq!(
        fmt("[%8s][%-8s]", &[A::P(s), A::P(s)]),
        "[   hello][hello   ]"
    );
    assert_eq!(
        fmt("[%.3s][%.*s]", &[A::P(s), A::I(2), A::P(s)]),
        "[hel][he]"
    );
    assert_eq!(fmt("[%s]", &[A::P(FlightPtr::NULL)]), "[(null)]");
    assert_eq!(fmt("[%.3s]", &[A::P(FlightPtr::NULL)]), "[]");
    // %.Ns reads at most N bytes: no terminator is needed within bounds.
    let raw = buf(8);
    write(raw, b"abcdefgh");
    assert_eq!(fmt("[%.8s]", &[A::P(raw)]), "[abcdefgh]");
    assert_eq!(fmt("%p", &[A::P(FlightPtr::NULL)]), "(nil)");
    assert_eq!(fmt("%p", &[A::P(s)]), format!("{:#x}", s.intval()));
    assert_eq!(
        fmt("[%20p]", &[A::P(FlightPtr::NULL)]),
        format!("[{:>20}]", "(nil)")
    );
    assert_eq!(fmt("100%%", &[]), "100%");
    assert_eq!(fmt("%5%|", &[]), glibc!("%5%|", 0));
    // Wide characters and strings.
    assert_eq!(fmt("%lc", &[A::I(b'W' as i64)]), "W");
    let w = buf(16);
    write(w, &[b'h', 0, 0, 0, b'i', 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(fmt("%ls|%S", &[A::P(w), A::P(w)]), "hi|hi");
    // Unknown conversions print as written.
    assert_eq!(fmt("%y|%5k", &[]), "%y|%5k");
}

#[test]
fn positional_arguments() {
    assert_eq!(
        fmt(
            "%2$s %1$s %2$s",
            &[A::P(cstr("world")), A::P(cstr("hello"))]
        ),
        "hello world hello"
    );
    assert_eq!(fmt("%1$*2$d|", &[A::I(7), A::I(4)]), "   7|");
    assert_eq!(fmt("%2$.1f %1$d", &[A::I(3), A::D(2.25)]), "2.2 3");
}

#[test]
fn percent_n_stores_the_count() {
    let target = buf(16);
    assert_eq!(fmt("abc%n def", &[A::P(target)]), "abc def");
    assert_eq!(read(target, 4), 3i32.to_ne_bytes());
    assert_eq!(fmt("hello%hhn", &[A::P(target.offset(8))]), "hello");
    assert_eq!(read(target, 9)[8], 5);
    assert_eq!(fmt("%5d%ln", &[A::I(1), A::P(target.offset(8))]), "    1");
    assert_eq!(read(target.offset(8), 8), 5i64.to_ne_bytes());
}

#[test]
fn errno_conversion() {
    gimso_libc_wrappers::errno::set(libc::ENOENT);
    assert_eq!(fmt("[%m]", &[]), "[No such file or directory]");
    assert_eq!(fmt("[%.2m]", &[]), "[No]");
}

#[test]
fn snprintf_truncates() {
    let out = buf(16);
    write(out, b"################");
    let n = invoke(
        snprintf::entry,
        &[
            A::P(out),
            A::I(6),
            A::P(cstr("%d-%s")),
            A::I(12345),
            A::P(cstr("xyz")),
        ],
    )
    .i32();
    assert_eq!(n, 9, "snprintf returns the full length");
    assert_eq!(read(out, 8), b"12345\0##");
    // n == 0: nothing is written (a null buffer is fine).
    let n = invoke(
        snprintf::entry,
        &[A::P(FlightPtr::NULL), A::I(0), A::P(cstr("abc")), A::I(0)],
    )
    .i32();
    assert_eq!(n, 3);
}

/// Builds a compiled caller's `va_list` over `args` the way gimso's
/// `va_start` does: a read-only object holding the argument words (and
/// their capabilities) and the x86-64 tag pointing into it.
fn va_list(args: &[A]) -> FlightPtr {
    let area = buf(8 * args.len().max(1));
    for (i, a) in args.iter().enumerate() {
        let at = area.offset(8 * i as isize);
        match *a {
            A::I(v) => write(at, &v.to_ne_bytes()),
            A::D(d) => write(at, &d.to_bits().to_ne_bytes()),
            A::P(p) => gimso_libc_wrappers::mem::store_ptr(at, p),
            _ => unreachable!(),
        }
    }
    // SAFETY: `area` is a fresh object of this thread.
    unsafe { gimso_shadow::ObjRef::from_lower(area.lower()) }
        .header()
        .aux
        .fetch_or(FLAG_READONLY, core::sync::atomic::Ordering::Release);
    let tag = buf(24);
    write(tag, &48i32.to_ne_bytes());
    write(tag.offset(4), &176i32.to_ne_bytes());
    gimso_libc_wrappers::mem::store_ptr(tag.offset(8), area);
    tag
}

#[test]
fn vsnprintf_reads_the_va_list_object() {
    let s = cstr("str");
    let ap = va_list(&[A::I(-5), A::P(s), A::D(0.5)]);
    let out = buf(64);
    let n = invoke(
        vsnprintf::entry,
        &[A::P(out), A::I(64), A::P(cstr("%d %s %.2f")), A::P(ap)],
    )
    .i32();
    assert_eq!(read_cstr(out), "-5 str 0.50");
    assert_eq!(n, 11);
    let ap = va_list(&[A::I(42)]);
    let out2 = buf(64);
    let n = invoke(vsprintf::entry, &[A::P(out2), A::P(cstr("<%x>")), A::P(ap)]).i32();
    assert_eq!((n, read_cstr(out2)), (4, "<2a>".to_owned()));
}
