//! Register entries of the hottest wrappers (`gimso_abi::DIRECT_WRAPPERS`):
//! `gimso.fn.NAME.direct`, C-ABI functions the pass calls instead of going
//! through the CC buffers and the generic entry. Each runs the wrapper's
//! own `call`, so behaviour, checks and reports are the generic entry's.
//!
//! The entry must stay a frame of its own below the caller: reports find
//! the C caller's location as the frame after the first `gimso.fn.*` one
//! (`report::caller_location`), so an empty `asm!` after the call to the
//! body keeps it from becoming a tail call (`black_box` did too, at the
//! price of a trip through the stack for the result).

use gimso_abi::FlightPtr;

macro_rules! direct {
    ($module:ident :: $name:ident ($($arg:ident : $ty:ty),*) -> $ret:ty) => {
        #[doc = concat!("The register entry of `", stringify!($name), "`.")]
        #[unsafe(export_name = concat!("gimso.fn.", stringify!($name), ".direct"))]
        pub extern "C" fn $name($($arg: $ty),*) -> $ret {
            #[allow(clippy::let_unit_value)]
            let r = crate::$module::$name::call($($arg),*);
            // SAFETY: an empty instruction sequence that touches nothing;
            // it only has to come after the call.
            unsafe { core::arch::asm!("", options(nomem, nostack, preserves_flags)) };
            r
        }
    };
}

direct!(malloc::malloc(n: usize) -> FlightPtr);
direct!(malloc::calloc(n: usize, size: usize) -> FlightPtr);
direct!(malloc::realloc(p: FlightPtr, n: usize) -> FlightPtr);
direct!(malloc::free(p: FlightPtr) -> ());
direct!(string::strlen(s: FlightPtr) -> usize);
direct!(string::strcmp(a: FlightPtr, b: FlightPtr) -> i32);
direct!(string::memcmp(a: FlightPtr, b: FlightPtr, n: usize) -> i32);
direct!(string::strchr(s: FlightPtr, c: i32) -> FlightPtr);
