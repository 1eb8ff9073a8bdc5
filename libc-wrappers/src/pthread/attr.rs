//! Thread attributes (`pthread_attr_t`, 56 bytes), in glibc's layout: the
//! flags `int` at offset 8 (bit 0: detached) and the stack size at 32
//! (0: the default). Other fields are kept zero and ignored.

use gimso_abi::FlightPtr;

use crate::{mem, wrapper};

const SIZE: usize = 56;
const FLAGS: isize = 8;
const STACK_SIZE: isize = 32;
const FLAG_DETACHED: u32 = 1;

/// glibc's default (the usual `RLIMIT_STACK`).
pub const DEFAULT_STACK: usize = 8 << 20;
/// `PTHREAD_STACK_MIN`: smaller requests are `EINVAL`.
const STACK_MIN: usize = 16 << 10;
/// The least a thread gets whatever it asks for: the runtime's own code
/// (safety reports capture backtraces) runs on the same stack.
const STACK_FLOOR: usize = 256 << 10;

/// What `pthread_create` takes from an attribute object.
#[derive(Clone, Copy, Debug)]
pub struct Attrs {
    /// Start detached.
    pub detached: bool,
    /// Native stack size in whole pages (0: more than can be had).
    pub stack_size: usize,
}

impl Attrs {
    /// Reads `attr` (NULL: the defaults), checking the fields it reads.
    pub fn read(attr: FlightPtr) -> Attrs {
        if attr.intval() == 0 {
            return Attrs {
                detached: false,
                stack_size: DEFAULT_STACK,
            };
        }
        let requested = stack_size(attr);
        Attrs {
            detached: flags(attr) & FLAG_DETACHED != 0,
            // Whole pages (0 if that overflows: pthread_create refuses it).
            stack_size: match requested {
                0 => DEFAULT_STACK,
                n => n
                    .max(STACK_FLOOR)
                    .checked_next_multiple_of(4096)
                    .unwrap_or(0),
            },
        }
    }
}

fn flags(attr: FlightPtr) -> u32 {
    u32::from_ne_bytes(mem::read_int::<4>(attr.offset(FLAGS)))
}

fn stack_size(attr: FlightPtr) -> usize {
    u64::from_ne_bytes(mem::read_int::<8>(attr.offset(STACK_SIZE))) as usize
}

wrapper! {
    /// `int pthread_attr_init(pthread_attr_t *attr)`.
    fn pthread_attr_init(attr: FlightPtr) -> i32 {
        mem::write_bytes(attr, &[0; SIZE]);
        0
    }
}

wrapper! {
    /// `int pthread_attr_destroy(pthread_attr_t *attr)`: nothing to free.
    fn pthread_attr_destroy(_attr: FlightPtr) -> i32 {
        0
    }
}

wrapper! {
    /// `int pthread_attr_setdetachstate(pthread_attr_t *attr, int state)`.
    fn pthread_attr_setdetachstate(attr: FlightPtr, state: i32) -> i32 {
        let f = flags(attr) & !FLAG_DETACHED;
        let f = match state {
            libc::PTHREAD_CREATE_JOINABLE => f,
            libc::PTHREAD_CREATE_DETACHED => f | FLAG_DETACHED,
            _ => return libc::EINVAL,
        };
        mem::write_int(attr.offset(FLAGS), &f.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_attr_getdetachstate(const pthread_attr_t *attr, int *state)`.
    fn pthread_attr_getdetachstate(attr: FlightPtr, state: FlightPtr) -> i32 {
        let s = if flags(attr) & FLAG_DETACHED != 0 {
            libc::PTHREAD_CREATE_DETACHED
        } else {
            libc::PTHREAD_CREATE_JOINABLE
        };
        mem::write_int(state, &s.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size)`.
    fn pthread_attr_setstacksize(attr: FlightPtr, size: u64) -> i32 {
        if (size as usize) < STACK_MIN {
            return libc::EINVAL;
        }
        mem::write_int(attr.offset(STACK_SIZE), &size.to_ne_bytes());
        0
    }
}

wrapper! {
    /// `int pthread_attr_getstacksize(const pthread_attr_t *attr, size_t *size)`.
    fn pthread_attr_getstacksize(attr: FlightPtr, size: FlightPtr) -> i32 {
        let s = match stack_size(attr) {
            0 => DEFAULT_STACK,
            s => s,
        } as u64;
        mem::write_int(size, &s.to_ne_bytes());
        0
    }
}
