//! Sockets: `socket`, `bind`, `listen`, `accept`, `connect`, `send`/`recv`
//! and their `to`/`from` forms, socket options and names, `shutdown`,
//! `socketpair`; address conversion (`inet_pton`, `inet_ntop`, the byte
//! order functions) and `getaddrinfo`/`freeaddrinfo`/`gai_strerror`.
//!
//! Addresses and option values are plain bytes: the program's buffers are
//! checked for the length it states and copied; the kernel's answers come
//! back through private buffers, truncated to the program's length as the
//! kernel does, with the full length stored in `*len`. `getaddrinfo`'s
//! list is built of GC objects (each node, its address, its canonical
//! name), linked with capabilities, so the program walks it with checked
//! loads; `freeaddrinfo` frees every object of the list.

use std::collections::HashMap;
use std::sync::Mutex;

use gimso_abi::FlightPtr;

use super::{fail, sys, sys32};
use crate::pthread::slots::Held;
use crate::{mem, wrapper};

/// glibc functions the `libc` crate does not declare.
mod native {
    unsafe extern "C" {
        pub fn inet_pton(
            af: i32,
            src: *const core::ffi::c_char,
            dst: *mut core::ffi::c_void,
        ) -> i32;
        pub fn inet_ntop(
            af: i32,
            src: *const core::ffi::c_void,
            dst: *mut core::ffi::c_char,
            size: u32,
        ) -> *const core::ffi::c_char;
    }
}

/// Room for any socket address (`struct sockaddr_storage`).
const SOCKADDR_MAX: usize = 128;

/// A `const struct sockaddr *` of `len` bytes (checked and copied).
fn addr_in(addr: FlightPtr, len: u32) -> Vec<u8> {
    mem::read_bytes(addr, len as usize)
}

/// An out-address `addr` with its in/out length `*lenp` (both checked when
/// `addr` is not NULL): runs `f` on a private buffer and writes back what
/// fits, and the full length.
fn addr_out(
    addr: FlightPtr,
    lenp: FlightPtr,
    f: impl FnOnce(*mut libc::sockaddr, *mut u32) -> i64,
) -> i64 {
    if addr.intval() == 0 {
        return f(core::ptr::null_mut(), core::ptr::null_mut());
    }
    let room = u32::from_ne_bytes(mem::read_int::<4>(lenp));
    mem::check_write(lenp, 4);
    mem::check_write(addr, room as usize);
    let mut buf = [0u8; SOCKADDR_MAX];
    let mut len = (room as usize).min(SOCKADDR_MAX) as u32;
    let r = f(buf.as_mut_ptr().cast(), &mut len);
    if r >= 0 {
        let n = (len as usize).min(room as usize).min(SOCKADDR_MAX);
        mem::write_bytes(addr, &buf[..n]);
        mem::write_int(lenp, &len.to_ne_bytes());
    }
    r
}

wrapper! {
    /// `int socket(int domain, int type, int protocol)`.
    fn socket(domain: i32, ty: i32, protocol: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::socket(domain, ty, protocol) })
    }
}

wrapper! {
    /// `int socketpair(int domain, int type, int protocol, int sv[2])`.
    fn socketpair(domain: i32, ty: i32, protocol: i32, sv: FlightPtr) -> i32 {
        mem::check_write(sv, 8);
        let mut fds = [0i32; 2];
        let p = fds.as_mut_ptr();
        // SAFETY: a private pair of ints.
        let r = sys32(|| unsafe { libc::socketpair(domain, ty, protocol, p) });
        if r == 0 {
            mem::write_int(sv, &[fds[0].to_ne_bytes(), fds[1].to_ne_bytes()].concat());
        }
        r
    }
}

wrapper! {
    /// `int bind(int fd, const struct sockaddr *addr, socklen_t len)`.
    fn bind(fd: i32, addr: FlightPtr, len: u32) -> i32 {
        let a = addr_in(addr, len);
        // SAFETY: a private copy of len bytes.
        sys32(|| unsafe { libc::bind(fd, a.as_ptr().cast(), len) })
    }
}

wrapper! {
    /// `int connect(int fd, const struct sockaddr *addr, socklen_t len)`.
    fn connect(fd: i32, addr: FlightPtr, len: u32) -> i32 {
        let a = addr_in(addr, len);
        // SAFETY: a private copy of len bytes.
        sys32(|| unsafe { libc::connect(fd, a.as_ptr().cast(), len) })
    }
}

wrapper! {
    /// `int listen(int fd, int backlog)`.
    fn listen(fd: i32, backlog: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::listen(fd, backlog) })
    }
}

wrapper! {
    /// `int shutdown(int fd, int how)`.
    fn shutdown(fd: i32, how: i32) -> i32 {
        // SAFETY: no memory preconditions.
        sys32(|| unsafe { libc::shutdown(fd, how) })
    }
}

wrapper! {
    /// `int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags)`.
    fn accept4(fd: i32, addr: FlightPtr, lenp: FlightPtr, flags: i32) -> i32 {
        // SAFETY: private address buffer and length (or both null).
        addr_out(addr, lenp, |a, l| sys(|| i64::from(unsafe { libc::accept4(fd, a, l, flags) }))) as i32
    }
}

wrapper! {
    /// `int accept(int fd, struct sockaddr *addr, socklen_t *len)`.
    fn accept(fd: i32, addr: FlightPtr, lenp: FlightPtr) -> i32 {
        accept4::call(fd, addr, lenp, 0)
    }
}

wrapper! {
    /// `int getsockname(int fd, struct sockaddr *addr, socklen_t *len)`.
    fn getsockname(fd: i32, addr: FlightPtr, lenp: FlightPtr) -> i32 {
        if addr.intval() == 0 {
            return fail(libc::EFAULT);
        }
        // SAFETY: private address buffer and length.
        addr_out(addr, lenp, |a, l| sys(|| i64::from(unsafe { libc::getsockname(fd, a, l) }))) as i32
    }
}

wrapper! {
    /// `int getpeername(int fd, struct sockaddr *addr, socklen_t *len)`.
    fn getpeername(fd: i32, addr: FlightPtr, lenp: FlightPtr) -> i32 {
        if addr.intval() == 0 {
            return fail(libc::EFAULT);
        }
        // SAFETY: private address buffer and length.
        addr_out(addr, lenp, |a, l| sys(|| i64::from(unsafe { libc::getpeername(fd, a, l) }))) as i32
    }
}

wrapper! {
    /// `ssize_t send(int fd, const void *buf, size_t n, int flags)`.
    fn send(fd: i32, buf: FlightPtr, n: usize, flags: i32) -> i64 {
        crate::posix::fd::write_from(buf, n, |b, len| {
            // SAFETY: `b` is `len` bytes of a live object, checked readable.
            unsafe { libc::send(fd, b.cast(), len, flags) }
        })
    }
}

wrapper! {
    /// `ssize_t sendto(int fd, const void *buf, size_t n, int flags, const
    /// struct sockaddr *addr, socklen_t len)`.
    fn sendto(fd: i32, buf: FlightPtr, n: usize, flags: i32, addr: FlightPtr, len: u32) -> i64 {
        let a = if addr.intval() == 0 { Vec::new() } else { addr_in(addr, len) };
        let ap = if a.is_empty() { core::ptr::null() } else { a.as_ptr().cast() };
        crate::posix::fd::write_from(buf, n, |b, n| {
            // SAFETY: `b` is `n` bytes of a live object, checked readable;
            // `ap` a private copy of the address.
            unsafe { libc::sendto(fd, b.cast(), n, flags, ap, len) }
        })
    }
}

wrapper! {
    /// `ssize_t recv(int fd, void *buf, size_t n, int flags)`.
    fn recv(fd: i32, buf: FlightPtr, n: usize, flags: i32) -> i64 {
        crate::posix::fd::read_into(buf, n, |b, len| {
            // SAFETY: `b` is `len` bytes of a live object, checked writable.
            unsafe { libc::recv(fd, b.cast(), len, flags) }
        })
    }
}

wrapper! {
    /// `ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct
    /// sockaddr *addr, socklen_t *len)`.
    fn recvfrom(fd: i32, buf: FlightPtr, n: usize, flags: i32, addr: FlightPtr, lenp: FlightPtr) -> i64 {
        mem::check_write(buf, n);
        let mut data = vec![0u8; n];
        let p = data.as_mut_ptr();
        let r = addr_out(addr, lenp, |a, l| {
            // SAFETY: private data and address buffers.
            sys(|| unsafe { libc::recvfrom(fd, p.cast(), n, flags, a, l) as i64 })
        });
        if r > 0 {
            mem::write_bytes(buf, &data[..r as usize]);
        }
        r
    }
}

wrapper! {
    /// `int setsockopt(int fd, int level, int name, const void *value,
    /// socklen_t len)`.
    fn setsockopt(fd: i32, level: i32, name: i32, value: FlightPtr, len: u32) -> i32 {
        let v = mem::read_bytes(value, len as usize);
        // SAFETY: a private copy of len bytes.
        sys32(|| unsafe { libc::setsockopt(fd, level, name, v.as_ptr().cast(), len) })
    }
}

wrapper! {
    /// `int getsockopt(int fd, int level, int name, void *value, socklen_t
    /// *len)`.
    fn getsockopt(fd: i32, level: i32, name: i32, value: FlightPtr, lenp: FlightPtr) -> i32 {
        let room = u32::from_ne_bytes(mem::read_int::<4>(lenp));
        mem::check_write(lenp, 4);
        mem::check_write(value, room as usize);
        let mut v = vec![0u8; room as usize];
        let mut len = room;
        let p = v.as_mut_ptr();
        // SAFETY: a private buffer of `room` bytes and its length.
        let r = sys32(|| unsafe { libc::getsockopt(fd, level, name, p.cast(), &mut len) });
        if r == 0 {
            mem::write_bytes(value, &v[..(len.min(room)) as usize]);
            mem::write_int(lenp, &len.to_ne_bytes());
        }
        r
    }
}

/// Address bytes for a family: 4 (`AF_INET`), 16 (`AF_INET6`).
fn family_bytes(af: i32) -> Option<usize> {
    match af {
        libc::AF_INET => Some(4),
        libc::AF_INET6 => Some(16),
        _ => None,
    }
}

wrapper! {
    /// `int inet_pton(int af, const char *src, void *dst)`.
    fn inet_pton(af: i32, src: FlightPtr, dst: FlightPtr) -> i32 {
        let Some(n) = family_bytes(af) else { return fail(libc::EAFNOSUPPORT) };
        let text = mem::c_string_nul(src);
        mem::check_write(dst, n);
        let mut out = [0u8; 16];
        // SAFETY: a NUL-terminated copy and a 16-byte private buffer.
        let r = unsafe { native::inet_pton(af, text.as_ptr().cast(), out.as_mut_ptr().cast()) };
        if r == 1 {
            mem::write_bytes(dst, &out[..n]);
        }
        r
    }
}

wrapper! {
    /// `const char *inet_ntop(int af, const void *src, char *dst, socklen_t size)`.
    fn inet_ntop(af: i32, src: FlightPtr, dst: FlightPtr, size: u32) -> FlightPtr {
        let Some(n) = family_bytes(af) else {
            crate::errno::set(libc::EAFNOSUPPORT);
            return FlightPtr::NULL;
        };
        let a = mem::read_bytes(src, n);
        let mut out = [0u8; 64];
        // SAFETY: a private address and a 64-byte buffer (INET6_ADDRSTRLEN is 46).
        let r = unsafe { native::inet_ntop(af, a.as_ptr().cast(), out.as_mut_ptr().cast(), out.len() as u32) };
        if r.is_null() {
            return FlightPtr::NULL;
        }
        let len = out.iter().position(|&b| b == 0).unwrap_or(0) + 1;
        if len > size as usize {
            crate::errno::set(libc::ENOSPC);
            return FlightPtr::NULL;
        }
        mem::write_bytes(dst, &out[..len]);
        dst
    }
}

wrapper! {
    /// `uint16_t htons(uint16_t x)` (and `ntohs`).
    fn htons | ntohs(x: u16) -> u32 {
        u32::from(x.swap_bytes())
    }
}

wrapper! {
    /// `uint32_t htonl(uint32_t x)` (and `ntohl`).
    fn htonl | ntohl(x: u32) -> u32 {
        x.swap_bytes()
    }
}

/// Bytes of `struct addrinfo` and its pointer fields' offsets.
const ADDRINFO: usize = 48;
const AI_ADDRLEN: isize = 16;
const AI_ADDR: isize = 24;
const AI_CANONNAME: isize = 32;
const AI_NEXT: isize = 40;
const _: () = assert!(core::mem::size_of::<libc::addrinfo>() == ADDRINFO);

/// Heads of the lists `getaddrinfo` built, with every object of each, held
/// (alive, as native results are until `freeaddrinfo`) so that
/// `freeaddrinfo` frees exactly what was made, whatever the program did to
/// the nodes' fields meanwhile.
static LISTS: Mutex<Option<HashMap<usize, Vec<Held>>>> = Mutex::new(None);

wrapper! {
    /// `int getaddrinfo(const char *node, const char *service, const struct
    /// addrinfo *hints, struct addrinfo **res)`: resolves (exited, it may
    /// wait on the network), then builds the list as GC objects.
    fn getaddrinfo(node: FlightPtr, service: FlightPtr, hints: FlightPtr, res: FlightPtr) -> i32 {
        let node = (node.intval() != 0).then(|| mem::c_string_nul(node));
        let service = (service.intval() != 0).then(|| mem::c_string_nul(service));
        // Only the four int fields of the hints are meaningful (POSIX:
        // the rest must be zero or null).
        let hint = (hints.intval() != 0).then(|| {
            let raw = mem::read_bytes(hints, 16);
            // SAFETY: all-zero is a valid addrinfo.
            let mut h: libc::addrinfo = unsafe { core::mem::zeroed() };
            let int = |i: usize| i32::from_ne_bytes([raw[i], raw[i + 1], raw[i + 2], raw[i + 3]]);
            h.ai_flags = int(0);
            h.ai_family = int(4);
            h.ai_socktype = int(8);
            h.ai_protocol = int(12);
            h
        });
        mem::check_write(res, 8);
        let np = node.as_ref().map_or(core::ptr::null(), |n| n.as_ptr().cast());
        let sp = service.as_ref().map_or(core::ptr::null(), |s| s.as_ptr().cast());
        let hp = hint.as_ref().map_or(core::ptr::null(), |h| h as *const libc::addrinfo);
        let mut list: *mut libc::addrinfo = core::ptr::null_mut();
        let lp = &raw mut list;
        // SAFETY: NUL-terminated copies, a private hints struct, and a
        // private result pointer.
        let r = gimso_gc::exited(|| unsafe { libc::getaddrinfo(np, sp, hp, lp) });
        if r != 0 {
            if r == libc::EAI_SYSTEM {
                crate::errno::sync_from_libc();
            }
            return r;
        }
        // Build back to front, so each node is complete (its `next`
        // included) when the one before it stores it.
        let mut nodes = Vec::new();
        let mut p = list;
        while !p.is_null() {
            nodes.push(p);
            // SAFETY: a node of glibc's list, live until freeaddrinfo below.
            p = unsafe { (*p).ai_next };
        }
        let mut objects = Vec::new();
        let mut next = FlightPtr::NULL;
        for &n in nodes.iter().rev() {
            // SAFETY: as above.
            let ai = unsafe { &*n };
            let obj = mem::alloc(ADDRINFO, 16, 0);
            let _keep = gimso_gc::Root::new(obj.lower());
            let _next = gimso_gc::Root::new(next.lower());
            let mut head = [0u8; 20];
            for (i, v) in [ai.ai_flags, ai.ai_family, ai.ai_socktype, ai.ai_protocol].iter().enumerate() {
                head[4 * i..4 * i + 4].copy_from_slice(&v.to_ne_bytes());
            }
            head[16..20].copy_from_slice(&ai.ai_addrlen.to_ne_bytes());
            mem::write_bytes(obj, &head[..AI_ADDRLEN as usize + 4]);
            if !ai.ai_addr.is_null() {
                let len = ai.ai_addrlen as usize;
                let a = mem::alloc(len.max(1), 16, 0);
                // SAFETY: glibc's address of ai_addrlen bytes.
                mem::write_bytes(a, unsafe { core::slice::from_raw_parts(ai.ai_addr.cast::<u8>(), len) });
                mem::store_ptr(obj.offset(AI_ADDR), a);
                objects.push(a);
            }
            if !ai.ai_canonname.is_null() {
                // SAFETY: glibc's NUL-terminated canonical name.
                let name = unsafe { core::ffi::CStr::from_ptr(ai.ai_canonname) };
                let c = mem::alloc_c_string(name.to_bytes(), false);
                mem::store_ptr(obj.offset(AI_CANONNAME), c);
                objects.push(c);
            }
            mem::store_ptr(obj.offset(AI_NEXT), next);
            objects.push(obj);
            next = obj;
        }
        // SAFETY: glibc's list, freed once; nothing refers to it any more.
        unsafe { libc::freeaddrinfo(list) };
        LISTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(HashMap::new)
            .insert(next.lower(), objects.into_iter().map(Held::new).collect());
        mem::store_ptr(res, next);
        0
    }
}

wrapper! {
    /// `void freeaddrinfo(struct addrinfo *res)`: frees every object of a
    /// list `getaddrinfo` returned; anything else is an invalid free.
    fn freeaddrinfo(res: FlightPtr) -> () {
        if res.intval() == 0 {
            return;
        }
        let objects = LISTS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_or_insert_with(HashMap::new)
            .remove(&res.lower())
            .filter(|_| res.intval() == res.lower());
        match objects {
            Some(objects) => {
                for o in objects {
                    crate::malloc::free::call(o.get());
                }
            }
            None => crate::report::fatal(
                "freeaddrinfo: the pointer is not a list returned by getaddrinfo (or it was freed already)",
            ),
        }
    }
}

wrapper! {
    /// `const char *gai_strerror(int code)`: a fresh read-only copy.
    fn gai_strerror(code: i32) -> FlightPtr {
        // SAFETY: glibc returns a static NUL-terminated message.
        let msg = unsafe { core::ffi::CStr::from_ptr(libc::gai_strerror(code)) };
        mem::alloc_c_string(msg.to_bytes(), true)
    }
}

wrapper! {
    /// `int getnameinfo(const struct sockaddr *sa, socklen_t salen, char
    /// *host, socklen_t hostlen, char *serv, socklen_t servlen, int flags)`:
    /// resolves exited (it may wait on the network) into private buffers;
    /// each answer, NUL included, must fit the program's buffer as glibc
    /// requires (`EAI_OVERFLOW` otherwise).
    fn getnameinfo(sa: FlightPtr, salen: u32, host: FlightPtr, hostlen: u32, serv: FlightPtr, servlen: u32, flags: i32) -> i32 {
        let a = addr_in(sa, salen);
        let mut h = vec![0u8; if host.intval() == 0 { 0 } else { hostlen as usize }];
        let mut s = vec![0u8; if serv.intval() == 0 { 0 } else { servlen as usize }];
        if !h.is_empty() {
            mem::check_write(host, h.len());
        }
        if !s.is_empty() {
            mem::check_write(serv, s.len());
        }
        let (hp, hl) = if h.is_empty() { (core::ptr::null_mut(), 0) } else { (h.as_mut_ptr(), h.len() as u32) };
        let (sp, sl) = if s.is_empty() { (core::ptr::null_mut(), 0) } else { (s.as_mut_ptr(), s.len() as u32) };
        // SAFETY: a private copy of the address and private out-buffers of
        // the stated sizes.
        let r = gimso_gc::exited(|| unsafe {
            libc::getnameinfo(a.as_ptr().cast(), salen, hp.cast(), hl, sp.cast(), sl, flags)
        });
        if r == 0 {
            for (p, buf) in [(host, &h), (serv, &s)] {
                if !buf.is_empty() {
                    let n = buf.iter().position(|&b| b == 0).map_or(buf.len(), |i| i + 1);
                    mem::write_bytes(p, &buf[..n]);
                }
            }
        } else if r == libc::EAI_SYSTEM {
            crate::errno::sync_from_libc();
        }
        r
    }
}
