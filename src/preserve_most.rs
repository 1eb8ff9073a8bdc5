//! Cold-path entries under LLVM's `preserve_most` calling convention.
//!
//! Compiled code inlines the fast path of every pointer load, pointer store,
//! merged check and safepoint, and calls the runtime only when it falls off
//! that path (an atomic box, a store during marking, a failed merged check, a
//! collector request). Under the C convention each such call site clobbers
//! nine registers, so the register allocator keeps every value that lives
//! across one in a callee-saved register or on the stack, even though the
//! call is almost never made: in Lua's interpreter loop that was most of the
//! spill code. Under `preserve_most` the callee saves everything but `r11`
//! and its return registers, so the hot path keeps its registers.
//!
//! Rust cannot define a `preserve_most` function, so each entry here is a
//! small assembly trampoline: it saves the registers the C convention lets
//! the callee clobber (and the convention does not), calls the C-convention
//! entry of the same name without the `_pm` suffix, and restores them. The
//! floating-point registers stay caller-saved under `preserve_most`, as the
//! convention defines. The pushes also leave every saved register on the
//! stack, where the collector's conservative stack scan sees any capability
//! the caller held in one.
//!
//! `gimso.h` declares these entries with `__attribute__((preserve_most))`;
//! the test `preserve_most_entries` checks that each keeps every register
//! the convention promises.

/// Defines one trampoline. What it saves follows from what its target
/// returns: `void` entries keep rax as well, `pair` entries (a gimso_ptr in
/// rax:rdx) and `word` entries (rax) do not keep their return registers.
/// It saves them in push order, restores them in reverse, realigns the stack
/// for the call when an even number was pushed (the return address leaves it
/// 8 bytes off a 16-byte boundary) and calls the target through the PLT,
/// which is a direct call in a static link and reaches the library's own
/// definition in `libgimso.so`.
macro_rules! trampoline {
    (void $($rest:tt)*) => {
        trampoline!(@def pad "8", saves ["rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10"] $($rest)*);
    };
    (pair $($rest:tt)*) => {
        trampoline!(@def pad "8", saves ["rcx", "rsi", "rdi", "r8", "r9", "r10"] $($rest)*);
    };
    (word $($rest:tt)*) => {
        trampoline!(@def pad "0", saves ["rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10"] $($rest)*);
    };
    (@def pad $pad:literal, saves [$($reg:literal),*]
     $(#[$attr:meta])* fn $name:ident($($arg:ident: $ty:ty),*) $(-> $ret:ty)? => $target:path) => {
        $(#[$attr])*
        ///
        /// # Safety
        /// As the function it calls; only code that calls it under
        /// `preserve_most` (compiled code, tests) may call it.
        #[cfg(target_arch = "x86_64")]
        #[unsafe(naked)]
        pub unsafe extern "C" fn $name($($arg: $ty),*) $(-> $ret)? {
            core::arch::naked_asm!(
                ".cfi_startproc",
                $(
                    concat!("push ", $reg),
                    ".cfi_adjust_cfa_offset 8",
                    concat!(".cfi_rel_offset ", $reg, ", 0"),
                )*
                concat!("sub rsp, ", $pad),
                concat!(".cfi_adjust_cfa_offset ", $pad),
                "call {target}@PLT",
                concat!("add rsp, ", $pad),
                concat!(".cfi_adjust_cfa_offset -", $pad),
                trampoline!(@pops [$($reg),*] []),
                "ret",
                ".cfi_endproc",
                target = sym $target,
            )
        }
    };
    // Reverses the register list into pops.
    (@pops [] [$($rev:literal),*]) => {
        concat!($("pop ", $rev, "\n", ".cfi_adjust_cfa_offset -8\n", ".cfi_restore ", $rev, "\n",)*)
    };
    (@pops [$head:literal $(, $tail:literal)*] [$($rev:literal),*]) => {
        trampoline!(@pops [$($tail),*] [$head $(, $rev)*])
    };
}

use crate::capi::{gimso_access_recheck, gimso_load_ptr, gimso_pollcheck_slow, gimso_store_ptr};
use crate::compiled::gimso_check_call_at;
use gimso_abi::{FlightPtr, SourceLocation, ThreadAbi};

trampoline! { void
    /// `gimso_store_ptr` under `preserve_most`.
    #[unsafe(no_mangle)]
    fn gimso_store_ptr_pm(dst: FlightPtr, value: FlightPtr) => gimso_store_ptr
}
trampoline! { void
    /// `gimso_access_recheck` under `preserve_most`.
    #[unsafe(no_mangle)]
    fn gimso_access_recheck_pm(p: FlightPtr, size: usize, access: u32, loc: *const SourceLocation)
        => gimso_access_recheck
}
trampoline! { void
    /// `gimso_pollcheck_slow` under `preserve_most`.
    #[unsafe(no_mangle)]
    fn gimso_pollcheck_slow_pm(thread: *const ThreadAbi) => gimso_pollcheck_slow
}
trampoline! { pair
    /// `gimso_load_ptr` under `preserve_most`.
    #[unsafe(no_mangle)]
    fn gimso_load_ptr_pm(src: FlightPtr) -> FlightPtr => gimso_load_ptr
}
trampoline! { word
    /// `gimso_check_call_at` under `preserve_most`.
    #[unsafe(no_mangle)]
    fn gimso_check_call_at_pm(f: FlightPtr, loc: *const SourceLocation) -> usize
        => gimso_check_call_at
}

/// Tests of the trampolines themselves: a target that clobbers every
/// register the C convention lets it clobber and returns `CLOBBER_RESULT` in
/// rax:rdx, after trapping (ud2) if the stack was misaligned at the call.
#[doc(hidden)]
pub mod testing {
    /// What [`clobber_everything`] returns in rax and rdx.
    pub const CLOBBER_RESULT: (usize, usize) = (0x1111, 0x2222);

    /// # Safety
    /// Callable from anywhere; it only writes registers the C convention
    /// lets it write.
    #[cfg(target_arch = "x86_64")]
    #[unsafe(naked)]
    pub unsafe extern "C" fn clobber_everything() {
        core::arch::naked_asm!(
            // At entry rsp is 8 bytes off a 16-byte boundary (the return
            // address); anything else is a misaligned call.
            "test rsp, 8",
            "jnz 2f",
            "ud2",
            "2:",
            "mov rcx, -1",
            "mov rsi, -1",
            "mov rdi, -1",
            "mov r8, -1",
            "mov r9, -1",
            "mov r10, -1",
            "mov r11, -1",
            "mov rax, 0x1111",
            "mov rdx, 0x2222",
            "ret",
        )
    }

    trampoline! { void
        /// The `void` trampoline around [`clobber_everything`].
        fn clobber_void_pm() => clobber_everything
    }
    trampoline! { pair
        /// The `pair` trampoline around [`clobber_everything`].
        fn clobber_pair_pm() => clobber_everything
    }
    trampoline! { word
        /// The `word` trampoline around [`clobber_everything`].
        fn clobber_word_pm() => clobber_everything
    }
}
