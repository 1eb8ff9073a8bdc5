//! Thread-local variables (`__thread`, `_Thread_local`): each thread gets
//! its own GC object for each variable, a copy (capabilities included) of
//! the variable's initial image, which is the translated global object of
//! the same name. The translation turns `llvm.threadlocal.address(@x)`
//! into [`gimso_tls_address`] with the image's capability; the copies are
//! made on first use and stay alive as long as the thread (they are roots
//! of the thread's handle list; the map's destructor may run after the
//! thread detached, which [`Root`] allows).

use core::cell::RefCell;
use std::collections::HashMap;

use gimso_abi::{FlightPtr, SourceLocation, ThreadAbi};
use gimso_gc::Root;
use gimso_shadow::{ObjRef, memops};

use crate::mutator::with_local;

struct Copy {
    object: FlightPtr,
    _root: Root,
}

thread_local! {
    /// Image capability (`lower`) → this thread's copy.
    static COPIES: RefCell<HashMap<usize, Copy>> = RefCell::new(HashMap::new());
}

/// The alignment of the copies of the image at `lower`: an over-aligned
/// thread-local's image lies at a multiple of its alignment (the pass pads
/// it there), so the largest power of two dividing its address, up to a
/// page, is at least what the variable needs (more, harmlessly, for an
/// image that happens to sit on a larger boundary).
fn copy_align(lower: usize) -> usize {
    let by_address = 1usize << lower.trailing_zeros().min(12);
    by_address.max(16)
}

/// The calling thread's instance of the thread-local variable whose image
/// object is `image` (a pointer to its start with its capability).
///
/// # Safety
/// `thread` is the calling thread's ABI struct; `image.lower` is a global
/// object's capability (the translation passes only those).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_tls_address(_thread: *mut ThreadAbi, image: FlightPtr) -> FlightPtr {
    if let Some(p) = COPIES.with(|c| c.borrow().get(&image.lower()).map(|c| c.object)) {
        return p;
    }
    // SAFETY: a global object's capability (contract).
    let obj = unsafe { ObjRef::from_lower(image.lower()) };
    let size = obj.upper() - obj.lower();
    let copy = gimso_gc::alloc(size, copy_align(image.lower()), 0);
    let object = copy.flight_ptr();
    // The whole image, bytes and capabilities, as `memmove` moves them.
    with_local(|l| memops::memmove_at(l, object, image, size, &SourceLocation::UNKNOWN));
    let entry = Copy {
        object,
        _root: Root::new(object.lower()),
    };
    COPIES.with(|c| c.borrow_mut().insert(image.lower(), entry));
    object
}
