//! OS layer: address-space reservation, decommit and release.
//!
//! The design names `memmap2`, but it can neither make aligned reservations
//! nor trim a mapping, both of which chunks and large objects need, so this
//! module calls `libc::mmap`/`munmap`/`madvise` directly.
//!
//! There is no explicit commit step: chunks and large objects are mapped
//! read-write (charged against the commit limit at `mmap` time, so exhaustion
//! is reported cleanly here instead of as a fault on first touch), and Linux
//! backs a page with zeroed memory on first touch. Decommit is
//! `madvise(MADV_DONTNEED)`, which drops the physical pages and makes the next
//! touch see zeroes again.

use core::ptr::NonNull;

/// The granularity the kernel maps memory in on every platform gimso targets.
pub const OS_PAGE: usize = 4096;

/// User address space covered by the chunk table (x86-64 and AArch64 with
/// 4-level page tables). Mappings above it are refused.
pub const ADDRESS_BITS: u32 = 47;

/// Writes `gimso: fatal error: out of memory: cannot allocate N bytes` to
/// stderr and terminates the process with status 134.
///
/// It allocates nothing and unwinds nothing: it may run when the heap is
/// exhausted or half-updated, so `_exit` is the only safe way out.
pub fn fatal_oom(size: usize) -> ! {
    const PREFIX: &[u8] = b"gimso: fatal error: out of memory: cannot allocate ";
    const SUFFIX: &[u8] = b" bytes\n";
    let mut buf = [0u8; PREFIX.len() + 20 + SUFFIX.len()];
    buf[..PREFIX.len()].copy_from_slice(PREFIX);
    let mut digits = [0u8; 20];
    let mut n = size;
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let mut at = PREFIX.len();
    for i in (0..len).rev() {
        buf[at] = digits[i];
        at += 1;
    }
    buf[at..at + SUFFIX.len()].copy_from_slice(SUFFIX);
    at += SUFFIX.len();
    // SAFETY: `buf[..at]` is initialised memory owned by this frame; write(2)
    // only reads it. A short or failed write is ignored: we are exiting anyway.
    unsafe {
        libc::write(2, buf.as_ptr().cast(), at);
    }
    // SAFETY: `_exit` has no preconditions; it never returns.
    unsafe { libc::_exit(134) }
}

/// Maps `len` bytes of zeroed read-write memory whose start is a multiple of
/// `align` (a power of two, at least [`OS_PAGE`]). Returns `None` when the
/// kernel refuses or the mapping would lie outside the chunk table's range.
///
/// Over-reserves `len + align` and unmaps the misaligned head and the tail,
/// because `mmap` has no alignment argument.
pub fn map_aligned(len: usize, align: usize) -> Option<NonNull<u8>> {
    debug_assert!(align.is_power_of_two() && align >= OS_PAGE);
    debug_assert!(len & (OS_PAGE - 1) == 0 && len > 0);
    let total = len.checked_add(align)?;
    // SAFETY: an anonymous private mapping at a kernel-chosen address touches
    // no existing memory.
    let raw = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            total,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return None;
    }
    let raw = raw as usize;
    let start = (raw + align - 1) & !(align - 1);
    let head = start - raw;
    let tail = total - head - len;
    if head > 0 {
        // SAFETY: `[raw, start)` is part of the mapping just created and not
        // yet handed to anyone.
        unsafe { unmap(raw, head) };
    }
    if tail > 0 {
        // SAFETY: `[start + len, raw + total)` is the unused tail of the same
        // fresh mapping.
        unsafe { unmap(start + len, tail) };
    }
    if (start + len - 1) >> ADDRESS_BITS != 0 {
        // SAFETY: `[start, start + len)` is ours and unused.
        unsafe { unmap(start, len) };
        return None;
    }
    NonNull::new(start as *mut u8)
}

/// Reserves `len` bytes of zeroed read-write memory without charging the
/// commit limit; pages materialise (zeroed) on first touch. Used for the
/// sparse chunk table, of which only a few pages are ever touched.
pub fn map_noreserve(len: usize) -> Option<NonNull<u8>> {
    // SAFETY: an anonymous private mapping at a kernel-chosen address touches
    // no existing memory.
    let raw = unsafe {
        libc::mmap(
            core::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return None;
    }
    NonNull::new(raw.cast())
}

/// Gives the physical memory behind `[addr, addr + len)` back to the OS; the
/// range stays mapped and reads as zero afterwards.
///
/// # Safety
/// The range must be page-aligned, inside a mapping made by this module, and
/// hold nothing anyone still needs.
pub unsafe fn decommit(addr: usize, len: usize) {
    // SAFETY: the caller guarantees the range is ours and dead. MADV_DONTNEED
    // on a private anonymous mapping cannot fail for a valid range, so the
    // result is only checked in debug builds.
    let r = unsafe { libc::madvise(addr as *mut libc::c_void, len, libc::MADV_DONTNEED) };
    debug_assert_eq!(r, 0);
}

/// Unmaps `[addr, addr + len)`.
///
/// # Safety
/// The range must be page-aligned, inside a mapping made by this module, and
/// nothing may access it afterwards.
pub unsafe fn unmap(addr: usize, len: usize) {
    // SAFETY: the caller guarantees the range is ours and no longer used.
    let r = unsafe { libc::munmap(addr as *mut libc::c_void, len) };
    debug_assert_eq!(r, 0);
}
