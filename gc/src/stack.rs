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
