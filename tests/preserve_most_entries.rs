//! The `_pm` entries (`src/preserve_most.rs`) keep every general-purpose
//! register `preserve_most` promises: all but r11 and the return registers.
//! Each call here loads distinct values into every such register, calls the
//! entry through inline assembly and compares them afterwards. The three
//! trampoline shapes (void, pair and word results) are first tested around a
//! target that overwrites every register the C convention lets it and traps
//! on a misaligned stack, so a shape that forgets a register or misaligns
//! fails whatever the real entries happen to clobber; then each real entry
//! is called for its effect.
#![cfg(target_arch = "x86_64")]

use gimso::abi::ACCESS_READ;
use gimso::capi::{gimso_alloc, gimso_free, gimso_store_ptr, gimso_thread_attach};
use gimso::preserve_most::testing::{
    CLOBBER_RESULT, clobber_pair_pm, clobber_void_pm, clobber_word_pm,
};
use gimso::preserve_most::{
    gimso_access_recheck_pm, gimso_load_ptr_pm, gimso_pollcheck_slow_pm, gimso_store_ptr_pm,
};

/// The registers a C call may clobber, before and after a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Regs {
    rax: usize,
    rcx: usize,
    rdx: usize,
    rsi: usize,
    rdi: usize,
    r8: usize,
    r9: usize,
    r10: usize,
}

/// Calls `f` with the registers set to `r` (arguments in rdi, rsi, rdx, rcx,
/// r8; the rest sentinels) and returns them as the call left them.
///
/// # Safety
/// `f` is a `preserve_most` entry and `r` holds valid arguments for it.
unsafe fn call_with(f: usize, mut r: Regs) -> Regs {
    // SAFETY: the caller vouches for `f` and its arguments; every register
    // the call may change is an output, the rest are clobbered per the C ABI.
    unsafe {
        core::arch::asm!(
            "call r11",
            inout("r11") f => _,
            inout("rax") r.rax,
            inout("rcx") r.rcx,
            inout("rdx") r.rdx,
            inout("rsi") r.rsi,
            inout("rdi") r.rdi,
            inout("r8") r.r8,
            inout("r9") r.r9,
            inout("r10") r.r10,
            clobber_abi("C"),
        );
    }
    r
}

const SENTINEL: usize = 0x5eed_0000_0000;

fn sentinels() -> Regs {
    Regs {
        rax: SENTINEL | 0xa,
        rcx: SENTINEL | 0xc,
        rdx: SENTINEL | 0xd,
        rsi: SENTINEL | 0x51,
        rdi: SENTINEL | 0xd1,
        r8: SENTINEL | 0x8,
        r9: SENTINEL | 0x9,
        r10: SENTINEL | 0x10,
    }
}

#[test]
fn a_void_entry_keeps_every_register_but_r11() {
    let before = sentinels();
    // SAFETY: the clobbering target takes no arguments.
    let after = unsafe { call_with(clobber_void_pm as *const () as usize, before) };
    assert_eq!(after, before);
}

#[test]
fn a_pair_entry_keeps_every_register_but_its_results() {
    let before = sentinels();
    // SAFETY: as above.
    let after = unsafe { call_with(clobber_pair_pm as *const () as usize, before) };
    assert_eq!(
        after,
        Regs {
            rax: CLOBBER_RESULT.0,
            rdx: CLOBBER_RESULT.1,
            ..before
        }
    );
}

#[test]
fn a_word_entry_keeps_every_register_but_rax() {
    let before = sentinels();
    // SAFETY: as above.
    let after = unsafe { call_with(clobber_word_pm as *const () as usize, before) };
    assert_eq!(
        after,
        Regs {
            rax: CLOBBER_RESULT.0,
            ..before
        }
    );
}

#[test]
fn store_ptr_keeps_every_register() {
    let obj = gimso_alloc(32);
    let value = gimso_alloc(8);
    let before = Regs {
        rdi: obj.intval() + 8,
        rsi: obj.lower(),
        rdx: value.intval(),
        rcx: value.lower(),
        ..sentinels()
    };
    // SAFETY: both capabilities come from gimso_alloc; the word at +8 is in bounds.
    let after = unsafe { call_with(gimso_store_ptr_pm as *const () as usize, before) };
    assert_eq!(after, before);
    // The store happened: the word holds the address, its capability loads back.
    // SAFETY: as above.
    let loaded = unsafe {
        call_with(
            gimso_load_ptr_pm as *const () as usize,
            Regs {
                rdi: obj.intval() + 8,
                rsi: obj.lower(),
                ..sentinels()
            },
        )
    };
    assert_eq!((loaded.rax, loaded.rdx), (value.intval(), value.lower()));
    // SAFETY: both objects are live and were allocated here.
    unsafe {
        gimso_free(value);
        gimso_free(obj);
    }
}

#[test]
fn load_ptr_keeps_every_register_but_its_results() {
    let obj = gimso_alloc(16);
    let value = gimso_alloc(8);
    // SAFETY: runtime-issued capabilities; the word at 0 is in bounds.
    unsafe { gimso_store_ptr(obj, value) };
    let before = Regs {
        rdi: obj.intval(),
        rsi: obj.lower(),
        ..sentinels()
    };
    // SAFETY: as above.
    let after = unsafe { call_with(gimso_load_ptr_pm as *const () as usize, before) };
    assert_eq!(
        after,
        Regs {
            rax: value.intval(),
            rdx: value.lower(),
            ..before
        }
    );
    // SAFETY: both objects are live and were allocated here.
    unsafe {
        gimso_free(value);
        gimso_free(obj);
    }
}

#[test]
fn access_recheck_of_a_passing_access_returns_keeping_every_register() {
    let obj = gimso_alloc(16);
    let before = Regs {
        rdi: obj.intval() + 8,
        rsi: obj.lower(),
        rdx: 8,
        rcx: ACCESS_READ as usize,
        r8: 0,
        ..sentinels()
    };
    // SAFETY: an in-bounds read of a live object: the recheck returns.
    let after = unsafe { call_with(gimso_access_recheck_pm as *const () as usize, before) };
    assert_eq!(after, before);
    // SAFETY: live, allocated here.
    unsafe { gimso_free(obj) };
}

#[test]
fn pollcheck_slow_keeps_every_register() {
    let thread = gimso_thread_attach();
    let before = Regs {
        rdi: thread as usize,
        ..sentinels()
    };
    // SAFETY: the calling thread's own ABI struct.
    let after = unsafe { call_with(gimso_pollcheck_slow_pm as *const () as usize, before) };
    assert_eq!(after, before);
}
