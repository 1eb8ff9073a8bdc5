//! `<sys/epoll.h>`: `epoll_create`, `epoll_create1`, `epoll_ctl`,
//! `epoll_wait`, `epoll_pwait`, `epoll_pwait2`.
//!
//! The kernel keeps each registration's `epoll_data` (64 bits) and hands it
//! back from `epoll_wait`; a program that stores a pointer there
//! (`ev.data.ptr = conn`) expects it back usable, but the kernel's copy has
//! no capability. So `epoll_ctl` gives the kernel the program's data as it
//! is and keeps the capability here, by epoll instance and data value;
//! `epoll_wait` writes each event's data back with the capability kept for
//! that value (none if nothing was registered with it: integers, and a
//! registration deleted while the event was on its way, whose pointer is
//! then as unusable as a freed one). Kept capabilities hold their objects
//! alive, as the kernel's registration holds the program's pointer.
//!
//! glibc declares `struct epoll_event` packed on x86-64, its data 4 bytes
//! into the struct, where no pointer can be stored with its capability
//! (pointer slots are 8-byte aligned). `gimso-cc` compiles programs with
//! a `<bits/epoll.h>` that leaves it unpacked (16 bytes, data at offset 8),
//! and these wrappers convert to and from the kernel's 12-byte layout.
//!
//! A descriptor closed without `EPOLL_CTL_DEL` leaves the kernel's
//! registration gone and its capability kept here until the descriptor
//! number is registered again with that instance or the instance is closed:
//! at most one stale object per descriptor number.

use core::ffi::c_int;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use gimso_abi::FlightPtr;

use super::poll::{opt_ptr, sigset_in, timespec_in};
use super::{fail, sys32};
use crate::pthread::slots::Held;
use crate::{mem, wrapper};

/// Bytes of the program's `struct epoll_event`, and where its data is.
const EVENT: usize = 16;
const DATA: isize = 8;

/// One epoll instance's capabilities: the data value each descriptor was
/// registered with (descriptors whose data had a capability only), and per
/// data value the capability with the number of registrations using it.
#[derive(Default)]
struct Instance {
    by_fd: HashMap<c_int, u64>,
    by_data: HashMap<u64, (Held, usize)>,
}

impl Instance {
    /// Forgets `fd`'s registration.
    fn forget(&mut self, fd: c_int) {
        let Some(data) = self.by_fd.remove(&fd) else {
            return;
        };
        if let Some((_, uses)) = self.by_data.get_mut(&data) {
            *uses -= 1;
            if *uses == 0 {
                self.by_data.remove(&data);
            }
        }
    }

    /// Records `fd`'s registration with `data` (replacing any earlier one).
    fn remember(&mut self, fd: c_int, data: FlightPtr) {
        self.forget(fd);
        if data.lower() == 0 {
            return;
        }
        let value = data.intval() as u64;
        self.by_fd.insert(fd, value);
        self.by_data
            .entry(value)
            .and_modify(|(held, uses)| {
                held.set(data);
                *uses += 1;
            })
            .or_insert_with(|| (Held::new(data), 1));
    }

    /// The data value as the program sees it, with its capability if one
    /// was registered.
    fn data(&self, value: u64) -> FlightPtr {
        match self.by_data.get(&value) {
            Some((held, _)) => held.get(),
            None => FlightPtr::from_int(value as usize),
        }
    }
}

/// Instances by descriptor; `ANY` is set once the first is created, so
/// `close` of other descriptors never takes the lock.
static INSTANCES: Mutex<Option<HashMap<c_int, Instance>>> = Mutex::new(None);
static ANY: AtomicBool = AtomicBool::new(false);

fn with_instances<R>(f: impl FnOnce(&mut HashMap<c_int, Instance>) -> R) -> R {
    let mut guard = INSTANCES.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(HashMap::new))
}

/// A new instance at `epfd` (its number may have been another, closed,
/// instance's).
fn created(epfd: c_int) -> c_int {
    if epfd >= 0 {
        ANY.store(true, Ordering::Relaxed);
        with_instances(|all| all.insert(epfd, Instance::default()));
    }
    epfd
}

/// `fd` was closed: if it was an instance, its capabilities go.
pub fn closed(fd: c_int) {
    if ANY.load(Ordering::Relaxed) {
        let gone = with_instances(|all| all.remove(&fd));
        drop(gone);
    }
}

wrapper! {
    /// `int epoll_create(int size)`.
    fn epoll_create(size: i32) -> i32 {
        // SAFETY: no memory arguments.
        created(sys32(|| unsafe { libc::epoll_create(size) }))
    }
}

wrapper! {
    /// `int epoll_create1(int flags)`.
    fn epoll_create1(flags: i32) -> i32 {
        // SAFETY: no memory arguments.
        created(sys32(|| unsafe { libc::epoll_create1(flags) }))
    }
}

wrapper! {
    /// `int epoll_ctl(int epfd, int op, int fd, struct epoll_event *event)`:
    /// `event` is read whole for `EPOLL_CTL_ADD` and `EPOLL_CTL_MOD`
    /// (ignored, and may be null, for `EPOLL_CTL_DEL`, as on Linux since
    /// 2.6.9).
    fn epoll_ctl(epfd: i32, op: i32, fd: i32, event: FlightPtr) -> i32 {
        let given = if op == libc::EPOLL_CTL_DEL {
            None
        } else {
            mem::check_read(event, EVENT);
            let events = u32::from_ne_bytes(mem::read_int::<4>(event));
            Some((events, mem::load_ptr(event.offset(DATA))))
        };
        let mut kernel = libc::epoll_event {
            events: given.map_or(0, |(events, _)| events),
            u64: given.map_or(0, |(_, data)| data.intval() as u64),
        };
        // The table is updated under its lock together with the kernel's
        // registration, so concurrent changes to one registration reach
        // both in the same order. epoll_ctl never blocks, so it runs
        // entered (a thread waiting for the lock never waits long).
        with_instances(|all| {
            // SAFETY: `kernel` is a private event in the kernel's layout.
            let r = unsafe { libc::epoll_ctl(epfd, op, fd, &mut kernel) };
            if r == -1 {
                // SAFETY: __errno_location returns this thread's errno.
                return fail(unsafe { *libc::__errno_location() });
            }
            {
                let instance = all.entry(epfd).or_default();
                match given {
                    Some((_, data)) => instance.remember(fd, data),
                    None => instance.forget(fd),
                }
            }
            r
        })
    }
}

/// The program's event array of `maxevents` entries, checked for writing
/// (a count the array cannot hold is reported before the wait).
fn events_out(events: FlightPtr, maxevents: i32) -> Option<Vec<libc::epoll_event>> {
    let n = usize::try_from(maxevents).ok().filter(|&n| n > 0)?;
    mem::check_write(events, n.checked_mul(EVENT)?);
    Some(vec![libc::epoll_event { events: 0, u64: 0 }; n])
}

/// Writes the `n` events the kernel returned into the program's array.
fn deliver(epfd: c_int, events: FlightPtr, got: &[libc::epoll_event]) {
    let data: Vec<FlightPtr> = with_instances(|all| {
        let instance = all.get(&epfd);
        got.iter()
            .map(|e| {
                let value = e.u64;
                match instance {
                    Some(i) => i.data(value),
                    None => FlightPtr::from_int(value as usize),
                }
            })
            .collect()
    });
    for (i, (e, d)) in got.iter().zip(data).enumerate() {
        let at = events.offset((i * EVENT) as isize);
        let kinds = e.events;
        mem::write_int(at, &kinds.to_ne_bytes());
        mem::write_int(at.offset(4), &[0; 4]);
        mem::store_ptr(at.offset(DATA), d);
    }
}

/// A wait: checks the array, waits exited into a private one, delivers.
fn wait(
    epfd: c_int,
    events: FlightPtr,
    maxevents: i32,
    call: impl FnOnce(*mut libc::epoll_event, c_int) -> c_int,
) -> i32 {
    let Some(mut got) = events_out(events, maxevents) else {
        return fail(libc::EINVAL);
    };
    let r = sys32(|| call(got.as_mut_ptr(), maxevents));
    if r > 0 {
        deliver(epfd, events, &got[..r as usize]);
    }
    r
}

wrapper! {
    /// `int epoll_wait(int epfd, struct epoll_event *events, int maxevents,
    /// int timeout)`.
    fn epoll_wait(epfd: i32, events: FlightPtr, maxevents: i32, timeout: i32) -> i32 {
        wait(epfd, events, maxevents, |buf, n| {
            // SAFETY: `buf` is a private array of `n` events.
            unsafe { libc::epoll_wait(epfd, buf, n, timeout) }
        })
    }
}

wrapper! {
    /// `int epoll_pwait(int epfd, struct epoll_event *events, int
    /// maxevents, int timeout, const sigset_t *sigmask)`.
    fn epoll_pwait(epfd: i32, events: FlightPtr, maxevents: i32, timeout: i32, sigmask: FlightPtr) -> i32 {
        let mask = sigset_in(sigmask);
        wait(epfd, events, maxevents, |buf, n| {
            // SAFETY: a private array of `n` events and a private mask (or null).
            unsafe { libc::epoll_pwait(epfd, buf, n, timeout, opt_ptr(&mask)) }
        })
    }
}

unsafe extern "C" {
    fn epoll_pwait2(
        epfd: c_int,
        events: *mut libc::epoll_event,
        maxevents: c_int,
        timeout: *const libc::timespec,
        sigmask: *const libc::sigset_t,
    ) -> c_int;
}

wrapper! {
    /// `int epoll_pwait2(int epfd, struct epoll_event *events, int
    /// maxevents, const struct timespec *timeout, const sigset_t *sigmask)`.
    fn epoll_pwait2(epfd: i32, events: FlightPtr, maxevents: i32, timeout: FlightPtr, sigmask: FlightPtr) -> i32 {
        let (t, mask) = (timespec_in(timeout), sigset_in(sigmask));
        wait(epfd, events, maxevents, |buf, n| {
            // SAFETY: a private array of `n` events, timeout and mask (or null).
            unsafe { super::epoll_pwait2(epfd, buf, n, opt_ptr(&t), opt_ptr(&mask)) }
        })
    }
}
