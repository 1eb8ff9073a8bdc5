//! The user and group databases: `getpwnam`/`getpwuid`, their `_r` forms,
//! and `getgrnam`/`getgrgid`.
//!
//! glibc answers into private storage; the program gets the answer as GC
//! objects (a fresh `struct passwd` or `struct group` whose string fields,
//! and the group's member array, are objects of their own, stored with
//! their capabilities). The `_r` forms write the strings into the
//! program's checked buffer and point the fields into it, failing with
//! `ERANGE` when it is too small, as glibc does.

use core::ffi::c_char;

use gimso_abi::FlightPtr;

use crate::{errno, mem, wrapper};

/// `struct passwd` (48 bytes) and `struct group` (32 bytes) field offsets.
const PASSWD: usize = 48;
const PW_STRINGS: [(isize, usize); 5] = [(0, 0), (8, 1), (24, 2), (32, 3), (40, 4)];
const PW_UID: isize = 16;
const PW_GID: isize = 20;
const GROUP: usize = 32;
const GR_GID: isize = 16;
const GR_MEM: isize = 24;
const _: () = assert!(size_of::<libc::passwd>() == PASSWD && size_of::<libc::group>() == GROUP);

/// A passwd entry's strings (name, password, gecos, dir, shell) and ids.
struct Passwd {
    strings: [Vec<u8>; 5],
    uid: u32,
    gid: u32,
}

/// A C string glibc returned (NULL as empty).
fn text(p: *const c_char) -> Vec<u8> {
    if p.is_null() {
        return Vec::new();
    }
    // SAFETY: glibc's NUL-terminated field, read at once.
    unsafe { core::ffi::CStr::from_ptr(p) }.to_bytes().to_vec()
}

/// Looks a user up with glibc's reentrant call into private storage.
fn lookup_passwd(
    by: impl Fn(*mut libc::passwd, *mut c_char, usize, *mut *mut libc::passwd) -> i32,
) -> Result<Option<Passwd>, i32> {
    lookup(by, |pw: &libc::passwd| Passwd {
        strings: [
            text(pw.pw_name),
            text(pw.pw_passwd),
            text(pw.pw_gecos),
            text(pw.pw_dir),
            text(pw.pw_shell),
        ],
        uid: pw.pw_uid,
        gid: pw.pw_gid,
    })
}

/// A lookup's answer as a fresh object (`make`), NULL when there is no such
/// entry, NULL with errno set when the lookup failed.
fn answer<T>(found: Result<Option<T>, i32>, make: fn(&T) -> FlightPtr) -> FlightPtr {
    match found {
        Ok(Some(entry)) => make(&entry),
        Ok(None) => FlightPtr::NULL,
        Err(e) => {
            errno::set(e);
            FlightPtr::NULL
        }
    }
}

/// The database entries [`lookup`] fills: plain C structs of pointers
/// and integers, valid all-zero.
trait Entry {}
impl Entry for libc::passwd {}
impl Entry for libc::group {}

/// Runs a glibc `_r` lookup into a private entry and buffer, growing the
/// buffer while glibc answers `ERANGE`; `read` copies the entry out.
fn lookup<E: Entry, T>(
    by: impl Fn(*mut E, *mut c_char, usize, *mut *mut E) -> i32,
    read: impl FnOnce(&E) -> T,
) -> Result<Option<T>, i32> {
    let mut size = 1024;
    loop {
        let mut buf = vec![0 as c_char; size];
        // SAFETY: `Entry` types are plain C structs for which all-zero is a
        // valid value to be filled.
        let mut entry: E = unsafe { core::mem::zeroed() };
        let mut result: *mut E = core::ptr::null_mut();
        let r = gimso_gc::exited(|| by(&mut entry, buf.as_mut_ptr(), size, &mut result));
        if r == libc::ERANGE && size < 1 << 20 {
            size *= 4;
            continue;
        }
        if r != 0 {
            return Err(r);
        }
        // `entry`'s strings point into `buf`, alive here.
        return Ok((!result.is_null()).then(|| read(&entry)));
    }
}

/// The entry as a fresh `struct passwd` object.
fn passwd_object(p: &Passwd) -> FlightPtr {
    let obj = mem::alloc(PASSWD, 16, 0);
    let _keep = gimso_gc::Root::new(obj.lower());
    mem::write_int(obj.offset(PW_UID), &p.uid.to_ne_bytes());
    mem::write_int(obj.offset(PW_GID), &p.gid.to_ne_bytes());
    for (off, i) in PW_STRINGS {
        let s = mem::alloc_c_string(&p.strings[i], false);
        mem::store_ptr(obj.offset(off), s);
    }
    obj
}

/// Fills the program's `pwd` with pointers into its `buf` (the `_r` forms).
fn passwd_into(p: &Passwd, pwd: FlightPtr, buf: FlightPtr, buflen: usize) -> i32 {
    let need: usize = p.strings.iter().map(|s| s.len() + 1).sum();
    if need > buflen {
        return libc::ERANGE;
    }
    mem::write_int(pwd.offset(PW_UID), &p.uid.to_ne_bytes());
    mem::write_int(pwd.offset(PW_GID), &p.gid.to_ne_bytes());
    let mut at = 0usize;
    for (off, i) in PW_STRINGS {
        let mut s = p.strings[i].clone();
        s.push(0);
        mem::write_bytes(buf.offset(at as isize), &s);
        mem::store_ptr(pwd.offset(off), buf.offset(at as isize));
        at += s.len();
    }
    0
}

wrapper! {
    /// `struct passwd *getpwnam(const char *name)`.
    fn getpwnam(name: FlightPtr) -> FlightPtr {
        let name = mem::c_string_nul(name);
        // SAFETY: a NUL-terminated copy and glibc's own out-parameters.
        answer(lookup_passwd(|pw, b, n, r| unsafe { libc::getpwnam_r(name.as_ptr().cast(), pw, b, n, r) }), passwd_object)
    }
}

wrapper! {
    /// `struct passwd *getpwuid(uid_t uid)`.
    fn getpwuid(uid: u32) -> FlightPtr {
        // SAFETY: glibc's own out-parameters.
        answer(lookup_passwd(|pw, b, n, r| unsafe { libc::getpwuid_r(uid, pw, b, n, r) }), passwd_object)
    }
}

/// The `_r` forms: `*result` is `pwd` on success, NULL otherwise.
fn passwd_r(
    found: Result<Option<Passwd>, i32>,
    pwd: FlightPtr,
    buf: FlightPtr,
    buflen: usize,
    result: FlightPtr,
) -> i32 {
    // glibc may use all of `buf`, so all of it must be writable.
    mem::check_write(result, 8);
    mem::check_write(pwd, PASSWD);
    mem::check_write(buf, buflen);
    let r = match found {
        Ok(Some(p)) => passwd_into(&p, pwd, buf, buflen),
        Ok(None) => {
            mem::store_ptr(result, FlightPtr::NULL);
            return 0;
        }
        Err(e) => e,
    };
    mem::store_ptr(result, if r == 0 { pwd } else { FlightPtr::NULL });
    r
}

wrapper! {
    /// `int getpwnam_r(const char *name, struct passwd *pwd, char *buf,
    /// size_t buflen, struct passwd **result)`.
    fn getpwnam_r(name: FlightPtr, pwd: FlightPtr, buf: FlightPtr, buflen: usize, result: FlightPtr) -> i32 {
        let name = mem::c_string_nul(name);
        // SAFETY: a NUL-terminated copy and glibc's own out-parameters.
        let found = lookup_passwd(|pw, b, n, r| unsafe { libc::getpwnam_r(name.as_ptr().cast(), pw, b, n, r) });
        passwd_r(found, pwd, buf, buflen, result)
    }
}

wrapper! {
    /// `int getpwuid_r(uid_t uid, struct passwd *pwd, char *buf, size_t
    /// buflen, struct passwd **result)`.
    fn getpwuid_r(uid: u32, pwd: FlightPtr, buf: FlightPtr, buflen: usize, result: FlightPtr) -> i32 {
        // SAFETY: glibc's own out-parameters.
        let found = lookup_passwd(|pw, b, n, r| unsafe { libc::getpwuid_r(uid, pw, b, n, r) });
        passwd_r(found, pwd, buf, buflen, result)
    }
}

/// A group entry's name, password, id and members.
struct Group {
    name: Vec<u8>,
    passwd: Vec<u8>,
    gid: u32,
    members: Vec<Vec<u8>>,
}

/// Looks a group up with glibc's reentrant call into private storage.
fn lookup_group(
    by: impl Fn(*mut libc::group, *mut c_char, usize, *mut *mut libc::group) -> i32,
) -> Result<Option<Group>, i32> {
    lookup(by, |gr: &libc::group| {
        let mut members = Vec::new();
        let mut m = gr.gr_mem;
        // SAFETY: glibc's NULL-terminated member array.
        while !m.is_null() && unsafe { !(*m).is_null() } {
            // SAFETY: as above.
            members.push(text(unsafe { *m }));
            // SAFETY: as above.
            m = unsafe { m.add(1) };
        }
        Group {
            name: text(gr.gr_name),
            passwd: text(gr.gr_passwd),
            gid: gr.gr_gid,
            members,
        }
    })
}

fn group_object(g: &Group) -> FlightPtr {
    let obj = mem::alloc(GROUP, 16, 0);
    let _keep = gimso_gc::Root::new(obj.lower());
    let name = mem::alloc_c_string(&g.name, false);
    mem::store_ptr(obj, name);
    let pass = mem::alloc_c_string(&g.passwd, false);
    mem::store_ptr(obj.offset(8), pass);
    mem::write_int(obj.offset(GR_GID), &g.gid.to_ne_bytes());
    let array = mem::alloc((g.members.len() + 1) * 8, 16, 0);
    mem::store_ptr(obj.offset(GR_MEM), array);
    for (i, m) in g.members.iter().enumerate() {
        let s = mem::alloc_c_string(m, false);
        mem::store_ptr(array.offset((i * 8) as isize), s);
    }
    obj
}

wrapper! {
    /// `struct group *getgrnam(const char *name)`.
    fn getgrnam(name: FlightPtr) -> FlightPtr {
        let name = mem::c_string_nul(name);
        // SAFETY: a NUL-terminated copy and glibc's own out-parameters.
        answer(lookup_group(|gr, b, n, r| unsafe { libc::getgrnam_r(name.as_ptr().cast(), gr, b, n, r) }), group_object)
    }
}

wrapper! {
    /// `struct group *getgrgid(gid_t gid)`.
    fn getgrgid(gid: u32) -> FlightPtr {
        // SAFETY: glibc's own out-parameters.
        answer(lookup_group(|gr, b, n, r| unsafe { libc::getgrgid_r(gid, gr, b, n, r) }), group_object)
    }
}
