//! The standard streams and output functions, and the safety checks of
//! the printf family, each run in a child process.

mod support;

use gimso_abi::{FLAG_GLOBAL, FlightPtr, HEADER_SIZE, SpecialKind, aux_shadow};
use gimso_libc_wrappers::mem::load_ptr;
use gimso_libc_wrappers::stdio::*;
use support::*;

/// What compiled code gets when it reads `extern FILE *stdout`.
fn c_stdout() -> FlightPtr {
    load_ptr(STDOUT.pointer())
}

fn c_stderr() -> FlightPtr {
    load_ptr(STDERR.pointer())
}

fn run(name: &str) {
    match name {
        "print_mix" => {
            invoke(printf::entry, &[A::P(cstr("a=%d\n")), A::I(1)]);
            invoke(puts::entry, &[A::P(cstr("line"))]);
            invoke(putchar::entry, &[A::I(b'x' as i64)]);
            invoke(fputs::entry, &[A::P(cstr("y\n")), A::P(c_stdout())]);
            invoke(fputc::entry, &[A::I(b'!' as i64), A::P(c_stdout())]);
            invoke(
                fprintf::entry,
                &[
                    A::P(c_stdout()),
                    A::P(cstr("%s%c")),
                    A::P(cstr("z")),
                    A::I(b'\n' as i64),
                ],
            );
            invoke(
                fprintf::entry,
                &[A::P(c_stderr()), A::P(cstr("to stderr\n"))],
            );
            let r = invoke(fflush::entry, &[A::P(FlightPtr::NULL)]).i32();
            assert_eq!(r, 0);
            let n = invoke(
                printf::entry,
                &[
                    A::P(cstr("%s|%5.1f|%-3d|\n")),
                    A::P(cstr("s")),
                    A::D(2.25),
                    A::I(7),
                ],
            )
            .i32();
            assert_eq!(n, 13);
            assert_eq!(invoke(puts::entry, &[A::P(cstr("abc"))]).i32(), 4);
        }
        "fwrite" => {
            let b = cstr("0123456789");
            let n = invoke(
                fwrite::entry,
                &[A::P(b), A::I(2), A::I(3), A::P(c_stdout())],
            )
            .i64();
            assert_eq!(n, 3);
        }
        "fwrite_oob" => {
            let b = cstr("0123456");
            invoke(
                fwrite::entry,
                &[A::P(b), A::I(3), A::I(3), A::P(c_stdout())],
            );
        }
        "perror" => {
            gimso_libc_wrappers::errno::set(libc::EACCES);
            invoke(perror::entry, &[A::P(cstr("opening"))]);
        }
        "fputs_data_object" => {
            invoke(fputs::entry, &[A::P(cstr("x")), A::P(buf(16))]);
        }
        "fputs_null_capability" => {
            let forged = FlightPtr::from_int(c_stdout().intval());
            invoke(fputs::entry, &[A::P(cstr("x")), A::P(forged)]);
        }
        "fprintf_function_as_file" => {
            invoke(
                fprintf::entry,
                &[A::P(printf::OBJECT.pointer()), A::P(cstr("x"))],
            );
        }
        "printf_s_int" => {
            invoke(printf::entry, &[A::P(cstr("%s\n")), A::I(42)]);
        }
        "printf_s_good" => {
            invoke(printf::entry, &[A::P(cstr("%s\n")), A::P(cstr("fine"))]);
        }
        "printf_s_unterminated" => {
            let b = buf(8);
            write(b, b"abcdefgh");
            invoke(printf::entry, &[A::P(cstr("%s\n")), A::P(b)]);
        }
        "printf_missing_argument" => {
            invoke(printf::entry, &[A::P(cstr("%d %d\n")), A::I(1)]);
        }
        "printf_no_format" => {
            place_args(&[]);
            invoke_with_bytes(printf::entry, 0);
        }
        "sprintf_overflow" => {
            let b = buf(8);
            invoke(
                sprintf::entry,
                &[A::P(b), A::P(cstr("%s")), A::P(cstr("12345678"))],
            );
        }
        "sprintf_fits" => {
            let b = buf(8);
            invoke(
                sprintf::entry,
                &[A::P(b), A::P(cstr("%s")), A::P(cstr("1234567"))],
            );
        }
        "percent_n_into_short" => {
            // A `short` at the end of its object: %n writes an int.
            let b = buf(8);
            invoke(
                sprintf::entry,
                &[A::P(buf(16)), A::P(cstr("ab%n")), A::P(b.offset(6))],
            );
        }
        "percent_hn_into_short" => {
            let b = buf(8);
            invoke(
                sprintf::entry,
                &[A::P(buf(16)), A::P(cstr("ab%hn")), A::P(b.offset(6))],
            );
            assert_eq!(read(b.offset(6), 2), 2u16.to_ne_bytes());
        }
        "vprintf_past_va_object" => {
            // A va_list area one word long, read for two words.
            let area = buf(8);
            let tag = buf(24);
            gimso_libc_wrappers::mem::store_ptr(tag.offset(8), area);
            invoke(vprintf::entry, &[A::P(cstr("%d %d\n")), A::P(tag)]);
        }
        "stdout_reassigned" => {
            // `stdout = stderr;` then printf writes to stderr.
            gimso_libc_wrappers::mem::store_ptr(STDOUT.pointer(), c_stderr());
            invoke(printf::entry, &[A::P(cstr("moved %d\n")), A::I(1)]);
            gimso_libc_wrappers::mem::store_ptr(STDOUT.pointer(), STDOUT_FILE.pointer());
            invoke(printf::entry, &[A::P(cstr("back\n"))]);
        }
        "printf_after_fclose_stdout" => {
            invoke(fclose::entry, &[A::P(c_stdout())]);
            invoke(printf::entry, &[A::P(cstr("closed\n"))]);
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn stream_globals_are_laid_out_like_compiled_globals() {
    for (g, file) in [
        (&STDIN, &STDIN_FILE),
        (&STDOUT, &STDOUT_FILE),
        (&STDERR, &STDERR_FILE),
    ] {
        let lower = g.lower();
        // SAFETY: the globals are statics with a header below the payload.
        let (upper, aux) = unsafe {
            let h = (lower - HEADER_SIZE) as *const u64;
            (h.read() as usize, h.add(1).read())
        };
        assert_eq!(upper, lower + 8, "one-word payload");
        assert_ne!(aux & FLAG_GLOBAL, 0);
        assert_eq!(SpecialKind::from_aux(aux), Some(SpecialKind::None));
        assert_eq!(aux_shadow(aux, lower), Some(upper), "inline shadow word");
        let f = load_ptr(g.pointer());
        assert_eq!(
            f,
            file.pointer(),
            "holds the FILE object with its capability"
        );
        // SAFETY: as above, for the FILE special.
        let (fupper, faux) = unsafe {
            let h = (f.lower() - HEADER_SIZE) as *const u64;
            (h.read() as usize, h.add(1).read())
        };
        assert_eq!(fupper, f.lower(), "specials have upper == lower");
        assert_eq!(SpecialKind::from_aux(faux), Some(SpecialKind::File));
    }
}

#[test]
fn output_order_matches_c_stdio() {
    let o = expect_silent("print_mix");
    assert_eq!(o.output(), "a=1\nline\nxy\n!z\ns|  2.2|7  |\nabc\n");
    assert!(o.stderr.contains("to stderr\n"), "{}", o.stderr);
}

#[test]
fn printf_follows_the_stdout_variable() {
    let o = expect_silent("stdout_reassigned");
    assert_eq!(o.output(), "back\n");
    assert!(o.stderr.contains("moved 1\n"), "{}", o.stderr);
    expect_error("printf_after_fclose_stdout", "use after free");
}

#[test]
fn fwrite_and_perror() {
    assert_eq!(expect_silent("fwrite").output(), "012345");
    expect_error("fwrite_oob", "out-of-bounds read");
    let o = expect_silent("perror");
    assert!(
        o.stderr.contains("opening: Permission denied\n"),
        "{}",
        o.stderr
    );
}

#[test]
fn file_pointers_are_checked() {
    let o = expect_error("fputs_data_object", "invalid FILE pointer");
    assert!(o.stderr.contains("data object"), "{}", o.stderr);
    expect_error(
        "fputs_null_capability",
        "access through pointer with null capability",
    );
    expect_error("fprintf_function_as_file", "invalid FILE pointer");
}

#[test]
fn printf_checks_its_arguments() {
    let o = expect_error(
        "printf_s_int",
        "access through pointer with null capability",
    );
    assert!(o.stderr.contains("capability: null"), "{}", o.stderr);
    assert_eq!(expect_silent("printf_s_good").output(), "fine\n");
    expect_error("printf_s_unterminated", "out-of-bounds read");
    let o = expect_error("printf_missing_argument", "argument size mismatch");
    assert!(o.stderr.contains("printf"), "{}", o.stderr);
    expect_error("printf_no_format", "argument size mismatch");
    expect_error("vprintf_past_va_object", "out-of-bounds read");
}

#[test]
fn printf_writes_are_checked() {
    expect_error("sprintf_overflow", "out-of-bounds write");
    expect_silent("sprintf_fits");
    let o = expect_error("percent_n_into_short", "out-of-bounds write");
    assert!(o.stderr.contains("4-byte write"), "{}", o.stderr);
    expect_silent("percent_hn_into_short");
}
