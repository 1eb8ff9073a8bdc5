//! Stacks and registers: where a thread's stack ends, and spilling the
//! callee-saved registers so a conservative scan sees pointers held there.

/// Number of callee-saved registers spilled.
#[cfg(target_arch = "x86_64")]
pub const SAVED_REGS: usize = 6;
/// Number of callee-saved registers spilled.
#[cfg(target_arch = "aarch64")]
pub const SAVED_REGS: usize = 12;

/// The highest address of the calling thread's stack (one past its end).
pub fn current_stack_top() -> usize {
    // SAFETY: pthread_getattr_np fills `attr` for the calling thread; we
    // destroy it after reading; all pointers are to locals.
    unsafe {
        let mut attr: libc::pthread_attr_t = core::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return fallback_top();
        }
        let mut addr: *mut libc::c_void = core::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let rc = libc::pthread_attr_getstack(&attr, &mut addr, &mut size);
        libc::pthread_attr_destroy(&mut attr);
        if rc != 0 || addr.is_null() {
            return fallback_top();
        }
        addr as usize + size
    }
}

/// If the stack cannot be queried, scan up to 1 MiB above a local: a
/// conservative overestimate would fault, so stay well inside.
fn fallback_top() -> usize {
    let here = 0usize;
    (&here as *const usize as usize).saturating_add(64 << 10)
}

/// Spills the callee-saved registers into a buffer on this frame and calls
/// `f(regs, sp)` where `sp` is an address at or below every frame of the
/// caller chain (and the buffer): scanning `[sp, stack_top)` covers every
/// value the callers hold in memory or in callee-saved registers.
#[inline(never)]
pub fn with_spilled_registers<R>(f: impl FnOnce(&[usize; SAVED_REGS], usize) -> R) -> R {
    let mut regs = [0usize; SAVED_REGS];
    // SAFETY: stores the callee-saved registers into `regs`, which is
    // SAVED_REGS words long; no register is modified.
    unsafe { spill(regs.as_mut_ptr()) };
    let sp = regs.as_ptr() as usize;
    let r = f(&regs, sp);
    core::hint::black_box(&regs);
    r
}

#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn spill(out: *mut usize) {
    // SAFETY: the caller provides SAVED_REGS writable words at `out`.
    unsafe {
        core::arch::asm!(
            "mov [{0}], rbx",
            "mov [{0} + 8], rbp",
            "mov [{0} + 16], r12",
            "mov [{0} + 24], r13",
            "mov [{0} + 32], r14",
            "mov [{0} + 40], r15",
            in(reg) out,
            options(nostack, preserves_flags)
        );
    }
}

#[cfg(target_arch = "aarch64")]
#[inline(always)]
unsafe fn spill(out: *mut usize) {
    // SAFETY: the caller provides SAVED_REGS writable words at `out`.
    unsafe {
        core::arch::asm!(
            "stp x19, x20, [{0}]",
            "stp x21, x22, [{0}, #16]",
            "stp x23, x24, [{0}, #32]",
            "stp x25, x26, [{0}, #48]",
            "stp x27, x28, [{0}, #64]",
            "stp x29, x30, [{0}, #80]",
            in(reg) out,
            options(nostack, preserves_flags)
        );
    }
}

/// Calls `f` on every aligned word of `[lo, hi)`, read with volatile loads
/// (another thread's stack, or our own frames, may change under us; any
/// value is acceptable to a conservative scan).
///
/// # Safety
/// `[lo, hi)` must be mapped readable memory (a live thread's stack above
/// its current stack pointer, or a register save area).
pub unsafe fn scan_words(lo: usize, hi: usize, mut f: impl FnMut(usize)) {
    let mut p = (lo + 7) & !7;
    while p + 8 <= hi {
        // SAFETY: the caller guarantees the range is readable; p is aligned.
        f(unsafe { core::ptr::read_volatile(p as *const usize) });
        p += 8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(lo: usize, hi: usize) -> Vec<usize> {
        let mut out = Vec::new();
        // SAFETY: callers pass ranges inside a live local array.
        unsafe { scan_words(lo, hi, |w| out.push(w)) };
        out
    }

    #[test]
    fn scan_words_reads_every_aligned_word_of_the_range() {
        let words: [usize; 5] = [10, 11, 12, 13, 14];
        let lo = words.as_ptr() as usize;
        assert_eq!(collect(lo, lo + 40), words);
        assert_eq!(collect(lo + 8, lo + 24), [11, 12]);
        assert!(collect(lo, lo).is_empty());
        assert!(collect(lo + 16, lo + 8).is_empty());
    }

    #[test]
    fn scan_words_skips_partial_words_at_both_ends() {
        let words: [usize; 4] = [20, 21, 22, 23];
        let lo = words.as_ptr() as usize;
        // An unaligned start rounds up to the next word.
        assert_eq!(collect(lo + 1, lo + 32), [21, 22, 23]);
        assert_eq!(collect(lo + 7, lo + 32), [21, 22, 23]);
        // A word reaching past the end is not read.
        assert_eq!(collect(lo, lo + 31), [20, 21, 22]);
        assert!(collect(lo + 1, lo + 15).is_empty());
    }

    #[test]
    fn the_stack_top_is_above_our_frames() {
        let local = 0usize;
        let here = &local as *const usize as usize;
        let top = current_stack_top();
        assert!(top > here);
        // Threads get 2 MiB stacks by default; the main thread's stack
        // limit is typically 8 MiB.
        assert!(top - here < 64 << 20, "top {top:#x}, local at {here:#x}");
    }

    #[test]
    fn the_stack_top_of_another_thread_is_its_own() {
        let ours = current_stack_top();
        let theirs = std::thread::spawn(|| {
            let local = 0usize;
            let here = &local as *const usize as usize;
            let top = current_stack_top();
            assert!(top > here);
            top
        })
        .join()
        .unwrap();
        assert_ne!(ours, theirs);
    }

    #[test]
    fn spilled_registers_and_sp_lie_below_the_callers_frames() {
        let local = 0x5eed_usize;
        let here = core::hint::black_box(&local) as *const usize as usize;
        let (sp, found) = with_spilled_registers(|regs, sp| {
            // The buffer is on the callee's frame, at `sp`.
            assert_eq!(sp, regs.as_ptr() as usize);
            let mut found = false;
            // SAFETY: [sp, top) is the live part of our own stack.
            unsafe {
                scan_words(sp, current_stack_top(), |w| found |= w == 0x5eed);
            }
            (sp, found)
        });
        assert!(sp < here);
        assert!(found, "a scan from sp misses the caller's locals");
    }

    #[test]
    fn the_fallback_top_is_above_the_caller() {
        let local = 0usize;
        let here = &local as *const usize as usize;
        assert!(fallback_top() > here);
    }
}
