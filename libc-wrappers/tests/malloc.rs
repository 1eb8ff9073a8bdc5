//! The allocation wrappers: returned capabilities, bounds, realloc moving
//! contents and capabilities, alignment, and the free errors.

mod support;

use gimso_abi::{FlightPtr, MAX_ALIGN};
use gimso_libc_wrappers::malloc::*;
use gimso_libc_wrappers::mem::{load_ptr, store_ptr};
use gimso_shadow::ObjRef;
use support::*;

fn bounds(p: FlightPtr) -> usize {
    // SAFETY: tests pass runtime-issued capabilities.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    obj.upper() - obj.lower()
}

#[test]
fn malloc_and_calloc() {
    let p = invoke(malloc::entry, &[A::I(20)]).ptr();
    assert_eq!(p.intval(), p.lower());
    assert_eq!(bounds(p), 20, "bounds are exactly the size asked for");
    assert_eq!(p.intval() % 16, 0);
    let z = invoke(malloc::entry, &[A::I(0)]).ptr();
    assert_ne!(z.intval(), 0, "malloc(0) is a unique pointer");
    assert_eq!(bounds(z), 0);
    let c = invoke(calloc::entry, &[A::I(3), A::I(5)]).ptr();
    assert_eq!(bounds(c), 15);
    assert_eq!(read(c, 15), [0; 15]);
    let o = invoke(calloc::entry, &[A::I(-1), A::I(16)]).ptr();
    assert_eq!(o, FlightPtr::NULL, "overflowing calloc fails");
    assert_eq!(gimso_libc_wrappers::errno::get(), libc::ENOMEM);
    assert_eq!(invoke(malloc_usable_size::entry, &[A::P(p)]).i64(), 20);
    assert_eq!(
        invoke(malloc_usable_size::entry, &[A::P(FlightPtr::NULL)]).i64(),
        0
    );
    invoke(free::entry, &[A::P(p)]);
    invoke(free::entry, &[A::P(FlightPtr::NULL)]);
    assert_eq!(invoke(free::entry, &[A::P(c)]).result.ret_bytes, 0);
}

#[test]
fn realloc_moves_contents_and_capabilities() {
    let target = buf(8);
    let p = invoke(malloc::entry, &[A::I(16)]).ptr();
    write(p, b"12345678");
    store_ptr(p.offset(8), target);
    let q = invoke(realloc::entry, &[A::P(p), A::I(64)]).ptr();
    assert_eq!(bounds(q), 64);
    assert_eq!(read(q, 8), b"12345678");
    assert_eq!(load_ptr(q.offset(8)), target);
    // SAFETY: p is a runtime-issued capability.
    let old = unsafe { ObjRef::from_lower(p.lower()) };
    assert!(old.is_free(), "old object freed");
    let r = invoke(realloc::entry, &[A::P(q), A::I(4)]).ptr();
    assert_eq!(bounds(r), 4);
    assert_eq!(read(r, 4), b"1234");
    let n = invoke(realloc::entry, &[A::P(FlightPtr::NULL), A::I(8)]).ptr();
    assert_eq!(bounds(n), 8);
    assert_eq!(
        invoke(realloc::entry, &[A::P(n), A::I(0)]).ptr(),
        FlightPtr::NULL
    );
}

#[test]
fn aligned_allocation() {
    for align in [16i64, 64, 4096] {
        let p = invoke(aligned_alloc::entry, &[A::I(align), A::I(100)]).ptr();
        assert_eq!(p.intval() % align as usize, 0);
        assert_eq!(bounds(p), 100);
    }
    assert_eq!(
        invoke(aligned_alloc::entry, &[A::I(24), A::I(8)]).ptr(),
        FlightPtr::NULL
    );
    let out = buf(8);
    assert_eq!(
        invoke(posix_memalign::entry, &[A::P(out), A::I(256), A::I(10)]).i32(),
        0
    );
    let p = load_ptr(out);
    assert_eq!(p.intval() % 256, 0);
    assert_eq!(bounds(p), 10);
    assert_eq!(
        invoke(posix_memalign::entry, &[A::P(out), A::I(12), A::I(10)]).i32(),
        libc::EINVAL
    );
    assert_eq!(
        invoke(
            posix_memalign::entry,
            &[A::P(out), A::I(2 * MAX_ALIGN as i64), A::I(10)]
        )
        .i32(),
        libc::ENOMEM
    );
}

fn run(name: &str) {
    let p = invoke(malloc::entry, &[A::I(16)]).ptr();
    match name {
        "double_free" => {
            invoke(free::entry, &[A::P(p)]);
            invoke(free::entry, &[A::P(p)]);
        }
        "free_once" => {
            invoke(free::entry, &[A::P(p)]);
        }
        "free_interior" => {
            invoke(free::entry, &[A::P(p.offset(8))]);
        }
        "realloc_after_free" => {
            invoke(free::entry, &[A::P(p)]);
            invoke(realloc::entry, &[A::P(p), A::I(32)]);
        }
        "realloc_global" => {
            let g = gimso_libc_wrappers::stdio::STDOUT.pointer();
            invoke(realloc::entry, &[A::P(g), A::I(32)]);
        }
        "use_after_free_strlen" => {
            invoke(free::entry, &[A::P(p)]);
            invoke(gimso_libc_wrappers::string::strlen::entry, &[A::P(p)]);
        }
        "posix_memalign_bad_out" => {
            invoke(
                posix_memalign::entry,
                &[A::P(buf(8).offset(8)), A::I(64), A::I(8)],
            );
        }
        "malloc_no_arguments" => {
            place_args(&[]);
            invoke_with_bytes(malloc::entry, 0);
        }
        other => panic!("unknown scenario {other}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn free_errors() {
    expect_error("double_free", "double free");
    expect_silent("free_once");
    expect_error("free_interior", "invalid free of interior pointer");
    expect_error("realloc_after_free", "double free");
    expect_error("realloc_global", "invalid free of global object");
    expect_error("use_after_free_strlen", "use after free");
    expect_error("posix_memalign_bad_out", "out-of-bounds write");
    let o = expect_error("malloc_no_arguments", "argument size mismatch");
    assert!(o.stderr.contains("needed:     8"), "{}", o.stderr);
}
