//! Register entries of the hottest wrappers (`gimso_abi::DIRECT_WRAPPERS`):
//! `gimso.fn.NAME.direct`, C-ABI functions the pass calls instead of going
//! through the CC buffers and the generic entry. Each runs the wrapper's
//! own `call`, so behaviour, checks and reports are the generic entry's.
//!
//! The entry must stay a frame of its own below the caller: reports find
//! the C caller's location as the frame after the first `gimso.fn.*` one
//! (`report::caller_location`), so the result is passed through
//! `black_box` to keep the call to the body from becoming a tail call.

use gimso_abi::FlightPtr;

macro_rules! direct {
    ($module:ident :: $name:ident ($($arg:ident : $ty:ty),*) -> $ret:ty) => {
        #[doc = concat!("The register entry of `", stringify!($name), "`.")]
        #[unsafe(export_name = concat!("gimso.fn.", stringify!($name), ".direct"))]
        pub extern "C" fn $name($($arg: $ty),*) -> $ret {
            #[allow(clippy::let_unit_value)]
            let r = crate::$module::$name::call($($arg),*);
            core::hint::black_box(&r);
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
