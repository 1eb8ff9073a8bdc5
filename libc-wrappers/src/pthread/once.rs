//! `pthread_once` on the program's `pthread_once_t` (an `int`, 0 =
//! `PTHREAD_ONCE_INIT`): 0 not run, 1 running, 2 done (any other value
//! counts as done). The thread that moves it from 0 to 1 calls the init
//! routine; the others sleep on the word until it is 2.
//!
//! A thread that leaves the init routine through `pthread_exit` puts the
//! word back to 0 and wakes the sleepers, as glibc does for cancellation,
//! so one of them runs the routine instead of all waiting forever.

use core::cell::RefCell;

use gimso_abi::FlightPtr;

use super::futex::{Region, Word};
use crate::call::Callee;
use crate::wrapper;

const INIT: u32 = 0;
const RUNNING: u32 = 1;
const DONE: u32 = 2;

thread_local! {
    /// Addresses of the once words whose routine this thread is running,
    /// innermost last.
    static IN_PROGRESS: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

fn once(control: FlightPtr, init: FlightPtr) -> i32 {
    let w = Region::check(control, 4).word(0);
    loop {
        match w.load() {
            INIT => {
                if w.cas(INIT, RUNNING).is_err() {
                    continue;
                }
                // Checked here, where reporting leaves no thread waiting.
                let f = Callee::check(init);
                IN_PROGRESS.with(|v| v.borrow_mut().push(w.addr()));
                f.call(&[], 0, "a pthread_once init routine");
                IN_PROGRESS.with(|v| v.borrow_mut().pop());
                w.store(DONE);
                w.wake_all();
                return 0;
            }
            RUNNING => {
                gimso_gc::exited(|| w.wait(RUNNING, None));
            }
            _ => return 0,
        }
    }
}

/// Called by `pthread_exit`: releases the once words whose routine the
/// thread is leaving unfinished.
pub fn abandon_running() {
    let words = IN_PROGRESS.with(|v| core::mem::take(&mut *v.borrow_mut()));
    for addr in words.into_iter().rev() {
        // SAFETY: the address was checked by `once`, whose frame is still
        // on this thread's stack (pthread_exit is called from inside the
        // init routine it runs).
        let w = unsafe { Word::from_checked_addr(addr) };
        w.store(INIT);
        w.wake_all();
    }
}

wrapper! {
    /// `int pthread_once(pthread_once_t *control, void (*init)(void))`.
    fn pthread_once(control: FlightPtr, init: FlightPtr) -> i32 {
        once(control, init)
    }
}
