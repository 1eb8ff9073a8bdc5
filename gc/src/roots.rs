//! Roots: registered globals, precise root ranges, runtime-held handles,
//! CC buffers, and conservatively scanned stacks and registers.

use std::sync::Arc;

use parking_lot::Mutex;

use crate::handshake::Context;
use crate::mark::{mark_conservative, mark_lower, push_grey};
use crate::stack::{scan_words, with_spilled_registers};
use crate::thread::{Thread, current};

static GLOBAL_OBJECTS: Mutex<Vec<usize>> = Mutex::new(Vec::new());
static ROOT_RANGES: Mutex<Vec<(usize, usize)>> = Mutex::new(Vec::new());

/// Registers a global object (its capability): it and everything it
/// references stay alive for the rest of the program.
pub fn register_global_object(lower: usize) {
    if lower != 0 {
        GLOBAL_OBJECTS.lock().push(lower);
    }
}

/// Registers `words` words at `start`, each holding a capability or 0, as
/// precise roots (runtime statics).
///
/// # Safety
/// The range must stay readable for the rest of the program.
pub unsafe fn register_root_range(start: *const usize, words: usize) {
    ROOT_RANGES.lock().push((start as usize, words));
}

/// The registered global objects.
pub(crate) fn global_objects() -> Vec<usize> {
    GLOBAL_OBJECTS.lock().clone()
}

/// Marks the registered globals and root ranges, pushing greys.
pub(crate) fn mark_globals() {
    let mut grey = Vec::new();
    for &lower in GLOBAL_OBJECTS.lock().iter() {
        match mark_lower(lower) {
            Some(l) => grey.push(l),
            // Not a heap object (a static): trace it every time.
            None if gimso_heap::lookup(lower).is_none() => grey.push(lower),
            None => {}
        }
    }
    // Exposed heap objects (`-fgimso-exposed-provenance`): integers may
    // still lead to them until they are freed.
    grey.extend(
        gimso_shadow::exposed::pinned()
            .into_iter()
            .filter_map(mark_lower),
    );
    for &(start, words) in ROOT_RANGES.lock().iter() {
        for i in 0..words {
            // SAFETY: registered ranges stay readable (register_root_range).
            let w = unsafe { core::ptr::read_volatile((start as *const usize).add(i)) };
            grey.extend(mark_lower(w));
        }
    }
    push_grey(&mut grey);
}

/// Scans one thread's roots: its stack and registers (conservatively), its
/// CC buffers and handles (precisely), and hands over the objects its store
/// barrier greyed. Runs in a handshake callback, so the caller holds the
/// thread's run lock.
pub(crate) fn scan_thread(t: &Thread, ctx: Context) {
    if t.is_detached() {
        return;
    }
    let mut grey = Vec::new();
    let top = t.stack_top();
    match ctx {
        Context::Own => with_spilled_registers(|regs, sp| {
            for &r in regs {
                grey.extend(mark_conservative(r));
            }
            // SAFETY: [sp, top) is the live part of our own stack.
            unsafe { scan_words(sp, top, |w| grey.extend(mark_conservative(w))) };
        }),
        Context::OnBehalf => {
            let (regs, sp) = t.saved_state();
            for r in regs {
                grey.extend(mark_conservative(r));
            }
            if sp != 0 && sp < top {
                // SAFETY: the thread is exited (we hold its run lock) and not
                // detached, so its stack above the saved pointer is mapped and
                // holds its callers' frames.
                unsafe { scan_words(sp, top, |w| grey.extend(mark_conservative(w))) };
            }
        }
    }
    for &cap in t.cc_caps().iter().chain(t.cc_outline_caps()) {
        grey.extend(mark_lower(cap));
    }
    // SAFETY: the caller holds t's run lock (handshake callback).
    unsafe {
        for &h in t.handles_mut().iter() {
            grey.extend(mark_lower(h));
        }
        grey.append(t.grey_mut());
    }
    push_grey(&mut grey);
}

/// Keeps a capability alive while runtime code holds it somewhere the
/// conservative stack scan cannot see (a Rust collection, say) across a
/// safepoint. Guards may be dropped in any order, on the thread that made
/// them.
pub struct Root {
    /// The thread whose handle list holds the root, kept alive by the guard
    /// itself: a guard may drop after its thread detached (a thread-local's
    /// destructor running late), and clearing a detached thread's handle
    /// must not write into freed memory.
    thread: Arc<Thread>,
    /// Index in the thread's handle list, or `usize::MAX` for a null root.
    index: usize,
}

impl Root {
    /// Roots `lower` for the calling thread until the guard drops.
    pub fn new(lower: usize) -> Root {
        let current: *const Thread = current();
        // SAFETY: `current` is the pointer of the `Arc` the thread's
        // attachment holds (alive while the thread is attached, as it is
        // now); one more strong count makes this guard's own reference.
        let thread = unsafe {
            Arc::increment_strong_count(current);
            Arc::from_raw(current)
        };
        if lower == 0 {
            return Root {
                thread,
                index: usize::MAX,
            };
        }
        // SAFETY: the calling thread is entered and owns its handle list.
        let index = hold(unsafe { thread.handles_mut() }, lower);
        Root { thread, index }
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        if self.index == usize::MAX {
            return;
        }
        // SAFETY: guards drop on their own thread: entered, or after it
        // detached (its handles are no longer read; the Arc keeps them).
        release(unsafe { self.thread.handles_mut() }, self.index);
    }
}

/// Adds the non-zero capability `lower` to a thread's handle list; returns
/// its index, valid until [`release`].
fn hold(handles: &mut Vec<usize>, lower: usize) -> usize {
    handles.push(lower);
    handles.len() - 1
}

/// Drops the handle at `index` (scans skip the zero left in its place).
fn release(handles: &mut Vec<usize>, index: usize) {
    // Live entries are never zero, so trailing zeros are exactly the
    // dropped guards at the end: indices of live guards never move.
    handles[index] = 0;
    while handles.last() == Some(&0) {
        handles.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_keep_their_index_whatever_the_drop_order() {
        let mut h = Vec::new();
        let a = hold(&mut h, 0xa0);
        let b = hold(&mut h, 0xb0);
        let c = hold(&mut h, 0xc0);
        assert_eq!((a, b, c), (0, 1, 2));
        release(&mut h, b);
        assert_eq!(h, [0xa0, 0, 0xc0]);
        let d = hold(&mut h, 0xd0);
        assert_eq!(h[d], 0xd0);
        assert_eq!(h[c], 0xc0);
        release(&mut h, a);
        assert_eq!(h, [0, 0, 0xc0, 0xd0]);
        assert_eq!(h[c], 0xc0);
        assert_eq!(h[d], 0xd0);
    }

    #[test]
    fn dropping_the_last_handle_trims_every_trailing_hole() {
        let mut h = Vec::new();
        let a = hold(&mut h, 0xa0);
        let b = hold(&mut h, 0xb0);
        let c = hold(&mut h, 0xc0);
        release(&mut h, b);
        release(&mut h, c);
        assert_eq!(h, [0xa0]);
        release(&mut h, a);
        assert!(h.is_empty());
        // The list grows again from the start.
        assert_eq!(hold(&mut h, 0xe0), 0);
    }

    #[test]
    fn null_globals_are_not_registered() {
        // A freed object outside the heap: should a cycle ever trace it,
        // it references nothing.
        #[repr(C, align(16))]
        struct Global {
            header: gimso_abi::ObjectHeader,
            payload: [usize; 2],
        }
        static OBJECT: Global = Global {
            header: gimso_abi::ObjectHeader {
                upper: core::sync::atomic::AtomicUsize::new(0),
                aux: core::sync::atomic::AtomicU64::new(gimso_abi::FLAG_FREE),
            },
            payload: [0; 2],
        };
        let lower = OBJECT.payload.as_ptr() as usize;
        let before = global_objects().len();
        register_global_object(0);
        assert_eq!(global_objects().len(), before);
        register_global_object(lower);
        let after = global_objects();
        assert_eq!(after.len(), before + 1);
        assert!(after.contains(&lower));
        assert!(!after.contains(&0));
    }
}
