//! `<glob.h>`: `glob` and `globfree`.
//!
//! glibc matches on a private `glob_t`; the results the program sees are GC
//! objects: a NULL-terminated array of pointers (after `gl_offs` NULL
//! slots) to fresh C strings, stored in the program's checked `glob_t`
//! with their capabilities. `GLOB_APPEND` copies the program's current
//! entries first. `globfree` frees what `glob` made for that `glob_t`
//! (kept alive until then, as natively) and clears the fields; an
//! `errfunc` is called (checked) for directories that cannot be read.
//! `GLOB_ALTDIRFUNC` (directory functions as pointers into the program)
//! fails with `GLOB_NOSPACE`.

use core::cell::Cell;
use core::ffi::{c_char, c_int};
use std::collections::HashMap;
use std::sync::Mutex;

use gimso_abi::FlightPtr;

use crate::call::{Callee, CcArg};
use crate::pthread::slots::Held;
use crate::{mem, wrapper};

/// Bytes of `glob_t` and its fields' offsets (glibc, x86-64).
const GLOB_T: usize = 72;
const PATHC: isize = 0;
const PATHV: isize = 8;
const OFFS: isize = 16;
const FLAGS: isize = 24;

/// The objects `glob` made, by the `gl_pathv` array they hang from.
static RESULTS: Mutex<Option<HashMap<usize, Vec<Held>>>> = Mutex::new(None);

fn with_results<R>(f: impl FnOnce(&mut HashMap<usize, Vec<Held>>) -> R) -> R {
    let mut guard = RESULTS.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(HashMap::new))
}

thread_local! {
    /// The program's `errfunc` while this thread is inside `glob`.
    static ERRFUNC: Cell<Option<Callee>> = const { Cell::new(None) };
}

/// glibc's `errfunc`: calls the program's with a fresh copy of the path.
extern "C" fn errfunc_trampoline(path: *const c_char, err: c_int) -> c_int {
    let Some(f) = ERRFUNC.with(Cell::get) else {
        return 0;
    };
    // SAFETY: glibc passes the NUL-terminated path that failed.
    let p = unsafe { core::ffi::CStr::from_ptr(path) };
    let obj = mem::alloc_c_string(p.to_bytes(), false);
    let _keep = gimso_gc::Root::new(obj.lower());
    f.call(&[CcArg::Ptr(obj), CcArg::I32(err)], 4, "glob errfunc")
        .i32()
}

unsafe extern "C" {
    #[link_name = "glob"]
    fn native_glob(
        pattern: *const c_char,
        flags: c_int,
        errfunc: Option<extern "C" fn(*const c_char, c_int) -> c_int>,
        pglob: *mut [u8; GLOB_T],
    ) -> c_int;
    #[link_name = "globfree"]
    fn native_globfree(pglob: *mut [u8; GLOB_T]);
}

/// The program's current entries (for `GLOB_APPEND`).
fn current_entries(pglob: FlightPtr) -> Vec<FlightPtr> {
    let n = u64::from_ne_bytes(mem::read_int::<8>(pglob.offset(PATHC))) as usize;
    let offs = u64::from_ne_bytes(mem::read_int::<8>(pglob.offset(OFFS))) as usize;
    let v = mem::load_ptr(pglob.offset(PATHV));
    if v.intval() == 0 {
        return Vec::new();
    }
    (0..n)
        .map(|i| mem::load_ptr(v.offset(((offs + i) * 8) as isize)))
        .collect()
}

wrapper! {
    /// `int glob(const char *pattern, int flags, int (*errfunc)(const char
    /// *, int), glob_t *pglob)`.
    fn glob(pattern: FlightPtr, flags: i32, errfunc: FlightPtr, pglob: FlightPtr) -> i32 {
        mem::check_write(pglob, GLOB_T);
        if flags & libc::GLOB_ALTDIRFUNC != 0 {
            return libc::GLOB_NOSPACE;
        }
        let pattern = mem::c_string_nul(pattern);
        let offs = if flags & libc::GLOB_DOOFFS != 0 {
            u64::from_ne_bytes(mem::read_int::<8>(pglob.offset(OFFS))) as usize
        } else {
            0
        };
        let old = if flags & libc::GLOB_APPEND != 0 { current_entries(pglob) } else { Vec::new() };
        let callee = (errfunc.intval() != 0).then(|| Callee::check(errfunc));
        ERRFUNC.with(|c| c.set(callee));
        let mut g = [0u8; GLOB_T];
        // Only the caller's own flags reach glibc: no append (done here), no
        // offsets (laid out here).
        let native_flags = flags & !(libc::GLOB_APPEND | libc::GLOB_DOOFFS);
        let trampoline: Option<extern "C" fn(*const c_char, c_int) -> c_int> =
            callee.map(|_| errfunc_trampoline as extern "C" fn(*const c_char, c_int) -> c_int);
        // SAFETY: a NUL-terminated copy and a private glob_t.
        let r = unsafe { native_glob(pattern.as_ptr().cast(), native_flags, trampoline, &mut g) };
        ERRFUNC.with(|c| c.set(None));
        let field = |o: usize| u64::from_ne_bytes(g[o..o + 8].try_into().unwrap_or([0; 8])) as usize;
        let (count, pathv) = (field(0), field(8) as *const *const c_char);
        let mut paths = Vec::with_capacity(count);
        for i in 0..count {
            // SAFETY: glibc's result array of `count` C strings.
            let s = unsafe { core::ffi::CStr::from_ptr(*pathv.add(i)) };
            paths.push(s.to_bytes().to_vec());
        }
        // SAFETY: glibc's result, freed once; copied above.
        unsafe { native_globfree(&mut g) };
        if r != 0 {
            // glibc leaves the glob_t as it was.
            return r;
        }
        let total = old.len() + paths.len();
        let array = mem::alloc((offs + total + 1) * 8, 16, 0);
        let _keep = gimso_gc::Root::new(array.lower());
        let mut made = vec![array];
        for (i, p) in old.iter().enumerate() {
            mem::store_ptr(array.offset(((offs + i) * 8) as isize), *p);
        }
        for (i, p) in paths.iter().enumerate() {
            let s = mem::alloc_c_string(p, false);
            mem::store_ptr(array.offset(((offs + old.len() + i) * 8) as isize), s);
            made.push(s);
        }
        // Strings appended to an earlier result stay that result's.
        let previous = mem::load_ptr(pglob.offset(PATHV));
        let mut held: Vec<Held> = made.into_iter().map(Held::new).collect();
        with_results(|t| {
            if flags & libc::GLOB_APPEND != 0 {
                if let Some(earlier) = t.remove(&previous.lower()) {
                    held.extend(earlier);
                }
            }
            t.insert(array.lower(), held);
        });
        mem::write_int(pglob.offset(PATHC), &(total as u64).to_ne_bytes());
        mem::store_ptr(pglob.offset(PATHV), array);
        mem::write_int(pglob.offset(FLAGS), &flags.to_ne_bytes());
        r
    }
}

wrapper! {
    /// `void globfree(glob_t *pglob)`.
    fn globfree(pglob: FlightPtr) -> () {
        let v = mem::load_ptr(pglob.offset(PATHV));
        if v.intval() == 0 {
            return;
        }
        let Some(objects) = with_results(|t| t.remove(&v.lower())) else {
            crate::report::fatal("globfree: the glob_t does not hold a result of glob (or it was freed)");
        };
        for o in objects {
            crate::malloc::free::call(o.get());
        }
        // As glibc: the array pointer is cleared, the count left.
        mem::store_ptr(pglob.offset(PATHV), FlightPtr::NULL);
    }
}
