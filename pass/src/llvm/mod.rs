//! The pass's one door to LLVM's C API.
//!
//! Everything outside this module talks to LLVM through the handles here
//! ([`Value`], [`Func`], [`Block`], [`Type`], [`Meta`]) and the builder
//! [`Ll`]; `llvm_sys` is named nowhere else (`scripts/check-llvm-facade.sh`
//! keeps it so). A handle is a non-null pointer to an LLVM object tagged
//! with the lifetime `'m` of the module borrow it came from, so it cannot
//! outlive the module, and the only ways to get one are from another
//! handle, from an inkwell value of a live module, or through the
//! `unsafe` [`Value::from_raw`] family inside this module. That is the
//! invariant every safe method relies on: the object behind a handle is
//! alive and belongs to a live module.
//!
//! What a handle cannot carry in its type (an operand index in range, a
//! call being a call) is checked where it is cheap and matters: a method
//! asked of the wrong kind of value panics with the method's name, which
//! the driver reports as an internal error, rather than handing LLVM an
//! object it would misread. Deleting an object is `unsafe`: other handles
//! to it may still exist.

mod addr_space;
mod asm;
mod block;
mod build;
mod emit;
mod fatal;
mod func;
mod layout;
mod meta;
mod types;
mod value;

pub use addr_space::AddrSpaceFinder;
pub use asm::InallocaProbe;
pub use block::Block;
pub use build::Ll;
pub use fatal::install_fatal_error_handler;
pub use func::{Attr, AttrAt, Func, attr_kind};
pub use layout::DataLayout;
pub use meta::Meta;
pub use types::Type;
pub use value::{Use, Value};

pub use inkwell::llvm_sys::{
    LLVMAtomicOrdering as Ordering, LLVMAtomicRMWBinOp as RmwOp, LLVMIntPredicate as IntPredicate,
    LLVMLinkage as Linkage, LLVMOpcode as Opcode, LLVMRealPredicate as RealPredicate,
    LLVMTypeKind as TypeKind, LLVMValueKind as ValueKind, LLVMVisibility as Visibility,
};

use std::ffi::CString;

/// `s` as a C string; an interior NUL (never in a name the pass makes) is
/// dropped rather than truncating the name.
fn cstring(s: &str) -> CString {
    CString::new(s.replace('\0', "")).unwrap_or_default()
}

/// Copies and frees a message LLVM allocated.
///
/// # Safety
/// `p` is null or a message from an `LLVMPrint*` function, not yet freed.
unsafe fn take_message(p: *mut std::ffi::c_char) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: `p` is a NUL-terminated message LLVM allocated (contract);
    // it is copied before it is freed, and freed once.
    unsafe {
        let s = std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
        inkwell::llvm_sys::core::LLVMDisposeMessage(p);
        s
    }
}

/// Parses `args` (`args[0]` the program name) as LLVM's command line, the
/// first time it is called in the process; later calls do nothing. LLVM's
/// options are process-wide state that code generation reads, so they are
/// set once, and every thread making a target machine calls this first,
/// waiting for the parse to finish.
#[track_caller]
pub fn parse_command_line_once(args: &[&std::ffi::CStr]) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let argv: Vec<_> = args.iter().map(|a| a.as_ptr()).collect();
        let argc = i32::try_from(argv.len()).expect("too many LLVM options");
        // SAFETY: NUL-terminated strings that outlive the call (LLVM copies
        // what it keeps); inside the `Once`, so no other thread parses or
        // (calling this before code generation) reads the options meanwhile.
        unsafe {
            inkwell::llvm_sys::support::LLVMParseCommandLineOptions(
                argc,
                argv.as_ptr(),
                std::ptr::null(),
            );
        }
    });
}
