//! `__builtin_cpu_supports` / `__builtin_cpu_is` / `__builtin_cpu_init`:
//! clang compiles them into reads of libgcc's `__cpu_model` (vendor, type,
//! subtype, the first 32 feature bits) and `__cpu_features2` (the next
//! feature bits), and a call of `__cpu_indicator_init`.
//!
//! Compiled code sees copies of both as global objects of the program
//! (`gimso.obj.__cpu_model`, `gimso.obj.__cpu_features2`), filled from
//! libgcc's own before any compiled code runs (a start-up entry ordered
//! before every constructor of the program), so the bits are exactly
//! those a plain build of the program would read.

use crate::object::U32Global;
use crate::wrapper;

unsafe extern "C" {
    /// libgcc: `struct { unsigned vendor, type, subtype, features[1]; }`.
    static __cpu_model: [u32; 4];
    /// libgcc (GCC 12): `unsigned __cpu_features2[3]`.
    static __cpu_features2: [u32; 3];
    /// libgcc: fills both; returns at once when already done.
    #[link_name = "__cpu_indicator_init"]
    fn native_cpu_indicator_init() -> i32;
}

/// `extern struct __processor_model __cpu_model`.
#[unsafe(export_name = "gimso.obj.__cpu_model")]
pub static CPU_MODEL: U32Global<4> = U32Global::new(&raw const CPU_MODEL);
/// `extern unsigned int __cpu_features2[3]` (a fourth word pads it).
#[unsafe(export_name = "gimso.obj.__cpu_features2")]
pub static CPU_FEATURES2: U32Global<4> = U32Global::new(&raw const CPU_FEATURES2);

/// Copies libgcc's answers into the program's globals.
fn fill() -> i32 {
    // SAFETY: libgcc's initialiser takes no arguments and is idempotent;
    // afterwards both of its globals are only read.
    let (rc, model, features2) = unsafe {
        let rc = native_cpu_indicator_init();
        (
            rc,
            core::ptr::read_volatile(&raw const __cpu_model),
            core::ptr::read_volatile(&raw const __cpu_features2),
        )
    };
    CPU_MODEL.set(&model);
    CPU_FEATURES2.set(&features2);
    rc
}

extern "C" fn fill_at_start() {
    fill();
}

/// Runs [`fill`] at start-up, before the program's constructors (those run
/// from `.init_array` and higher-numbered `.init_array.N`): the globals are
/// in this module, so any program that reads them links this entry too.
#[used]
#[unsafe(link_section = ".init_array.00099")]
static FILL_AT_START: extern "C" fn() = fill_at_start;

wrapper! {
    /// `int __cpu_indicator_init(void)` (`__builtin_cpu_init()`).
    fn __cpu_indicator_init() -> i32 {
        fill()
    }
}
