//! What the driver adds to clang's command lines, and what it reads
//! from the user's flags (through [`flag_table`]).

use std::ffi::OsString;
use std::path::Path;

use super::flag_table::{self, Back};

/// Flags added to the front half, after the user's own (so they win), that
/// keep the program the user wrote visible to the checks at every `-O`
/// level (docs/gimso-cc.md, "The front half"). What each one prevents, from `clang-16 -O2
/// -emit-llvm -S` experiments (kept as the test
/// `front_half_flags_keep_the_bugs_the_checks_must_see`):
///
/// - `-fno-builtin-{malloc,calloc,realloc,free,aligned_alloc,memalign,
///   strdup,strndup}`: without them LLVM knows the allocator's semantics and
///   deletes a `malloc`/`free` pair, a store to freed memory, a store right
///   before `free`, a double free, and folds a read of fresh (or
///   out-of-bounds) heap memory to `undef` or `0`.
/// - `-fno-builtin-{sprintf,snprintf,vsprintf,vsnprintf,strcpy,stpcpy,
///   strncpy,strcat,strncat}`: without them LLVM rewrites such a call with
///   a constant format or source into a `memcpy` of the known length, and
///   when the destination is never read afterwards deletes it, overflow
///   and all (`snprintf(buf, 64, "%s", long_literal)` into an 8-byte
///   `buf` vanished at `-O2`); the calls stay calls to the checked
///   wrappers.
/// - `-fno-delete-null-pointer-checks`: keeps a null check after a
///   dereference, and a store through or a call of a null pointer (which
///   otherwise become `unreachable`).
/// - `-fno-strict-aliasing`: no type-based alias analysis (a store through
///   a `float *` is seen by a following `int *` load of the same memory).
/// - `-fwrapv`: signed and pointer overflow wrap, so user-written overflow
///   checks (`if (off + len < off)`, `if (p + n < p)`) stay (it also makes
///   clang drop `inbounds` from pointer arithmetic). `-fno-strict-overflow`
///   is the same option in clang 16 and, given with `-fwrapv`, draws an
///   "argument unused" warning that `-Werror` builds turn into an error.
/// - `-ftrivial-auto-var-init=zero`: locals start zeroed, as gimso's
///   `alloca` semantics say; otherwise a branch on an uninitialised local
///   is UB and the optimiser replaces the function body with `unreachable`.
///
/// With them the front half gets [`PREPROCESSOR_FLAGS`]:
///
/// - `-U_FORTIFY_SOURCE`: distribution build flags often define
///   `_FORTIFY_SOURCE=2`, which makes glibc's headers call `__printf_chk`,
///   `__strcpy_chk`, …: functions the runtime does not wrap, and whose
///   object-size checks gimso's capability checks subsume.
/// - `-D_BITS_STDIO_H`: when optimising, glibc's `<stdio.h>` includes
///   `<bits/stdio.h>`, whose inline `getc_unlocked`, `putc_unlocked`,
///   `getchar_unlocked`, `putchar_unlocked`, `feof_unlocked`, … read and
///   write the fields of the `FILE` structure directly (calling
///   `__uflow`/`__overflow` only when its buffer is empty or full). A
///   gimso `FILE *` points to a special object no data access passes, so
///   those inlines would stop the program; defining the header's include
///   guard skips it (it holds nothing else), and the calls go to the
///   checked wrappers.
///
/// Frame pointers are left to clang's defaults and the user's flags (kept
/// at `-O0`, omitted from `-O1` on): at `-O2` `rbp` is one more register
/// for code that carries a capability beside every pointer (2.4% fewer
/// instructions in Lua than with `-fno-omit-frame-pointer`). The safety
/// report's backtrace walks frames by the unwind tables (test
/// `tests/c/report_backtrace_frames.c`), and the collector's stack scan
/// spills `rbp` with the other callee-saved registers.
pub const FRONT_HALF_FLAGS: &[&str] = &[
    "-fno-builtin-malloc",
    "-fno-builtin-calloc",
    "-fno-builtin-realloc",
    "-fno-builtin-free",
    "-fno-builtin-aligned_alloc",
    "-fno-builtin-memalign",
    "-fno-builtin-strdup",
    "-fno-builtin-strndup",
    "-fno-builtin-sprintf",
    "-fno-builtin-snprintf",
    "-fno-builtin-vsprintf",
    "-fno-builtin-vsnprintf",
    "-fno-builtin-strcpy",
    "-fno-builtin-stpcpy",
    "-fno-builtin-strncpy",
    "-fno-builtin-strcat",
    "-fno-builtin-strncat",
    "-fno-delete-null-pointer-checks",
    "-fno-strict-aliasing",
    "-fwrapv",
    "-ftrivial-auto-var-init=zero",
];

/// The [`FRONT_HALF_FLAGS`] that change what the preprocessor makes of
/// the headers, also given to `-E`, so preprocessed output compiles as
/// the source would.
pub const PREPROCESSOR_FLAGS: &[&str] = &["-U_FORTIFY_SOURCE", "-D_BITS_STDIO_H"];

/// Flags that make the front half stop at clang's unoptimised IR:
/// [`crate::optimize::front_half`] optimises it in process once the
/// promises are gone. `-disable-O0-optnone` keeps `-O0` functions open to
/// the promotion of allocas. (`-O0 -disable-O0-optnone` for every level
/// would not do: clang marks every function `noinline` at `-O0`, so the
/// later `default<O2>` could not inline.)
pub const FRONT_HALF_NO_PASSES: &[&str] = &[
    "-Xclang",
    "-disable-llvm-passes",
    "-Xclang",
    "-disable-O0-optnone",
];

/// Flags added to the back half. `-Qunused-arguments`: the user's `-f`,
/// `-m` and `-g` options are passed on (`-fPIC`, `-ffunction-sections`,
/// `-march=…` matter to code generation) and clang must not warn about the
/// ones that only concern C. `-mllvm -trap-unreachable`: an `unreachable`
/// the optimiser derived from UB becomes a trap instead of falling through
/// into whatever code follows.
pub const BACK_HALF_FLAGS: &[&str] = &["-Qunused-arguments", "-mllvm", "-trap-unreachable"];

/// System libraries linked after `libgimso.a`.
pub const RUNTIME_DEPS: &[&str] = &["-lpthread", "-ldl", "-lm"];

/// clang's option naming the linker by its path: the link gets it for the
/// fastest linker installed, unless the user chose one.
pub const LD_PATH: &str = "--ld-path=";

fn has_flag(flags: &[String], names: &[&str]) -> bool {
    flags.iter().any(|f| names.contains(&f.as_str()))
}

/// Whether the user asked for debug info: the last option that turns it
/// on (`-g`, `-g1`…, `-ggdb…`, `-gdwarf…`, `-gline-…`, `-gfull`) or off
/// (`-g0`, `-ggdb0`) wins. Modifiers such as `-gsplit-dwarf` or `-gz` do
/// not count ([`flag_table::debug_of`]).
pub fn wants_debug(flags: &[String]) -> bool {
    flags
        .iter()
        .rev()
        .find_map(|f| flag_table::debug_of(f))
        .unwrap_or(false)
}

/// Whether the back half can run in process: none of the user's flags
/// changes code generation beyond what the module already records
/// (function attributes, PIC/PIE levels, debug info). Target options
/// (`-m…`), section layout, sanitizers or profiling send the translated
/// bitcode through clang instead ([`Back::Clang`] in the flag table).
pub fn in_process_back_half(flags: &[String]) -> bool {
    flags.iter().all(|f| flag_table::back_of(f) != Back::Clang)
}

/// The user's options that also concern code generation from bitcode
/// (`-fPIC`, `-ffunction-sections`, `-march=…`, `-g`; not `-flto`, which
/// would make the object bitcode again).
pub fn back_half_user_flags(flags: &[String]) -> Vec<String> {
    flags
        .iter()
        .filter(|f| flag_table::back_of(f) != Back::Skipped)
        .cloned()
        .collect()
}

/// `-MF`/`-MT` for `-MD`/`-MMD` when the user gave none: clang would
/// otherwise name the dependency file and its target after the temporary
/// bitcode. The defaults are clang's: the output with its extension
/// replaced by `.d`, and the output as the target.
pub fn dependency_defaults(flags: &[String], target: &Path) -> Vec<OsString> {
    let mut extra = Vec::new();
    if !has_flag(flags, &["-MD", "-MMD"]) {
        return extra;
    }
    if !has_flag(flags, &["-MF"]) {
        extra.push("-MF".into());
        extra.push(target.with_extension("d").into_os_string());
    }
    if !has_flag(flags, &["-MT", "-MQ"]) {
        extra.push("-MT".into());
        extra.push(target.as_os_str().to_owned());
    }
    extra
}
