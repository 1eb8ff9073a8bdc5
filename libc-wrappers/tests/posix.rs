//! The POSIX wrappers called as compiled code calls them: objects they
//! make (DIR specials, mappings, dlerror strings), the checks before any
//! I/O, and the refusals; safety errors are checked in child processes.

mod support;

use gimso_abi::{FLAG_FREE, FLAG_READONLY, FlightPtr, HEADER_SIZE, SpecialKind};
use gimso_libc_wrappers::errno;
use gimso_libc_wrappers::posix::{dir::*, fd::*, fs::*, mman::*, process::*};
use support::*;

/// `(upper, aux)` of the object `p` points into (unchecked test read).
fn header(p: FlightPtr) -> (usize, u64) {
    // SAFETY: tests only pass capabilities the runtime issued.
    unsafe {
        let h = (p.lower() - HEADER_SIZE) as *const u64;
        (h.read() as usize, h.add(1).read())
    }
}

/// A pipe holding `data`: `(read end, write end)`.
fn pipe_with(data: &[u8]) -> (i32, i32) {
    let fds = buf(8);
    assert_eq!(invoke(pipe::entry, &[A::P(fds)]).i32(), 0);
    let raw = read(fds, 8);
    let r = i32::from_ne_bytes(raw[..4].try_into().unwrap());
    let w = i32::from_ne_bytes(raw[4..].try_into().unwrap());
    let src = buf(data.len().max(1));
    write(src, data);
    let n = invoke(
        write::entry,
        &[A::I(w as i64), A::P(src), A::I(data.len() as i64)],
    )
    .i64();
    assert_eq!(n, data.len() as i64);
    (r, w)
}

fn run(name: &str) {
    match name {
        "read_short" => {
            let (r, _) = pipe_with(&[7u8; 64]);
            let dst = buf(8);
            invoke(read::entry, &[A::I(r as i64), A::P(dst), A::I(64)]);
        }
        "readdir_not_dir" => {
            invoke(readdir::entry, &[A::P(buf(32))]);
        }
        "closedir_twice" => {
            let d = invoke(opendir::entry, &[A::P(cstr("/"))]).ptr();
            assert_eq!(invoke(closedir::entry, &[A::P(d)]).i32(), 0);
            invoke(closedir::entry, &[A::P(d)]);
        }
        "fcntl_missing_int" => {
            // F_SETFL needs its int argument.
            invoke(fcntl::entry, &[A::I(0), A::I(libc::F_SETFL as i64)]);
        }
        "open_creat_missing_mode" => {
            invoke(
                open::entry,
                &[
                    A::P(cstr("/tmp/gimso-never-created")),
                    A::I((libc::O_CREAT | libc::O_WRONLY) as i64),
                ],
            );
        }
        "mmap_readonly_write" => {
            let p = invoke(
                mmap::entry,
                &[
                    A::P(FlightPtr::NULL),
                    A::I(4096),
                    A::I(libc::PROT_READ as i64),
                    A::I((libc::MAP_PRIVATE | libc::MAP_ANONYMOUS) as i64),
                    A::I(-1),
                    A::I(0),
                ],
            )
            .ptr();
            let (r, _) = pipe_with(b"x");
            invoke(read::entry, &[A::I(r as i64), A::P(p), A::I(1)]);
        }
        "uname_short" => {
            invoke(uname::entry, &[A::P(buf(100))]);
        }
        _ => panic!("unknown scenario {name}"),
    }
}

#[test]
fn scenario_child() {
    child_main(run);
}

#[test]
fn misuse_is_reported() {
    expect_error("read_short", "out-of-bounds write");
    expect_error("readdir_not_dir", "invalid DIR pointer");
    expect_error("closedir_twice", "use after free");
    expect_error("fcntl_missing_int", "argument size mismatch");
    expect_error("open_creat_missing_mode", "argument size mismatch");
    expect_error("mmap_readonly_write", "write to read-only object");
    expect_error("uname_short", "out-of-bounds write");
}

#[test]
fn short_read_keeps_the_rest_of_the_buffer() {
    let (r, w) = pipe_with(b"abc");
    let dst = buf(16);
    write(dst, &[b'#'; 16]);
    let n = invoke(read::entry, &[A::I(r as i64), A::P(dst), A::I(16)]).i64();
    assert_eq!(n, 3);
    assert_eq!(read(dst, 16), b"abc#############");
    for fd in [r, w] {
        assert_eq!(invoke(close::entry, &[A::I(fd as i64)]).i32(), 0);
    }
    // A descriptor no thread can have open: closing `r` again would race
    // with the other tests of this binary, which may reuse its number.
    assert_eq!(invoke(close::entry, &[A::I(i64::from(i32::MAX))]).i32(), -1);
    assert_eq!(errno::get(), libc::EBADF);
}

#[test]
fn dir_objects_and_entries() {
    let d = invoke(opendir::entry, &[A::P(cstr("/"))]).ptr();
    assert_eq!(d.intval(), d.lower());
    let (upper, aux) = header(d);
    assert_eq!(upper, d.lower(), "specials have upper == lower");
    assert_eq!(SpecialKind::from_aux(aux), Some(SpecialKind::Dir));
    let e = invoke(readdir::entry, &[A::P(d)]).ptr();
    assert_ne!(e.intval(), 0);
    let (eupper, _) = header(e);
    assert_eq!(eupper - e.lower(), DIRENT, "a whole struct dirent");
    let e2 = invoke(readdir::entry, &[A::P(d)]).ptr();
    assert_eq!(e2, e, "one entry object per stream");
    assert_eq!(invoke(closedir::entry, &[A::P(d)]).i32(), 0);
    let (eupper, eaux) = header(e);
    assert_eq!(eupper, e.lower(), "entry revoked");
    assert_ne!(eaux & FLAG_FREE, 0);
    assert_ne!(header(d).1 & FLAG_FREE, 0);
}

#[test]
fn mappings_are_page_aligned_objects() {
    let p = invoke(
        mmap::entry,
        &[
            A::P(FlightPtr::NULL),
            A::I(5000),
            A::I((libc::PROT_READ | libc::PROT_WRITE) as i64),
            A::I((libc::MAP_PRIVATE | libc::MAP_ANONYMOUS) as i64),
            A::I(-1),
            A::I(0),
        ],
    )
    .ptr();
    assert_eq!(p.intval() % PAGE, 0);
    assert_eq!(header(p).0 - p.lower(), 2 * PAGE);
    let ro = invoke(
        mprotect::entry,
        &[A::P(p), A::I(8192), A::I(libc::PROT_READ as i64)],
    );
    assert_eq!(ro.i32(), 0);
    assert_ne!(header(p).1 & FLAG_READONLY, 0);
    let bad = invoke(munmap::entry, &[A::P(p), A::I(4096)]).i32();
    assert_eq!((bad, errno::get()), (-1, libc::EINVAL));
    assert_eq!(invoke(munmap::entry, &[A::P(p), A::I(5000)]).i32(), 0);
    let (upper, aux) = header(p);
    assert_eq!(upper, p.lower());
    assert_ne!(aux & FLAG_FREE, 0);
    let shared = invoke(
        mmap::entry,
        &[
            A::P(FlightPtr::NULL),
            A::I(4096),
            A::I(libc::PROT_READ as i64),
            A::I((libc::MAP_SHARED | libc::MAP_ANONYMOUS) as i64),
            A::I(-1),
            A::I(0),
        ],
    )
    .ptr();
    // A shared mapping is the kernel's pages behind a header of its own:
    // read-only as asked, freed by munmap.
    assert_ne!(shared, MAP_FAILED);
    assert_eq!(shared.lower(), shared.intval());
    assert_eq!(shared.intval() % 4096, 0);
    let (upper, aux) = header(shared);
    assert_eq!(upper, shared.lower() + 4096);
    assert_ne!(aux & FLAG_READONLY, 0);
    assert_eq!(invoke(munmap::entry, &[A::P(shared), A::I(4096)]).i32(), 0);
    let (upper, aux) = header(shared);
    assert_eq!(upper, shared.lower());
    assert_ne!(aux & FLAG_FREE, 0);
}

#[test]
fn stat_and_getcwd_write_exactly_their_bytes() {
    let st = buf(STAT + 16);
    write(st, &[0xAA; STAT + 16]);
    assert_eq!(invoke(stat::entry, &[A::P(cstr("/")), A::P(st)]).i32(), 0);
    assert_eq!(
        &read(st, STAT + 16)[STAT..],
        &[0xAA; 16],
        "nothing past sizeof"
    );
    let cwd = invoke(getcwd::entry, &[A::P(FlightPtr::NULL), A::I(0)]).ptr();
    let here = std::env::current_dir().unwrap();
    assert_eq!(read_cstr(cwd), here.to_str().unwrap());
}

#[test]
fn dl_functions_are_refused() {
    assert_eq!(invoke(dlerror::entry, &[]).ptr(), FlightPtr::NULL);
    let h = invoke(dlopen::entry, &[A::P(cstr("libm.so.6")), A::I(2)]).ptr();
    assert_eq!(h, FlightPtr::NULL);
    let msg = invoke(dlerror::entry, &[]).ptr();
    assert_eq!(
        read_cstr(msg),
        "gimso: dlopen is not supported: code loaded at run time would bypass the checks"
    );
    assert_ne!(header(msg).1 & FLAG_READONLY, 0, "read-only string");
    assert_eq!(invoke(dlerror::entry, &[]).ptr(), FlightPtr::NULL);
}
