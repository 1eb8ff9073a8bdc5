//! Function capabilities (special kind FUNCTION) and the call check.

use core::sync::atomic::{AtomicUsize, Ordering};

use gimso_abi::{FLAG_GLOBAL, FlightPtr, SourceLocation, SpecialKind};
use gimso_heap::LocalHeap;

use crate::alloc::alloc_special;
use crate::object::ObjRef;
use crate::report::{Operation, SafetyError, report};

/// Creates the capability of the function whose callable entry is `entry`.
/// Functions are globals: they can never be freed. The payload's direct
/// body and type hash stay 0 (zeroed memory): calls go through `entry`.
pub fn new_function(local: &mut LocalHeap, entry: usize) -> FlightPtr {
    let obj = alloc_special(
        local,
        SpecialKind::Function,
        gimso_abi::FUNCTION_PAYLOAD_SIZE,
        FLAG_GLOBAL,
    );
    entry_word(obj).store(entry, Ordering::Release);
    obj.flight_ptr_at(entry)
}

fn entry_word(obj: ObjRef) -> &'static AtomicUsize {
    // SAFETY: function objects have a runtime-private payload at lower
    // whose first word is the entry.
    unsafe { &*(obj.lower() as *const AtomicUsize) }
}

/// The entry address to call through `f`, or why the call is refused.
pub fn classify_call(f: FlightPtr) -> Result<usize, SafetyError> {
    if f.lower() == 0 {
        return Err(SafetyError::CallNonFunction);
    }
    // SAFETY: a non-zero lower is a runtime-issued capability.
    let obj = unsafe { ObjRef::from_lower(f.lower()) };
    if obj.kind() != Some(SpecialKind::Function) {
        return Err(SafetyError::CallNonFunction);
    }
    let entry = entry_word(obj).load(Ordering::Acquire);
    if f.intval() != entry {
        return Err(SafetyError::CallWrongAddress);
    }
    Ok(entry)
}

/// The call check: returns the entry to call or stops with a safety report.
pub fn check_call_at(f: FlightPtr, loc: &SourceLocation) -> usize {
    match classify_call(f) {
        Ok(entry) => entry,
        Err(err) => report(err, f, Operation::Call, loc),
    }
}
