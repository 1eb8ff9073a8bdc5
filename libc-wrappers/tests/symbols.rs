//! The exported symbols: `gimso.fn.NAME` entries and `gimso.obj.NAME`
//! function objects laid out as compiled code expects, found by their
//! link names the way the program's references bind to them.

mod support;

use gimso_abi::{
    EntryResult, FLAG_GLOBAL, FlightPtr, HEADER_SIZE, ObjectHeader, SpecialKind, ThreadAbi,
};
use gimso_shadow::function::classify_call;
use support::*;

unsafe extern "C" {
    #[link_name = "gimso.fn.strlen"]
    fn gimso_fn_strlen(t: *mut ThreadAbi, callee_lower: usize, arg_bytes: u64) -> EntryResult;
    #[link_name = "gimso.obj.strlen"]
    static GIMSO_OBJ_STRLEN: ObjectHeader;
    #[link_name = "gimso.fn.printf"]
    fn gimso_fn_printf(t: *mut ThreadAbi, callee_lower: usize, arg_bytes: u64) -> EntryResult;
    #[link_name = "gimso.obj.printf"]
    static GIMSO_OBJ_PRINTF: ObjectHeader;
    #[link_name = "gimso.obj.stdout"]
    static GIMSO_OBJ_STDOUT: ObjectHeader;
}

/// The function pointer compiled code builds for `gimso.obj.NAME`: the
/// payload word (entry) with the payload address as capability.
fn function_pointer(header: &ObjectHeader) -> FlightPtr {
    let lower = header as *const ObjectHeader as usize + HEADER_SIZE;
    // SAFETY: a function object's payload is one word, the entry address.
    let entry = unsafe { (lower as *const usize).read() };
    // SAFETY: `lower` is the payload address of the runtime's function
    // object.
    unsafe { FlightPtr::new(entry, lower) }
}

#[test]
fn function_objects_pass_the_call_check() {
    // SAFETY: reading the exported statics.
    let (strlen_obj, printf_obj) = unsafe { (&GIMSO_OBJ_STRLEN, &GIMSO_OBJ_PRINTF) };
    for (header, entry) in [
        (strlen_obj, gimso_fn_strlen as *const () as usize),
        (printf_obj, gimso_fn_printf as *const () as usize),
    ] {
        let f = function_pointer(header);
        let upper = header.upper.load(core::sync::atomic::Ordering::Relaxed);
        let aux = header.aux.load(core::sync::atomic::Ordering::Relaxed);
        assert_eq!(upper, f.lower(), "upper == lower");
        assert_eq!(aux, FLAG_GLOBAL | SpecialKind::Function.to_aux());
        assert_eq!(f.intval(), entry, "payload holds the entry");
        assert_eq!(classify_call(f), Ok(entry));
    }
    assert_eq!(
        function_pointer(strlen_obj),
        gimso_libc_wrappers::string::strlen::OBJECT.pointer()
    );
}

#[test]
fn calling_through_the_symbol() {
    // SAFETY: reading the exported static.
    let f = function_pointer(unsafe { &GIMSO_OBJ_STRLEN });
    let entry = classify_call(f).unwrap();
    // SAFETY: the call check returned a generic entry.
    let entry = unsafe { core::mem::transmute::<usize, gimso_abi::EntryFn>(entry) };
    assert_eq!(invoke(entry, &[A::P(cstr("four"))]).i64(), 4);
}

#[test]
fn stdout_symbol_is_the_stream_global() {
    // SAFETY: reading the exported static.
    let lower = unsafe { &GIMSO_OBJ_STDOUT } as *const ObjectHeader as usize + HEADER_SIZE;
    assert_eq!(lower, gimso_libc_wrappers::stdio::STDOUT.lower());
}
