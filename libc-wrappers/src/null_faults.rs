//! Null capabilities found by a fault instead of a test.
//!
//! Code generation folds the null test of a capability into the load of
//! its header that follows (LLVM's implicit null checks; the pass marks
//! the tests, `gimso_pass::fault_map` makes the maps linkable): a null
//! capability's header lies at the top of the address space, so that load
//! faults. Each object's fault map lists, per function, the faulting
//! instruction and the check's failure block; the linker gathers the maps
//! between `__start_gimso_faultmaps` and `__stop_gimso_faultmaps`. The
//! `SIGSEGV` handler installed here moves a fault at a listed instruction,
//! on an address in the first or last page, to its failure block, which
//! reports the access as it would have after the explicit test. Any other
//! fault gets the default action back and happens again: the program dies
//! of it as it would have without the handler. (Programs cannot install
//! their own `SIGSEGV` handlers: [`crate::signal`] refuses them.)

use core::ffi::{c_int, c_void};
use std::sync::Once;

use gimso_abi::FAULT_MAP_VERSION;

/// One of the fault maps code generation wrote (LLVM's format, version 1):
/// a header `{u8 version, u8, u16, u32 functions}`, then per function
/// `{u64 address, u32 entries, u32}` and its entries
/// `{u32 kind, u32 faulting offset, u32 handler offset}`, little-endian
/// and packed. The maps of all objects follow each other in the section.
///
/// Returns the address to resume at for a fault at `pc`, if a map lists
/// `pc`. A map whose version is not 1 or that runs past the end stops the
/// walk (never the case for what LLVM writes).
pub fn handler_for(maps: &[u8], pc: usize) -> Option<usize> {
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from_le_bytes(maps.get(at..at + 4)?.try_into().ok()?))
    };
    let u64_at = |at: usize| -> Option<u64> {
        Some(u64::from_le_bytes(maps.get(at..at + 8)?.try_into().ok()?))
    };
    let mut at = 0;
    while at < maps.len() {
        if *maps.get(at)? != FAULT_MAP_VERSION {
            return None;
        }
        let functions = u32_at(at + 4)?;
        at += 8;
        for _ in 0..functions {
            let function = u64_at(at)? as usize;
            let entries = u32_at(at + 8)? as usize;
            at += 16;
            for e in 0..entries {
                let entry = at + 12 * e;
                let fault = function.wrapping_add(u32_at(entry + 4)? as usize);
                if fault == pc {
                    return Some(function.wrapping_add(u32_at(entry + 8)? as usize));
                }
            }
            at += 12 * entries;
        }
    }
    None
}

/// This runtime's own fault map, with no functions: every program has the
/// section, so the linker always defines its bounds.
#[used]
#[unsafe(link_section = "gimso_faultmaps")]
static mut EMPTY_MAP: [u8; 8] = [FAULT_MAP_VERSION, 0, 0, 0, 0, 0, 0, 0];

unsafe extern "C" {
    static __start_gimso_faultmaps: u8;
    static __stop_gimso_faultmaps: u8;
}

/// The fault maps of the program (of the executable or shared object this
/// runtime is linked into).
fn maps() -> &'static [u8] {
    // Keep the empty map referenced, so that `--gc-sections` keeps the
    // section's bounds defined even when no object has a map.
    core::hint::black_box(&raw const EMPTY_MAP);
    let start = &raw const __start_gimso_faultmaps;
    let stop = &raw const __stop_gimso_faultmaps;
    let len = (stop as usize).saturating_sub(start as usize);
    // SAFETY: the linker defines both symbols around the section, which is
    // mapped for the life of the program; nothing writes it after the
    // dynamic loader relocated it.
    unsafe { core::slice::from_raw_parts(start, len) }
}

/// Whether a fault on `addr` is one a null capability's header load makes:
/// within a page of address zero (headers lie just below the payload;
/// LLVM folds only loads at offsets below a page).
fn near_null(addr: usize) -> bool {
    const PAGE: usize = 4096;
    addr < PAGE || addr >= PAGE.wrapping_neg()
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
extern "C" fn on_fault(_sig: c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
    // SAFETY: the kernel passes a valid siginfo and ucontext to an
    // SA_SIGINFO handler; the handler changes only the saved instruction
    // pointer, and only to the start of a block of the same function whose
    // live registers LLVM proved unchanged by the faulting load.
    unsafe {
        let uc = &mut *(context as *mut libc::ucontext_t);
        let pc = uc.uc_mcontext.gregs[libc::REG_RIP as usize] as usize;
        let addr = (*info).si_addr() as usize;
        if near_null(addr) {
            if let Some(resume) = handler_for(maps(), pc) {
                uc.uc_mcontext.gregs[libc::REG_RIP as usize] = resume as i64;
                return;
            }
        }
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
    }
}

/// Installs the `SIGSEGV` handler (once per process).
pub fn install() {
    #[cfg(all(target_os = "linux", target_arch = "x86_64"))]
    {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // SAFETY: a zeroed sigaction is a valid starting point; the
            // handler is an `extern "C"` function of the SA_SIGINFO kind.
            unsafe {
                let mut sa: libc::sigaction = core::mem::zeroed();
                sa.sa_sigaction = on_fault as *const () as usize;
                sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut sa.sa_mask);
                libc::sigaction(libc::SIGSEGV, &sa, core::ptr::null_mut());
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(functions: &[(u64, &[(u32, u32)])]) -> Vec<u8> {
        let mut m = vec![FAULT_MAP_VERSION, 0, 0, 0];
        m.extend_from_slice(&(functions.len() as u32).to_le_bytes());
        for (addr, entries) in functions {
            m.extend_from_slice(&addr.to_le_bytes());
            m.extend_from_slice(&(entries.len() as u32).to_le_bytes());
            m.extend_from_slice(&0u32.to_le_bytes());
            for (fault, handler) in *entries {
                m.extend_from_slice(&1u32.to_le_bytes());
                m.extend_from_slice(&fault.to_le_bytes());
                m.extend_from_slice(&handler.to_le_bytes());
            }
        }
        m
    }

    #[test]
    fn finds_entries_across_functions_and_objects() {
        let mut maps = map(&[]);
        maps.extend(map(&[
            (0x1000, &[(0x10, 0x80), (0x20, 0x90)]),
            (0x2000, &[(0x4, 0x40)]),
        ]));
        maps.extend(map(&[(0x3000, &[(0x8, 0x30)])]));
        assert_eq!(handler_for(&maps, 0x1010), Some(0x1080));
        assert_eq!(handler_for(&maps, 0x1020), Some(0x1090));
        assert_eq!(handler_for(&maps, 0x2004), Some(0x2040));
        assert_eq!(handler_for(&maps, 0x3008), Some(0x3030));
        assert_eq!(handler_for(&maps, 0x1011), None);
        assert_eq!(handler_for(&[], 0x1010), None);
    }

    #[test]
    fn stops_at_what_is_not_a_map() {
        let mut maps = map(&[(0x1000, &[(0x10, 0x80)])]);
        maps[0] = 2;
        assert_eq!(handler_for(&maps, 0x1010), None);
        let mut cut = map(&[(0x1000, &[(0x10, 0x80), (0x20, 0x90)])]);
        cut.truncate(cut.len() - 4);
        assert_eq!(handler_for(&cut, 0x1010), Some(0x1080));
        assert_eq!(handler_for(&cut, 0x1020), None);
    }

    #[test]
    fn only_faults_next_to_null_are_ours() {
        assert!(near_null(0));
        assert!(near_null(0usize.wrapping_sub(16)));
        assert!(near_null(0xfff));
        assert!(!near_null(0x1000));
        assert!(!near_null(0x7fff_0000_0000));
    }

    #[test]
    fn the_runtime_map_is_in_the_section() {
        assert!(handler_for(maps(), 0).is_none());
        assert!(maps().len() >= 8);
    }
}
