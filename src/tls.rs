//! Thread-local variables (`__thread`, `_Thread_local`): each thread gets
//! its own GC object for each variable, a copy (capabilities included) of
//! the variable's initial image, which is the translated global object of
//! the same name. The translation turns `llvm.threadlocal.address(@x)`
//! into [`gimso_tls_address`] with the image's capability; the copies are
//! made on first use and stay alive as long as the thread (they are roots
//! of the thread's handle list).

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

/// The calling thread's instance of the thread-local variable whose image
/// object is `image` (a pointer to its start with its capability).
///
/// # Safety
/// `thread` is the calling thread's ABI struct; `image.lower` is a global
/// object's capability (the translation passes only those).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gimso_tls_address(_thread: *mut ThreadAbi, image: FlightPtr) -> FlightPtr {
    if let Some(p) = COPIES.with(|c| c.borrow().get(&image.lower).map(|c| c.object)) {
        return p;
    }
    // SAFETY: a global object's capability (contract).
    let obj = unsafe { ObjRef::from_lower(image.lower) };
    let size = obj.upper() - obj.lower();
    let copy = gimso_gc::alloc(size, 16, 0);
    let object = FlightPtr::from_lower(copy.lower());
    // The whole image, bytes and capabilities, as `memmove` moves them.
    with_local(|l| memops::memmove_at(l, object, image, size, &SourceLocation::UNKNOWN));
    let entry = Copy {
        object,
        _root: Root::new(object.lower),
    };
    COPIES.with(|c| c.borrow_mut().insert(image.lower, entry));
    object
}
