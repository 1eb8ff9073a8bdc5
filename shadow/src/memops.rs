//! `memmove` / `memcpy` / `memset` with the spec's capability rules.
//!
//! - In phase (`dst % 8 == src % 8`): every word wholly inside the copied
//!   range takes the source word's capability; a word only partly covered
//!   at either end loses its capability.
//! - Out of phase: every destination word the range touches loses its
//!   capability.
//! - `memset` nulls the capability of every word it touches.
//! - `memcpy` is `memmove`; overlapping ranges move as memmove does, bytes
//!   and capabilities alike.
//!
//! Capabilities copied from a word in atomic mode are stored in
//! non-atomic mode (the box's `lower`), like any plain pointer store.

use core::sync::atomic::{AtomicUsize, Ordering};

use gimso_abi::{AtomicBoxPayload, FlightPtr, SHADOW_BOX_TAG, SourceLocation, WORD_SIZE};
use gimso_heap::LocalHeap;

use crate::alloc::ensure_aux;
use crate::barrier::store_barrier;
use crate::check::{Access, access_ok, check_access_at};
use crate::object::ObjRef;

/// The capability a shadow word holds, unwrapping an atomic box.
#[inline(always)]
pub fn capability_of_word(w: usize) -> usize {
    if w & SHADOW_BOX_TAG == 0 {
        return w;
    }
    // SAFETY: a tagged shadow word points at an immutable atomic box that
    // stays alive while the word references it.
    let b = unsafe { &*((w & !SHADOW_BOX_TAG) as *const AtomicBoxPayload) };
    b.lower.load(Ordering::Acquire)
}

#[inline(always)]
fn shadow_word(aux: *const AtomicUsize, obj: ObjRef, addr: usize) -> &'static AtomicUsize {
    // SAFETY: aux holds one word per payload word and `addr` is a word
    // address inside the payload, checked by the caller.
    unsafe { &*aux.add((addr - obj.lower()) / WORD_SIZE) }
}

/// Word addresses `[first, last]` touched by `[addr, addr + n)`, n > 0.
fn touched_words(addr: usize, n: usize) -> (usize, usize) {
    let first = addr & !(WORD_SIZE - 1);
    let last = (addr + n - 1) & !(WORD_SIZE - 1);
    (first, last)
}

/// Nulls the capabilities of every word `[addr, addr + n)` touches.
///
/// Words already null are only read: a page-sized buffer that never held a
/// pointer (SQLite clears one for every new page) costs a scan of its
/// shadow, not a store per word. Skipping the store is a valid outcome of
/// any race: a capability stored concurrently reads as stored after it.
fn null_capabilities(obj: ObjRef, addr: usize, n: usize) {
    let Some(aux) = obj.aux_words() else { return };
    let (first, last) = touched_words(addr, n);
    let words = (last - first) / WORD_SIZE + 1;
    // SAFETY: aux holds one word per payload word; `first..=last` are word
    // addresses inside the payload (the caller checked the range).
    let shadow = unsafe { core::slice::from_raw_parts(shadow_word(aux, obj, first), words) };
    // Eight words (a cache line) at a time, one branch per line: the common
    // buffer holds no capability at all, and the scan is what it costs.
    let mut lines = shadow.chunks_exact(8);
    for line in &mut lines {
        let any = line
            .iter()
            .fold(0, |acc, w| acc | w.load(Ordering::Relaxed));
        if any != 0 {
            null_words(line);
        }
    }
    null_words(lines.remainder());
}

fn null_words(words: &[AtomicUsize]) {
    for w in words {
        if w.load(Ordering::Relaxed) != 0 {
            w.store(0, Ordering::Release);
        }
    }
}

/// `memmove(dst, src, n)`: bounds-checks both ranges, moves the bytes, then
/// moves or nulls capabilities as the module documentation says.
pub fn memmove_at(
    local: &mut LocalHeap,
    dst: FlightPtr,
    src: FlightPtr,
    n: usize,
    loc: &SourceLocation,
) {
    if n == 0 {
        return;
    }
    let src_obj = check_access_at(src, Access::read(n), loc);
    let dst_obj = check_access_at(dst, Access::write(n), loc);
    // SAFETY: both ranges were just checked against live objects; ptr::copy
    // has memmove semantics for overlapping ranges.
    unsafe { core::ptr::copy(src.intval() as *const u8, dst.intval() as *mut u8, n) };

    let in_phase = dst.intval() % WORD_SIZE == src.intval() % WORD_SIZE;
    let src_aux = src_obj.aux_words();
    if !in_phase || src_aux.is_none() {
        null_capabilities(dst_obj, dst.intval(), n);
        return;
    }
    let src_aux = src_aux.unwrap_or(core::ptr::null());
    let (first, last) = touched_words(dst.intval(), n);
    let end = dst.intval() + n;
    let whole = |w: usize| w >= dst.intval() && w + WORD_SIZE <= end;
    let delta = src.intval().wrapping_sub(dst.intval());
    let mut dst_aux = dst_obj.aux_words();
    // Walk in the direction memmove would, so an overlapping move within one
    // object reads each source capability before overwriting it.
    let backward = dst.intval() > src.intval();
    let count = (last - first) / WORD_SIZE + 1;
    for i in 0..count {
        let w = if backward {
            last - i * WORD_SIZE
        } else {
            first + i * WORD_SIZE
        };
        let cap = if whole(w) {
            let s = w.wrapping_add(delta);
            capability_of_word(shadow_word(src_aux, src_obj, s).load(Ordering::Acquire))
        } else {
            0
        };
        if cap == 0 && dst_aux.is_none() {
            continue;
        }
        if dst_aux.is_none() {
            dst_aux = ensure_aux(local, dst_obj);
        }
        let Some(aux) = dst_aux else { return }; // freed meanwhile: caps moot
        store_barrier(cap);
        shadow_word(aux, dst_obj, w).store(cap, Ordering::Release);
    }
}

/// Largest copy [`memmove_small`] handles.
pub const SMALL_MOVE_MAX: usize = 16;

/// `memmove(dst, src, n)` for `0 < n <= SMALL_MOVE_MAX` when no capability
/// moves (the common short copy: a Lua string's bytes, a SQLite varint):
/// both ranges in bounds, and no destination word wholly covered takes a
/// non-null capability from an in-phase source. Then the bytes are moved
/// and the destination words touched lose their capabilities; returns
/// `true`. Otherwise returns `false` having changed nothing, and the
/// caller takes [`memmove_at`] (which also reports a failed check).
#[inline]
pub fn memmove_small(dst: FlightPtr, src: FlightPtr, n: usize) -> bool {
    debug_assert!(n > 0 && n <= SMALL_MOVE_MAX);
    if !access_ok(src, Access::read(n)) || !access_ok(dst, Access::write(n)) {
        return false;
    }
    // SAFETY: both capabilities passed their checks, so they are non-zero
    // and runtime-issued.
    let (src_obj, dst_obj) = unsafe {
        (
            ObjRef::from_lower(src.lower()),
            ObjRef::from_lower(dst.lower()),
        )
    };
    let (first, last) = touched_words(dst.intval(), n);
    if dst.intval() % WORD_SIZE == src.intval() % WORD_SIZE {
        if let Some(src_aux) = src_obj.aux_words() {
            let end = dst.intval() + n;
            let mut w = first;
            while w <= last {
                if w >= dst.intval() && w + WORD_SIZE <= end {
                    let s = w.wrapping_add(src.intval().wrapping_sub(dst.intval()));
                    if shadow_word(src_aux, src_obj, s).load(Ordering::Acquire) != 0 {
                        return false;
                    }
                }
                w += WORD_SIZE;
            }
        }
    }
    // SAFETY: both ranges were checked against live objects; every source
    // byte is read before any destination byte is written, so overlapping
    // ranges move as memmove's do.
    unsafe { move_short(src.intval() as *const u8, dst.intval() as *mut u8, n) };
    if let Some(aux) = dst_obj.aux_words() {
        let mut w = first;
        while w <= last {
            let cell = shadow_word(aux, dst_obj, w);
            if cell.load(Ordering::Relaxed) != 0 {
                cell.store(0, Ordering::Release);
            }
            w += WORD_SIZE;
        }
    }
    true
}

/// Copies `n` (1 to 16) bytes, all loads before all stores.
///
/// # Safety
/// `src..src + n` must be readable and `dst..dst + n` writable.
#[inline(always)]
unsafe fn move_short(src: *const u8, dst: *mut u8, n: usize) {
    // SAFETY: in every arm, each access lies inside the `n` bytes of its
    // range (the caller's contract), read and written unaligned.
    unsafe {
        if n >= 8 {
            let a = src.cast::<u64>().read_unaligned();
            let b = src.add(n - 8).cast::<u64>().read_unaligned();
            dst.cast::<u64>().write_unaligned(a);
            dst.add(n - 8).cast::<u64>().write_unaligned(b);
        } else if n >= 4 {
            let a = src.cast::<u32>().read_unaligned();
            let b = src.add(n - 4).cast::<u32>().read_unaligned();
            dst.cast::<u32>().write_unaligned(a);
            dst.add(n - 4).cast::<u32>().write_unaligned(b);
        } else {
            let a = src.read();
            let b = src.add(n / 2).read();
            let c = src.add(n - 1).read();
            dst.write(a);
            dst.add(n / 2).write(b);
            dst.add(n - 1).write(c);
        }
    }
}

/// Writes `data` at `dst` as a byte store would: bounds-checks the write,
/// copies the bytes, nulls the capabilities of every word touched (one pass
/// over the bytes, where `memset` then a copy would make two).
pub fn write_at(dst: FlightPtr, data: &[u8], loc: &SourceLocation) {
    if data.is_empty() {
        return;
    }
    let obj = check_access_at(dst, Access::write(data.len()), loc);
    // SAFETY: the range was just checked against a live object; `data` is
    // a Rust slice, so it cannot overlap the program's heap object.
    unsafe {
        core::ptr::copy_nonoverlapping(data.as_ptr(), dst.intval() as *mut u8, data.len());
    }
    null_capabilities(obj, dst.intval(), data.len());
}

/// `memset(dst, c, n)`: bounds-checks, fills, nulls touched capabilities.
pub fn memset_at(dst: FlightPtr, c: u8, n: usize, loc: &SourceLocation) {
    if n == 0 {
        return;
    }
    let obj = check_access_at(dst, Access::write(n), loc);
    // SAFETY: the range was just checked against a live object.
    unsafe { core::ptr::write_bytes(dst.intval() as *mut u8, c, n) };
    null_capabilities(obj, dst.intval(), n);
}
