//! A typed view of a capability object through its `lower`.

use core::sync::atomic::{AtomicUsize, Ordering};
use gimso_abi::FlightPtr;

use gimso_abi::{
    FLAG_FREE, FLAG_GLOBAL, FLAG_READONLY, FLAG_STACK, HEADER_SIZE, ObjectHeader, SpecialKind,
    aux_shadow,
};

/// A capability: the payload address of a live-or-freed capability object.
///
/// Holding an `ObjRef` means the header 16 bytes below `lower` is a real
/// object header; the collector keeps it mapped while any reference exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObjRef {
    lower: usize,
}

impl ObjRef {
    /// Wraps a non-zero capability.
    ///
    /// # Safety
    /// `lower` must be the payload address of an object allocated by this
    /// crate (a capability the runtime handed out), and the object must be
    /// kept alive by the caller (it is reachable from the caller's roots).
    #[inline(always)]
    pub unsafe fn from_lower(lower: usize) -> ObjRef {
        debug_assert!(lower != 0 && lower % 8 == 0);
        ObjRef { lower }
    }

    /// The payload address.
    #[inline(always)]
    pub fn lower(self) -> usize {
        self.lower
    }

    /// A pointer to the object's start, with its capability.
    #[inline(always)]
    pub fn flight_ptr(self) -> FlightPtr {
        self.flight_ptr_at(self.lower)
    }

    /// A pointer at `intval` (anywhere: it is checked where it is used)
    /// with the object's capability.
    #[inline(always)]
    pub fn flight_ptr_at(self, intval: usize) -> FlightPtr {
        // SAFETY: an `ObjRef`'s `lower` is the payload address of an object
        // the runtime made (its construction contract), the invariant of
        // `FlightPtr`.
        unsafe { FlightPtr::new(intval, self.lower) }
    }

    /// The object's header.
    #[inline(always)]
    pub fn header(self) -> &'static ObjectHeader {
        // SAFETY: by the construction contract, `lower - 16` is the header of
        // a live object; headers are never unmapped while referenced.
        unsafe { &*((self.lower - HEADER_SIZE) as *const ObjectHeader) }
    }

    /// One past the last accessible byte (equal to `lower` once freed and
    /// for specials).
    #[inline(always)]
    pub fn upper(self) -> usize {
        self.header().upper.load(Ordering::Acquire)
    }

    /// The raw aux word (flags and shadow distance).
    #[inline(always)]
    pub fn aux_word(self) -> u64 {
        self.header().aux.load(Ordering::Acquire)
    }

    /// The special kind, or `None` for a kind value no runtime writes.
    pub fn kind(self) -> Option<SpecialKind> {
        SpecialKind::from_aux(self.aux_word())
    }

    /// Whether `free` has been called on the object.
    pub fn is_free(self) -> bool {
        self.aux_word() & FLAG_FREE != 0
    }

    /// Refuses writes from now on (argument objects of variadic calls).
    pub fn set_readonly(self) {
        self.header().aux.fetch_or(FLAG_READONLY, Ordering::AcqRel);
    }

    /// Whether writes are refused.
    pub fn is_readonly(self) -> bool {
        self.aux_word() & FLAG_READONLY != 0
    }

    /// Whether this is a global (never freeable).
    pub fn is_global(self) -> bool {
        self.aux_word() & FLAG_GLOBAL != 0
    }

    /// Whether this backs an `alloca`.
    pub fn is_stack(self) -> bool {
        self.aux_word() & FLAG_STACK != 0
    }

    /// The shadow words of the payload, if the aux allocation exists.
    #[inline(always)]
    pub fn aux_words(self) -> Option<*const AtomicUsize> {
        aux_shadow(self.aux_word(), self.lower).map(|a| a as *const AtomicUsize)
    }

    /// A short description for reports: "data object", "function", ...
    pub fn describe(self) -> &'static str {
        match self.kind() {
            Some(SpecialKind::None) => "data object",
            Some(k) => k.name(),
            None => "corrupt object",
        }
    }
}
