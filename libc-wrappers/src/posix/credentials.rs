//! Process credentials: `setuid`/`setgid` and their effective, real and
//! saved forms, `getresuid`/`getresgid`, and the supplementary group list
//! (`getgroups`, `setgroups`).
//!
//! glibc applies a credential change to every thread of the process (the
//! kernel's credentials are per thread); the runtime's own threads are
//! threads of the process like any other, so they change with it.

use gimso_abi::FlightPtr;

use crate::posix::sys32;
use crate::{mem, wrapper};

/// Bytes of a `uid_t` or `gid_t`.
const ID: usize = size_of::<libc::uid_t>();
const _: () = assert!(ID == 4 && size_of::<libc::gid_t>() == ID);

/// Defines wrappers for calls taking ids and returning 0 or -1.
macro_rules! id_set {
    ($($(#[$meta:meta])* fn $name:ident($($arg:ident),*);)*) => {$(
        wrapper! {
            $(#[$meta])*
            fn $name($($arg: u32),*) -> i32 {
                // SAFETY: ids only, no memory preconditions.
                sys32(|| unsafe { libc::$name($($arg),*) })
            }
        }
    )*};
}

id_set! {
    /// `int setuid(uid_t uid)`.
    fn setuid(uid);
    /// `int setgid(gid_t gid)`.
    fn setgid(gid);
    /// `int seteuid(uid_t euid)`.
    fn seteuid(euid);
    /// `int setegid(gid_t egid)`.
    fn setegid(egid);
    /// `int setreuid(uid_t ruid, uid_t euid)`.
    fn setreuid(ruid, euid);
    /// `int setregid(gid_t rgid, gid_t egid)`.
    fn setregid(rgid, egid);
    /// `int setresuid(uid_t ruid, uid_t euid, uid_t suid)`.
    fn setresuid(ruid, euid, suid);
    /// `int setresgid(gid_t rgid, gid_t egid, gid_t sgid)`.
    fn setresgid(rgid, egid, sgid);
}

/// `get*res*id`: three ids written through three checked pointers, each
/// checked before the call.
fn get_res(
    r: FlightPtr,
    e: FlightPtr,
    s: FlightPtr,
    get: impl FnOnce(&mut u32, &mut u32, &mut u32) -> i32,
) -> i32 {
    for p in [r, e, s] {
        mem::check_write(p, ID);
    }
    let (mut a, mut b, mut c) = (0, 0, 0);
    let rc = sys32(|| get(&mut a, &mut b, &mut c));
    if rc == 0 {
        mem::write_int(r, &a.to_ne_bytes());
        mem::write_int(e, &b.to_ne_bytes());
        mem::write_int(s, &c.to_ne_bytes());
    }
    rc
}

wrapper! {
    /// `int getresuid(uid_t *ruid, uid_t *euid, uid_t *suid)`.
    fn getresuid(ruid: FlightPtr, euid: FlightPtr, suid: FlightPtr) -> i32 {
        // SAFETY: three private ids.
        get_res(ruid, euid, suid, |a, b, c| unsafe { libc::getresuid(a, b, c) })
    }
}

wrapper! {
    /// `int getresgid(gid_t *rgid, gid_t *egid, gid_t *sgid)`.
    fn getresgid(rgid: FlightPtr, egid: FlightPtr, sgid: FlightPtr) -> i32 {
        // SAFETY: three private ids.
        get_res(rgid, egid, sgid, |a, b, c| unsafe { libc::getresgid(a, b, c) })
    }
}

wrapper! {
    /// `int getgroups(int size, gid_t list[])`: with `size` 0 only the
    /// count; otherwise `list` is checked for `size` ids before the call
    /// (a negative size is EINVAL, as the kernel says).
    fn getgroups(size: i32, list: FlightPtr) -> i32 {
        if size < 0 {
            return crate::posix::fail(libc::EINVAL);
        }
        let n = size as usize;
        if n > 0 {
            mem::check_write(list, n * ID);
        }
        let mut ids = vec![0 as libc::gid_t; n];
        // SAFETY: `ids` holds `n` private ids.
        let r = sys32(|| unsafe { libc::getgroups(size, ids.as_mut_ptr()) });
        if r > 0 && n > 0 {
            let bytes: Vec<u8> = ids[..r as usize].iter().flat_map(|g| g.to_ne_bytes()).collect();
            mem::write_bytes(list, &bytes);
        }
        r
    }
}

wrapper! {
    /// `int setgroups(size_t size, const gid_t *list)`: `list` checked for
    /// `size` ids (none read when `size` is 0).
    fn setgroups(size: usize, list: FlightPtr) -> i32 {
        let Some(bytes) = size.checked_mul(ID) else {
            return crate::posix::fail(libc::EINVAL);
        };
        let data = if size == 0 { Vec::new() } else { mem::read_bytes(list, bytes) };
        let ids: Vec<libc::gid_t> = data
            .chunks_exact(ID)
            .map(|c| libc::gid_t::from_ne_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // SAFETY: `ids` holds `size` private ids.
        sys32(|| unsafe { libc::setgroups(ids.len(), ids.as_ptr()) })
    }
}
