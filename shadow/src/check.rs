//! The access check: the inline fast path compiled code also uses, and the
//! cold classification that turns a failure into one safety report.

use core::sync::atomic::Ordering;

use gimso_abi::{FLAG_FREE, FLAG_READONLY, FlightPtr, SourceLocation, SpecialKind};

use crate::object::ObjRef;
use crate::report::{self, Operation, SafetyError};

/// What an access does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// Bytes touched.
    pub size: usize,
    /// Required alignment of the address (1 = none).
    pub align: usize,
    /// Whether the access writes.
    pub write: bool,
}

impl Access {
    /// An unaligned read of `size` bytes (integers and floats on x86-64).
    pub const fn read(size: usize) -> Access {
        Access {
            size,
            align: 1,
            write: false,
        }
    }
    /// An unaligned write of `size` bytes.
    pub const fn write(size: usize) -> Access {
        Access {
            size,
            align: 1,
            write: true,
        }
    }
    /// A pointer-sized, pointer-aligned read.
    pub const POINTER_READ: Access = Access {
        size: 8,
        align: 8,
        write: false,
    };
    /// A pointer-sized, pointer-aligned write.
    pub const POINTER_WRITE: Access = Access {
        size: 8,
        align: 8,
        write: true,
    };

    /// Decodes the C ABI's `GIMSO_ACCESS_*` bits.
    pub fn from_abi(size: usize, bits: u32) -> Access {
        let align = if bits & gimso_abi::ACCESS_ALIGNED != 0 && size.is_power_of_two() {
            size
        } else {
            1
        };
        Access {
            size,
            align,
            write: bits & gimso_abi::ACCESS_WRITE != 0,
        }
    }
}

/// Whether `p` may perform `access`, without reporting.
///
/// One load of `upper` (plus one of the aux word for writes): `lower != 0`,
/// `lower <= p`, `p + size <= upper` (no overflow), alignment, not
/// read-only. Freed and special objects have `upper == lower`, so only
/// zero-sized accesses could pass them.
#[inline(always)]
pub fn access_ok(p: FlightPtr, access: Access) -> bool {
    if p.lower() == 0 {
        return false;
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    let upper = obj.header().upper.load(Ordering::Acquire);
    let in_bounds =
        p.intval() >= p.lower() && p.intval() <= upper && upper - p.intval() >= access.size;
    let aligned = p.intval() & (access.align - 1) == 0;
    let writable = !access.write || obj.header().aux.load(Ordering::Relaxed) & FLAG_READONLY == 0;
    in_bounds && aligned && writable
}

/// Checks `access` through `p`, stopping the program with a safety report if
/// it fails; returns the object on success.
#[inline(always)]
pub fn check_access(p: FlightPtr, access: Access) -> ObjRef {
    if access_ok(p, access) {
        // SAFETY: access_ok established p.lower != 0.
        return unsafe { ObjRef::from_lower(p.lower()) };
    }
    access_failed(p, access, &SourceLocation::UNKNOWN)
}

/// Like [`check_access`] with the source location of the operation.
#[inline(always)]
pub fn check_access_at(p: FlightPtr, access: Access, loc: &SourceLocation) -> ObjRef {
    if access_ok(p, access) {
        // SAFETY: access_ok established p.lower != 0.
        return unsafe { ObjRef::from_lower(p.lower()) };
    }
    access_failed(p, access, loc)
}

/// Which rule an access broke, most specific first.
pub fn classify(p: FlightPtr, access: Access) -> Option<SafetyError> {
    if p.lower() == 0 {
        return Some(SafetyError::NullCapability);
    }
    // SAFETY: non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(p.lower()) };
    let aux = obj.aux_word();
    if aux & FLAG_FREE != 0 {
        return Some(SafetyError::UseAfterFree);
    }
    match SpecialKind::from_aux(aux) {
        Some(SpecialKind::None) => {}
        _ => return Some(SafetyError::AccessToSpecial),
    }
    if p.intval() & (access.align - 1) != 0 {
        return Some(SafetyError::Misaligned);
    }
    let upper = obj.upper();
    let in_bounds =
        p.intval() >= p.lower() && p.intval() <= upper && upper - p.intval() >= access.size;
    if !in_bounds {
        return Some(if access.write {
            SafetyError::OutOfBoundsWrite
        } else {
            SafetyError::OutOfBoundsRead
        });
    }
    if access.write && aux & FLAG_READONLY != 0 {
        return Some(SafetyError::WriteToReadonly);
    }
    None
}

/// The cold path of a failed check: classify and report. If the access in
/// fact passes (a racing check saw a state that no longer holds, which
/// cannot happen for monotonic bounds), returns the object.
#[cold]
#[inline(never)]
pub fn access_failed(p: FlightPtr, access: Access, loc: &SourceLocation) -> ObjRef {
    match classify(p, access) {
        Some(err) => report::report(err, p, Operation::Access(access), loc),
        // SAFETY: classify found no fault, so p.lower is non-zero.
        None => unsafe { ObjRef::from_lower(p.lower()) },
    }
}
