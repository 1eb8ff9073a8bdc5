//! Creating capability objects: data objects, over-aligned objects, specials
//! and the lazily created aux (shadow) allocation.

use core::sync::atomic::{AtomicUsize, Ordering};

use gimso_abi::{
    BARRIER_EPOCH_SHIFT, FLAG_FREE, FLAG_PAD, HEADER_SIZE, MAX_ALIGN, MAX_OBJECT_SIZE, MIN_ALIGN,
    ObjectHeader, SPECIAL_MASK, SpecialKind, WORD_SIZE, aux_shadow, aux_with_delta,
};
use gimso_heap::{LocalHeap, fatal_oom};

use crate::object::ObjRef;
use crate::zero;

/// Rounds a requested payload size up to whole words: the bytes an object's
/// slot gives its payload, and so the place of its inline shadow words.
///
/// The object's bounds are the size asked for, not this: `upper` is exactly
/// `lower + size`, so the first byte past the request is out of bounds. The
/// last partial word still has a shadow word, which stays null: a pointer
/// store needs its whole 8 bytes in bounds.
#[inline(always)]
pub fn payload_size(size: usize) -> usize {
    (size + WORD_SIZE - 1) & !(WORD_SIZE - 1)
}

/// Allocates a zeroed data object of `size` bytes whose payload is aligned
/// to `align` (a power of two; values below 16 mean 16), with the given
/// flag bits (`FLAG_READONLY`, `FLAG_GLOBAL`, `FLAG_STACK`) in its header.
///
/// Returns the capability. Sizes beyond `MAX_OBJECT_SIZE` and exhausted
/// memory are a clean fatal error naming the size.
///
/// # Panics
/// Never; an alignment that is not a power of two or exceeds `MAX_ALIGN` is
/// rejected by the C-ABI layer before it gets here (debug-asserted).
///
/// Small objects (payload up to [`INLINE_AUX_MAX`]) carry their shadow
/// words inline, right after the payload in the same slot, with the aux
/// pointer set from birth: a pointer store into them needs no second
/// allocation and no atomic read-modify-write, a pointer load finds the
/// capability on the same or the next cache line, and the collector has one
/// object to mark instead of two. The price is the shadow space of small
/// objects that never hold a pointer.
#[inline]
pub fn alloc_object(local: &mut LocalHeap, size: usize, align: usize, flags: u64) -> ObjRef {
    alloc_with_shadow_up_to(local, size, align, flags, INLINE_AUX_MAX)
}

/// Like [`alloc_object`], with the shadow words inline for payloads up to
/// [`INLINE_SHADOWED_MAX`]: for objects known to hold pointers (the
/// escaping locals of a pointer-holding type), whose first pointer store
/// would otherwise allocate a separate aux object (Lua's `BuffFS`, one per
/// `lua_pushfstring`: 368 instructions for its first store).
#[inline]
pub fn alloc_object_shadowed(
    local: &mut LocalHeap,
    size: usize,
    align: usize,
    flags: u64,
) -> ObjRef {
    alloc_with_shadow_up_to(local, size, align, flags, INLINE_SHADOWED_MAX)
}

#[inline(always)]
fn alloc_with_shadow_up_to(
    local: &mut LocalHeap,
    size: usize,
    align: usize,
    flags: u64,
    inline_max: usize,
) -> ObjRef {
    let payload = checked_payload(size);
    if payload <= inline_max && align <= MIN_ALIGN && payload != 0 {
        let (slot, epoch) = local.alloc_stamped(HEADER_SIZE + 2 * payload);
        let slot = slot.as_ptr() as usize;
        let lower = slot + HEADER_SIZE;
        let header = header_at(slot);
        header.aux.store(
            aux_with_delta(flags | epoch_bits(epoch), payload as isize),
            Ordering::Relaxed,
        );
        header.upper.store(lower + size, Ordering::Release);
        // SAFETY: the header was just written.
        return unsafe { ObjRef::from_lower(lower) };
    }
    let (lower, zeroed) = place(local, payload, align, flags);
    // SAFETY: `place` wrote a fresh header below `lower`.
    let obj = unsafe { ObjRef::from_lower(lower) };
    obj.header().upper.store(lower + size, Ordering::Release);
    if !zeroed {
        // Larger than the zero region: real shadow words before compiled
        // code can read through the aux word.
        let _ = ensure_aux(local, obj);
    }
    obj
}

/// Largest payload [`alloc_object_shadowed`] gives inline shadow words:
/// the slot (header, payload, shadow) stays within the small size classes.
pub const INLINE_SHADOWED_MAX: usize = 2048;

/// Largest payload whose shadow words live inline (see [`alloc_object`]).
pub const INLINE_AUX_MAX: usize = 64;

/// Whether `shadow` (the address of an object's shadow storage) is the
/// inline shadow of the object at `lower..upper`, rather than a separate
/// aux object: right after the payload, or after the padding that rounds
/// a global's payload to whole words.
#[inline(always)]
pub fn is_inline_aux(shadow: usize, upper: usize) -> bool {
    shadow.wrapping_sub(upper) < WORD_SIZE
}

/// Allocates a special object (function, aux, atomic box, ...) with
/// `payload_bytes` of runtime-private payload. Specials have
/// `upper == lower`, so program code can never read or write them.
#[inline]
pub fn alloc_special(
    local: &mut LocalHeap,
    kind: SpecialKind,
    payload_bytes: usize,
    flags: u64,
) -> ObjRef {
    let payload = checked_payload(payload_bytes);
    let (lower, _) = place(local, payload, MIN_ALIGN, flags | kind.to_aux());
    // SAFETY: `place` wrote a fresh header below `lower`.
    let obj = unsafe { ObjRef::from_lower(lower) };
    obj.header().upper.store(lower, Ordering::Release);
    obj
}

#[inline(always)]
fn checked_payload(size: usize) -> usize {
    if size > MAX_OBJECT_SIZE {
        too_large(size);
    }
    payload_size(size)
}

#[cold]
#[inline(never)]
fn too_large(size: usize) -> ! {
    fatal_oom(size)
}

/// Takes a slot from the heap, lays out `[pad?][header][payload]` and writes
/// the aux word; returns `lower` and whether the aux word is complete. The
/// caller writes `upper`.
///
/// A data object's aux word (no special kind in `aux`) leads to the zero
/// region (see the `zero` module); `false` says the payload was too large
/// for it and the caller must give the object shadow words. A special's
/// distance stays 0.
#[inline(always)]
fn place(local: &mut LocalHeap, payload: usize, align: usize, aux: u64) -> (usize, bool) {
    debug_assert!(align.is_power_of_two() && align <= MAX_ALIGN);
    let complete = |lower: usize| -> (u64, bool) {
        if aux & SPECIAL_MASK != 0 {
            return (aux, true);
        }
        match zero::aux_without_shadow(aux, lower, payload) {
            Some(a) => (a, true),
            None => (aux, false),
        }
    };
    if align <= MIN_ALIGN {
        let (slot, epoch) = local.alloc_stamped(HEADER_SIZE + payload);
        let slot = slot.as_ptr() as usize;
        let lower = slot + HEADER_SIZE;
        let (aux, done) = complete(lower);
        header_at(slot)
            .aux
            .store(aux | epoch_bits(epoch), Ordering::Relaxed);
        return (lower, done);
    }
    // Over-aligned: allocate `align` extra bytes and put the header just
    // below the first aligned payload address. If that is not the slot
    // start, a pad header at the slot start points at the real payload so
    // address lookup can find the object from any interior address.
    let (slot, epoch) = local.alloc_stamped(HEADER_SIZE + payload + align);
    let slot = slot.as_ptr() as usize;
    let lower = (slot + HEADER_SIZE + align - 1) & !(align - 1);
    if lower - HEADER_SIZE != slot {
        let pad = header_at(slot);
        pad.upper.store(lower, Ordering::Relaxed);
        pad.aux.store(FLAG_PAD, Ordering::Release);
    }
    let (aux, done) = complete(lower);
    header_at(lower - HEADER_SIZE)
        .aux
        .store(aux | epoch_bits(epoch), Ordering::Relaxed);
    (lower, done)
}

/// The aux-word bits of a fresh object allocated black in marking epoch
/// `epoch` (0: not black): the store barrier needs not look it up in this
/// collection (see the `barrier` module).
#[inline(always)]
fn epoch_bits(epoch: u8) -> u64 {
    u64::from(epoch) << BARRIER_EPOCH_SHIFT
}

#[inline(always)]
fn header_at(addr: usize) -> &'static ObjectHeader {
    // SAFETY: callers pass an address inside a freshly allocated slot with at
    // least 16 bytes available, 16-aligned; the slot stays allocated while
    // the object it holds is reachable.
    unsafe { &*(addr as *const ObjectHeader) }
}

/// The shadow words of `obj`, creating the aux allocation on first use.
///
/// Returns `None` when the object was freed (its capabilities no longer
/// matter: every later access traps) or has no payload words.
pub fn ensure_aux(local: &mut LocalHeap, obj: ObjRef) -> Option<*const AtomicUsize> {
    let header = obj.header();
    let mut aux = header.aux.load(Ordering::Acquire);
    if let Some(s) = aux_shadow(aux, obj.lower()) {
        return Some(s as *const AtomicUsize);
    }
    if aux & FLAG_FREE != 0 {
        return None;
    }
    let bytes = obj.upper().saturating_sub(obj.lower());
    if bytes == 0 {
        return None;
    }
    let words = bytes.div_ceil(WORD_SIZE);
    let shadow = alloc_special(local, SpecialKind::Aux, words * WORD_SIZE, 0).lower();
    // Never 0: the shadow is a separate object, not the payload itself.
    let delta = shadow.wrapping_sub(obj.lower()) as isize;
    loop {
        match header.aux.compare_exchange_weak(
            aux,
            aux_with_delta(aux, delta),
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => {
                // The object may already be black (traced, or allocated
                // black) while the aux came from a cache still handing out
                // white slots: installing it is a pointer store like any
                // other and goes through the barrier.
                crate::barrier::store_barrier(shadow);
                return Some(shadow as *const AtomicUsize);
            }
            Err(now) => {
                // Another thread installed an aux first (ours becomes garbage
                // for the collector), or the object was freed meanwhile.
                if let Some(s) = aux_shadow(now, obj.lower()) {
                    return Some(s as *const AtomicUsize);
                }
                if now & FLAG_FREE != 0 {
                    return None;
                }
                aux = now;
            }
        }
    }
}
