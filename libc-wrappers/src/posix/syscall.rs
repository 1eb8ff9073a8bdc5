//! `syscall(number, ...)` for the system calls whose arguments the runtime
//! knows how to check. The C++ library waits on atomics with `SYS_futex`;
//! programs ask for `SYS_gettid` and `SYS_getrandom` where glibc once had
//! no wrapper. Any other number fails with `ENOSYS`: its arguments could be
//! pointers the kernel would use unchecked.

use gimso_abi::FlightPtr;

use super::{fail, sys};
use crate::cc::VarArgs;
use crate::{mem, wrapper};

/// The futex operations supported, without their flag bits.
const FUTEX_WAIT: i32 = 0;
const FUTEX_WAKE: i32 = 1;
const FUTEX_WAIT_BITSET: i32 = 9;
const FUTEX_WAKE_BITSET: i32 = 10;
/// `FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME`.
const FUTEX_FLAGS: i32 = 128 | 256;

/// `futex(uaddr, op, val, timeout, uaddr2, val3)` for waits and wakes:
/// the kernel reads the 4-byte word at `uaddr` (checked) and, for a wait,
/// the `struct timespec` at `timeout` (checked and copied). A wait blocks
/// with the thread exited, as any blocking call.
fn futex(va: &mut VarArgs) -> i64 {
    let args = va.args();
    let uaddr = args.next_ptr();
    let op = args.next_word() as i32;
    let val = args.next_word() as u32;
    let cmd = op & !FUTEX_FLAGS;
    let waits = matches!(cmd, FUTEX_WAIT | FUTEX_WAIT_BITSET);
    if !waits && !matches!(cmd, FUTEX_WAKE | FUTEX_WAKE_BITSET) {
        return i64::from(fail(libc::ENOSYS));
    }
    mem::check_read(uaddr, 4);
    let timeout = if waits {
        args.next_ptr()
    } else {
        FlightPtr::NULL
    };
    let bitset = if matches!(cmd, FUTEX_WAIT_BITSET | FUTEX_WAKE_BITSET) {
        if !waits {
            args.next_word(); // the unused timeout slot
        }
        args.next_word(); // uaddr2, unused by these operations
        args.next_word() as u32
    } else {
        0
    };
    let ts = (timeout.intval() != 0).then(|| {
        let bytes = mem::read_bytes(timeout, size_of::<libc::timespec>());
        let word = |i: usize| i64::from_ne_bytes(bytes[i..i + 8].try_into().unwrap_or([0; 8]));
        libc::timespec {
            tv_sec: word(0),
            tv_nsec: word(8),
        }
    });
    let ts_ptr = ts
        .as_ref()
        .map_or(core::ptr::null(), |t| t as *const libc::timespec);
    let addr = uaddr.intval() as *const u32;
    sys(|| {
        // SAFETY: `addr` is 4 readable bytes of a live object (checked);
        // the kernel only reads it, and a wake never touches it. `ts_ptr`
        // is null or a private timespec; the other arguments are integers.
        unsafe { libc::syscall(libc::SYS_futex, addr, op, val, ts_ptr, 0usize, bitset) }
    })
}

wrapper! {
    /// `long syscall(long number, ...)`.
    fn syscall(number: i64, va: VarArgs) -> i64 {
        match number {
            libc::SYS_futex => futex(&mut { va }),
            libc::SYS_gettid => {
                // SAFETY: gettid has no arguments.
                i64::from(unsafe { libc::gettid() })
            }
            libc::SYS_getpid => {
                // SAFETY: getpid has no arguments.
                i64::from(unsafe { libc::getpid() })
            }
            libc::SYS_sched_yield => {
                // SAFETY: sched_yield has no arguments.
                sys(|| i64::from(unsafe { libc::sched_yield() }))
            }
            libc::SYS_getrandom => {
                let mut va = va;
                let args = va.args();
                let buf = args.next_ptr();
                let n = args.next_word() as usize;
                let flags = args.next_word() as u32;
                crate::posix::process::getrandom::call(buf, n, flags)
            }
            _ => i64::from(fail(libc::ENOSYS)),
        }
    }
}
