//! BSD and GNU extensions configure scripts probe for: random bytes
//! (`getentropy`, `arc4random*`), `getloadavg`, temporary names
//! (`tmpnam`, `tempnam`), `siginterrupt`, `pthread_atfork` and the `q`
//! spellings of `strtoll`/`strtoull`.

use std::sync::OnceLock;

use gimso_abi::FlightPtr;
use parking_lot::Mutex;

use super::{fail, sys};
use crate::call::Callee;
use crate::{errno, mem, wrapper};

unsafe extern "C" {
    /// glibc's `siginterrupt` (not in the `libc` crate).
    fn siginterrupt(sig: libc::c_int, flag: libc::c_int) -> libc::c_int;
}

/// Fills `out` from the kernel's random source; `false` if it failed.
fn random_bytes(out: &mut [u8]) -> bool {
    let mut done = 0;
    while done < out.len() {
        let rest = &mut out[done..];
        let p = rest.as_mut_ptr();
        let n = rest.len();
        // SAFETY: `p` is a private buffer of `n` bytes.
        let r = sys(|| unsafe { libc::getrandom(p.cast(), n, 0) } as i64);
        if r < 0 {
            if errno::get() == libc::EINTR {
                continue;
            }
            return false;
        }
        done += r as usize;
    }
    true
}

/// A random `u32`; the kernel's source does not fail once the system is
/// up, and a failure here would be a broken system, so it aborts.
fn random_u32() -> u32 {
    let mut b = [0u8; 4];
    if !random_bytes(&mut b) {
        crate::report::fatal("arc4random: the kernel's random source failed");
    }
    u32::from_ne_bytes(b)
}

wrapper! {
    /// `int getentropy(void *buf, size_t n)`: at most 256 bytes.
    fn getentropy(buf: FlightPtr, n: usize) -> i32 {
        if n > 256 {
            return fail(libc::EIO);
        }
        mem::check_write(buf, n);
        let mut bytes = vec![0u8; n];
        if !random_bytes(&mut bytes) {
            return -1; // errno set by the failed call
        }
        mem::write_bytes(buf, &bytes);
        0
    }
}

wrapper! {
    /// `uint32_t arc4random(void)`.
    fn arc4random() -> u32 {
        random_u32()
    }
}

wrapper! {
    /// `void arc4random_buf(void *buf, size_t n)`.
    fn arc4random_buf(buf: FlightPtr, n: usize) -> () {
        mem::check_write(buf, n);
        let mut bytes = vec![0u8; n];
        if !random_bytes(&mut bytes) {
            crate::report::fatal("arc4random_buf: the kernel's random source failed");
        }
        mem::write_bytes(buf, &bytes);
    }
}

wrapper! {
    /// `uint32_t arc4random_uniform(uint32_t bound)`: uniform in
    /// `[0, bound)` (rejection sampling), 0 for a bound below 2.
    fn arc4random_uniform(bound: u32) -> u32 {
        if bound < 2 {
            return 0;
        }
        // Values below `min` would make the low residues more likely.
        let min = bound.wrapping_neg() % bound;
        loop {
            let r = random_u32();
            if r >= min {
                return r % bound;
            }
        }
    }
}

wrapper! {
    /// `int getloadavg(double loadavg[], int nelem)`.
    fn getloadavg(out: FlightPtr, nelem: i32) -> i32 {
        let n = nelem.clamp(0, 3) as usize;
        mem::check_write(out, n * 8);
        let mut v = [0f64; 3];
        // SAFETY: `v` holds 3 doubles; `n` is at most 3.
        let r = unsafe { libc::getloadavg(v.as_mut_ptr(), n as libc::c_int) };
        if r > 0 {
            let bytes: Vec<u8> = v[..r as usize].iter().flat_map(|d| d.to_ne_bytes()).collect();
            mem::write_bytes(out, &bytes);
        }
        r
    }
}

/// `L_tmpnam`: bytes of a name `tmpnam` writes, NUL included.
const L_TMPNAM: usize = 20;

/// A name in `P_tmpdir` (`/tmp`) that no file has yet, made from random
/// letters (as glibc does, with no promise the name stays free).
fn temp_name(dir: &[u8], prefix: &[u8]) -> Option<Vec<u8>> {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for _ in 0..100 {
        let mut name = dir.to_vec();
        if !name.ends_with(b"/") {
            name.push(b'/');
        }
        name.extend_from_slice(prefix);
        for _ in 0..6 {
            name.push(LETTERS[(random_u32() as usize) % LETTERS.len()]);
        }
        let mut c = name.clone();
        c.push(0);
        let mut st = core::mem::MaybeUninit::<libc::stat>::uninit();
        // SAFETY: `c` is NUL-terminated; `st` is written by lstat;
        // __errno_location returns the calling thread's errno.
        let missing = unsafe {
            libc::lstat(c.as_ptr().cast(), st.as_mut_ptr()) != 0
                && *libc::__errno_location() == libc::ENOENT
        };
        if missing {
            return Some(name);
        }
    }
    None
}

wrapper! {
    /// `char *tmpnam(char *s)`: into `s` (`L_tmpnam` bytes), or into a
    /// buffer of the library's when `s` is NULL.
    fn tmpnam(s: FlightPtr) -> FlightPtr {
        let Some(name) = temp_name(b"/tmp", b"tmp") else {
            return FlightPtr::NULL;
        };
        let dest = if s.intval() == 0 {
            static BUFFER: OnceLock<FlightPtr> = OnceLock::new();
            *BUFFER.get_or_init(|| {
                let p = mem::alloc(L_TMPNAM, 16, 0);
                gimso_gc::register_global_object(p.lower());
                p
            })
        } else {
            s
        };
        let mut bytes = name;
        bytes.push(0);
        mem::check_write(dest, L_TMPNAM);
        mem::write_bytes(dest, &bytes);
        dest
    }
}

wrapper! {
    /// `char *tempnam(const char *dir, const char *pfx)`: a new string
    /// (freed with `free`) in `$TMPDIR`, else `dir`, else `/tmp`; at most
    /// five bytes of `pfx`.
    fn tempnam(dir: FlightPtr, pfx: FlightPtr) -> FlightPtr {
        let usable = |d: &[u8]| {
            let mut c = d.to_vec();
            c.push(0);
            // SAFETY: `c` is NUL-terminated.
            !d.is_empty() && unsafe { libc::access(c.as_ptr().cast(), libc::W_OK) } == 0
        };
        let env = std::env::var_os("TMPDIR").map(|v| v.into_encoded_bytes());
        let given = (dir.intval() != 0).then(|| mem::c_string(dir));
        let dir = [env, given]
            .into_iter()
            .flatten()
            .find(|d| usable(d))
            .unwrap_or_else(|| b"/tmp".to_vec());
        let mut prefix = if pfx.intval() != 0 { mem::c_string(pfx) } else { b"file".to_vec() };
        prefix.truncate(5);
        match temp_name(&dir, &prefix) {
            Some(name) => mem::alloc_c_string(&name, false),
            None => FlightPtr::NULL,
        }
    }
}

wrapper! {
    /// `int siginterrupt(int sig, int flag)`: whether a handler for `sig`
    /// interrupts blocking calls (`flag` non-zero) or restarts them.
    fn siginterrupt(sig: i32, flag: i32) -> i32 {
        if crate::signal::fault_signal(sig) {
            return 0;
        }
        // SAFETY: changes only the flags of the native action for `sig`.
        let r = unsafe { siginterrupt(sig, flag) };
        if r != 0 {
            errno::sync_from_libc();
        }
        r
    }
}

/// Handlers `pthread_atfork` registered: (prepare, parent, child), each a
/// function capability or null. Functions are global objects, never freed,
/// so holding their capabilities here keeps nothing from the collector.
static AT_FORK: Mutex<Vec<[FlightPtr; 3]>> = Mutex::new(Vec::new());

wrapper! {
    /// `int pthread_atfork(void (*prepare)(void), void (*parent)(void),
    /// void (*child)(void))`.
    fn pthread_atfork(prepare: FlightPtr, parent: FlightPtr, child: FlightPtr) -> i32 {
        for f in [prepare, parent, child] {
            if f.intval() != 0 {
                Callee::check(f);
            }
        }
        AT_FORK.lock().push([prepare, parent, child]);
        0
    }
}

/// Runs handler `which` (0 prepare, 1 parent, 2 child) of each
/// registration: prepare handlers last registered first, the others in
/// order of registration.
pub(crate) fn run_at_fork(which: usize) {
    let list: Vec<FlightPtr> = AT_FORK.lock().iter().map(|h| h[which]).collect();
    let order: Vec<FlightPtr> = if which == 0 {
        list.into_iter().rev().collect()
    } else {
        list
    };
    for f in order.into_iter().filter(|f| f.intval() != 0) {
        Callee::check(f).call(&[], 0, "a pthread_atfork handler");
    }
}

wrapper! {
    /// `quad_t strtoq(const char *s, char **end, int base)`.
    fn strtoq(s: FlightPtr, end: FlightPtr, base: i32) -> i64 {
        crate::stdlib::strtoll::call(s, end, base)
    }
}

wrapper! {
    /// `u_quad_t strtouq(const char *s, char **end, int base)`.
    fn strtouq(s: FlightPtr, end: FlightPtr, base: i32) -> u64 {
        crate::stdlib::strtoull::call(s, end, base)
    }
}
