//! POSIX threads for compiled programs.
//!
//! - Threads: `pthread_create`/`join`/`detach`/`self`/`equal`/`exit` in
//!   [`thread`], thread attributes in [`attr`].
//! - Synchronisation objects kept in place in the program's memory:
//!   [`mutex`], [`cond`], [`rwlock`], [`once`], and spin locks and barriers
//!   in [`spin`]. They are driven by 32-bit atomics and futexes ([`futex`])
//!   on checked addresses only, never trusting what the program may have
//!   stored there.
//! - Thread-specific data and its destructors in [`key`].
//! - `sched_yield`, `nanosleep` and `clock_nanosleep` in [`sched`].
//! - Pointers the library holds between calls, kept alive for the
//!   collector whatever thread holds them, in [`slots`].
//!
//! Every wait happens exited (`gimso_gc::exited`): a blocked thread never
//! holds up a collection.

pub mod attr;
pub mod cond;
pub mod futex;
pub mod key;
pub mod mutex;
pub mod once;
pub mod rwlock;
pub mod sched;
pub mod slots;
pub mod spin;
pub mod thread;
