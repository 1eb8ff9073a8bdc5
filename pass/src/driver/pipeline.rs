//! Running a parsed `gimso-cc` command line (DESIGN §8).
//!
//! For each C source:
//!
//! 1. **Front half** (a `clang-16` process): `clang-16 -O<n> <user flags>
//!    <UB-keeping flags> -Xclang -disable-llvm-passes -Xclang
//!    -disable-O0-optnone -emit-llvm -c src -o N-src.bc`: clang's front end
//!    at the user's level (`__OPTIMIZE__`, inline definitions, no blanket
//!    `noinline`), but none of LLVM's passes. [`FRONT_HALF_FLAGS`] keep the
//!    front end from licensing UB-based deletions.
//! 2. **The pass** (in process): [`load_module`] →
//!    [`crate::optimize::front_half`] (the promises stripped, pointer
//!    atomics restored, then LLVM's `default<On>` pipeline: optimising
//!    before the pass, so allocas are promoted, TOOLCHAIN-NOTES "Pipeline
//!    order") → [`check_module`] → [`prepare`] → [`translate_module`](crate::translate::translate_module) → LLVM
//!    verifier → bitcode. Diagnostics are printed clang-style
//!    (`file.c:L:C: error: …`) and give exit status 1; a module the verifier
//!    rejects, an optimiser failure, or a panic in the pass is an internal
//!    compiler error (exit status 70).
//! 3. **Back half** (a `clang-16` process): `clang-16 -O<n> -c
//!    N-src.out.bc -o src.o` (or `-S`), which optimises the translated code
//!    again and generates machine code.
//!
//! Then, unless `-c`, `-S` or `-E`, the link: `clang-16 <objects>
//! libgimso.a -lpthread -ldl -lm -o a.out`, with undefined `gimso.fn.NAME`
//! / `gimso.obj.NAME` symbols reported as missing gimso wrappers
//! ([`rewrite_link_errors`]).
//!
//! Every error is a value ([`DriverError`]); clang's own errors go to
//! stderr unchanged and its exit status becomes `gimso-cc`'s.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use inkwell::context::Context;
use inkwell::module::Module;

use crate::driver::args::{Input, Invocation, Mode};
use crate::location::Scope;
use crate::prepare::prepare;
use crate::reject::{Diagnostic, check_module};
use crate::translate::{TranslateOptions, translate_module_with};
use crate::{LoadError, load_module};

/// The C compiler the driver runs (override with `$GIMSO_CLANG`).
pub const DEFAULT_CLANG: &str = "clang-16";

/// The runtime archive linked into every program.
pub const RUNTIME_LIB: &str = "libgimso.a";

/// Exit status of an internal compiler error (`EX_SOFTWARE`).
pub const EXIT_INTERNAL: i32 = 70;

/// Flags added to the front half, after the user's own (so they win), that
/// keep the program the user wrote visible to the checks at every `-O`
/// level (DESIGN §8). What each one prevents, from `clang-16 -O2
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

/// Headers gimso-cc puts before glibc's (an `-isystem` directory written
/// next to the runtime on first use): each changes a declaration the
/// object model cannot follow as glibc writes it. `bits/epoll.h` leaves
/// `struct epoll_event` unpacked, so a pointer stored in its data is
/// 8-byte aligned (the wrappers convert to the kernel's layout).
pub const SYSTEM_HEADERS: &[(&str, &str)] = &[(
    "bits/epoll.h",
    include_str!("../../../include/system/bits/epoll.h"),
)];

/// The directory holding [`SYSTEM_HEADERS`], named by a hash of their
/// contents and written on first use under the first of `bases` that is
/// writable (published by a rename, so concurrent compiles never see it
/// half-written).
pub fn system_header_dir(bases: &[PathBuf]) -> Result<PathBuf, DriverError> {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (name, text) in SYSTEM_HEADERS {
        for b in name.bytes().chain(text.bytes()) {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    let name = format!("gimso-include-{h:016x}");
    let mut last_error = None;
    for base in bases {
        let dir = base.join(&name);
        if SYSTEM_HEADERS.iter().all(|(f, _)| dir.join(f).is_file()) {
            return Ok(dir);
        }
        let staged = base.join(format!("{name}.{}", std::process::id()));
        let written = SYSTEM_HEADERS.iter().try_for_each(|(f, text)| {
            let path = staged.join(f);
            std::fs::create_dir_all(path.parent().unwrap_or(&staged))?;
            std::fs::write(path, text)
        });
        match written.and_then(|()| std::fs::rename(&staged, &dir)) {
            Ok(()) => return Ok(dir),
            // Another compile published it first.
            Err(_) if SYSTEM_HEADERS.iter().all(|(f, _)| dir.join(f).is_file()) => {
                let _ = std::fs::remove_dir_all(&staged);
                return Ok(dir);
            }
            Err(e) => {
                let _ = std::fs::remove_dir_all(&staged);
                last_error = Some(e);
            }
        }
    }
    Err(DriverError::Io {
        what: format!(
            "cannot write gimso's system headers ({name}) next to the runtime or in the temporary directory"
        ),
        error: last_error.unwrap_or_else(|| std::io::Error::other("no directory to write to")),
    })
}

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

/// The C++ ABI support every C++ program links (compiled on first use).
const CXXABI_C: &str = include_str!("../../../cxx/cxxabi.c");
/// `gimso.h`, which [`CXXABI_C`] includes.
const GIMSO_H: &str = include_str!("../../../include/gimso.h");

/// Linkers tried, fastest first, when the user names none: the runtime
/// archive is large (Rust std, the symboliser), and the default BFD linker
/// spends longer on it than on the whole program (0.2 s against 0.08 s
/// for lld on the benchmark programs).
const FAST_LINKERS: &[&str] = &[
    "ld.lld-16",
    "ld.lld",
    "/usr/lib/llvm-16/bin/ld.lld",
    "ld.gold",
];

/// The first of [`FAST_LINKERS`] that exists (searched on `PATH`).
fn fast_linker() -> Option<&'static Path> {
    static FOUND: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(|| {
            let path = std::env::var_os("PATH").unwrap_or_default();
            FAST_LINKERS.iter().find_map(|name| {
                let name = Path::new(name);
                if name.is_absolute() {
                    return name.is_file().then(|| name.to_path_buf());
                }
                std::env::split_paths(&path)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        })
        .as_deref()
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

/// Why a `gimso-cc` run failed. [`DriverError::message`] is what is left
/// to print (some failures have printed their output already) and
/// [`DriverError::exit_code`] the process status.
#[derive(Debug)]
pub enum DriverError {
    /// A clang process failed; it printed its own errors.
    Tool { program: String, code: i32 },
    /// A program could not be started.
    Spawn { program: String, error: io::Error },
    /// The pass reported (and printed) this many diagnostics.
    Diagnostics { count: usize },
    /// A bug in gimso: a translated module LLVM rejects, a panic, a
    /// front-half output that does not load.
    Internal(String),
    /// `libgimso.a` was not found.
    RuntimeNotFound(RuntimeNotFound),
    /// A file could not be read, written or created.
    Io { what: String, error: io::Error },
    /// The link failed; its (rewritten) output has been printed.
    Link { code: i32 },
    /// Several sources failed; each error has been printed already.
    Reported { code: i32 },
}

impl DriverError {
    /// The process exit status for this failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            DriverError::Tool { code, .. }
            | DriverError::Link { code }
            | DriverError::Reported { code } => *code,
            DriverError::Internal(_) => EXIT_INTERNAL,
            _ => 1,
        }
    }

    /// What still has to be printed on stderr, if anything.
    pub fn message(&self) -> Option<String> {
        match self {
            DriverError::Tool { .. }
            | DriverError::Diagnostics { .. }
            | DriverError::Link { .. }
            | DriverError::Reported { .. } => None,
            _ => Some(self.to_string()),
        }
    }
}

impl fmt::Display for DriverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DriverError::Tool { program, code } => {
                write!(f, "gimso-cc: error: {program} failed with exit code {code}")
            }
            DriverError::Spawn { program, error } => write!(
                f,
                "gimso-cc: error: cannot run '{program}': {error} (gimso-cc needs clang-16; \
                 set GIMSO_CLANG to use another clang 16 binary)"
            ),
            DriverError::Diagnostics { count } => write!(
                f,
                "{count} error{} generated.",
                if *count == 1 { "" } else { "s" }
            ),
            DriverError::Internal(msg) => write!(
                f,
                "gimso-cc: internal compiler error: {msg}\n\
                 gimso-cc: note: this is a bug in gimso; please report it with the source \
                 file (GIMSO_KEEP_TEMPS=1 keeps the intermediate files)"
            ),
            DriverError::RuntimeNotFound(e) => write!(f, "{e}"),
            DriverError::Io { what, error } => write!(f, "gimso-cc: error: {what}: {error}"),
            DriverError::Link { code } => {
                write!(f, "gimso-cc: error: linking failed with exit code {code}")
            }
            DriverError::Reported { code } => {
                write!(f, "gimso-cc: error: compilation failed (exit code {code})")
            }
        }
    }
}

impl std::error::Error for DriverError {}

// ---------------------------------------------------------------------------
// Environment
// ---------------------------------------------------------------------------

/// What the driver takes from its surroundings; [`Environment::from_process`]
/// reads the real ones, tests build their own.
#[derive(Clone, Debug, Default)]
pub struct Environment {
    /// The clang to run (`$GIMSO_CLANG`, default [`DEFAULT_CLANG`]).
    pub clang: OsString,
    /// The running `gimso-cc` binary (`libgimso.a` is looked for next to it).
    pub exe: Option<PathBuf>,
    /// `$GIMSO_LIBDIR`.
    pub env_libdir: Option<PathBuf>,
    /// `$GIMSO_KEEP_TEMPS` set to anything but empty or `0`.
    pub keep_temps: bool,
    /// The working directory (diagnostics name files relative to it).
    pub cwd: Option<PathBuf>,
}

impl Environment {
    /// The process's environment.
    pub fn from_process() -> Self {
        let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Environment {
            clang: non_empty("GIMSO_CLANG").unwrap_or_else(|| DEFAULT_CLANG.into()),
            exe: std::env::current_exe().ok(),
            env_libdir: non_empty("GIMSO_LIBDIR").map(PathBuf::from),
            keep_temps: non_empty("GIMSO_KEEP_TEMPS").is_some_and(|v| v != "0"),
            cwd: std::env::current_dir().ok(),
        }
    }
}

// ---------------------------------------------------------------------------
// Finding the runtime
// ---------------------------------------------------------------------------

/// `libgimso.a` was looked for in these places and is in none of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeNotFound {
    /// Each directory searched, with how it was chosen.
    pub searched: Vec<(PathBuf, &'static str)>,
    /// Whether `$GIMSO_LIBDIR` was set (it is named either way).
    pub env_set: bool,
}

impl fmt::Display for RuntimeNotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "gimso-cc: error: cannot find the gimso runtime library '{RUNTIME_LIB}'; searched:"
        )?;
        for (dir, why) in &self.searched {
            writeln!(f, "  {} ({why})", dir.join(RUNTIME_LIB).display())?;
        }
        if !self.env_set {
            writeln!(f, "  $GIMSO_LIBDIR (not set)")?;
        }
        write!(
            f,
            "gimso-cc: note: build it with `cargo build --release -p gimso` (it lands next to \
             gimso-cc in target/release/), or point to it with --gimso-libdir=DIR or GIMSO_LIBDIR=DIR"
        )
    }
}

impl std::error::Error for RuntimeNotFound {}

/// Where `libgimso.a` is: in `--gimso-libdir` if given (and nowhere else),
/// otherwise the first of: the directory of the `gimso-cc` binary (the
/// `target/release/` layout), `../lib/` relative to it (an install
/// prefix), `$GIMSO_LIBDIR` (for `cargo install`, which installs only the
/// binary).
pub fn find_runtime(
    flag: Option<&Path>,
    exe: Option<&Path>,
    env_libdir: Option<&Path>,
) -> Result<PathBuf, RuntimeNotFound> {
    let mut candidates: Vec<(PathBuf, &'static str)> = Vec::new();
    if let Some(dir) = flag {
        candidates.push((dir.to_owned(), "--gimso-libdir"));
    } else {
        if let Some(bin_dir) = exe.and_then(Path::parent) {
            candidates.push((bin_dir.to_owned(), "next to gimso-cc"));
            if let Some(prefix) = bin_dir.parent() {
                candidates.push((prefix.join("lib"), "../lib from gimso-cc"));
            }
        }
        if let Some(dir) = env_libdir {
            candidates.push((dir.to_owned(), "$GIMSO_LIBDIR"));
        }
    }
    for (dir, _) in &candidates {
        let lib = dir.join(RUNTIME_LIB);
        if lib.is_file() {
            return Ok(lib);
        }
    }
    Err(RuntimeNotFound {
        searched: candidates,
        env_set: flag.is_some() || env_libdir.is_some(),
    })
}

// ---------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------

/// `d` as clang prints an error: `file.c:L:C: error: <message> (in function
/// `f`)`. The file is shown relative to `cwd` when it lies under it (the
/// debug info records it joined to the compilation directory); without a
/// source position the `source` the user named stands in for it.
pub fn render_diagnostic(d: &Diagnostic, source: &Path, cwd: Option<&Path>) -> String {
    let mut out = match &d.location.source {
        Some(loc) => {
            let mut loc = loc.clone();
            if let Some(rest) = cwd.and_then(|c| Path::new(&loc.file).strip_prefix(c).ok()) {
                loc.file = rest.to_string_lossy().into_owned();
            }
            loc.to_string()
        }
        None => source.display().to_string(),
    };
    out.push_str(": error: ");
    out.push_str(&d.message);
    match &d.location.scope {
        Scope::Module => {}
        Scope::Function(name) => out.push_str(&format!(" (in function `{name}`)")),
        Scope::Global(name) => out.push_str(&format!(" (in global `{name}`)")),
    }
    out
}

// ---------------------------------------------------------------------------
// The pass, in process
// ---------------------------------------------------------------------------

/// What the in-process step writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrOutput {
    /// Bitcode (`.bc`).
    Bitcode,
    /// Textual IR (`.ll`).
    Text,
    /// An object file: the back half runs in process ([`crate::backend`]).
    Object,
    /// Assembly (`-S`), from the same in-process back half as objects, so it
    /// shows the code `-c` makes (but for explicit null tests: LLVM's fault
    /// map in a `.s` is one the runtime would not read).
    Assembly,
}

/// Options for [`run_pass`].
#[derive(Clone, Debug)]
pub struct PassOptions<'a> {
    /// The C source the IR came from, as the user named it (for
    /// diagnostics without a position).
    pub source: &'a Path,
    /// The working directory (diagnostic paths are shown relative to it).
    pub cwd: Option<&'a Path>,
    /// Remove debug info after translating: the driver always compiles with
    /// at least line tables so diagnostics and check sites have positions,
    /// and strips them again when the user did not ask for `-g`.
    pub strip_debug: bool,
    /// The `-O` level for the in-process optimiser (`0`…`3`, `s`, `z`).
    pub opt_level: &'a str,
    /// The output format.
    pub output: IrOutput,
    /// Print what is done (`-v`).
    pub verbose: bool,
    /// Direct (register) entries between compiled functions.
    pub direct_calls: bool,
    /// Exposed provenance for integer-to-pointer conversions.
    pub exposed_provenance: bool,
    /// Null tests that code generation may fold into header loads
    /// ([`TranslateOptions::implicit_null_checks`]).
    pub implicit_null_checks: bool,
}

/// Loads `input`, checks, prepares, translates and verifies it, and writes
/// the result to `output`. Diagnostics are printed on stderr. A panic in
/// the pass is caught and reported as an internal compiler error.
pub fn run_pass(input: &Path, output: &Path, opts: &PassOptions<'_>) -> Result<(), DriverError> {
    with_panic_state(|state| state.source = Some(opts.source.to_owned()));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        run_pass_inner(input, output, opts)
    }));
    with_panic_state(|state| state.source = None);
    match result {
        Ok(r) => r,
        Err(payload) => Err(DriverError::Internal(format!(
            "panic while compiling {}: {}",
            opts.source.display(),
            panic_message(&*payload)
        ))),
    }
}

fn run_pass_inner(input: &Path, output: &Path, opts: &PassOptions<'_>) -> Result<(), DriverError> {
    let ctx = Context::create();
    let module = load_module(&ctx, input).map_err(|e| match e {
        LoadError::Io { path, source } => DriverError::Io {
            what: format!("cannot read {}", path.display()),
            error: source,
        },
        other => DriverError::Internal(format!(
            "clang's output for {} does not load: {other}",
            opts.source.display()
        )),
    })?;

    if let Err(message) = crate::personality::apply(&module) {
        let d = Diagnostic {
            location: crate::location::Location::module(),
            construct: "GIMSO_PERSONALITY".into(),
            message,
        };
        eprintln!("{}", render_diagnostic(&d, opts.source, opts.cwd));
        let err = DriverError::Diagnostics { count: 1 };
        eprintln!("{err}");
        return Err(err);
    }
    crate::optimize::front_half(&module, opts.opt_level).map_err(|e| {
        DriverError::Internal(format!(
            "the optimiser failed on {}: {e}",
            opts.source.display()
        ))
    })?;
    if let Err(e) = module.verify() {
        return Err(DriverError::Internal(format!(
            "{} fails LLVM verification after the optimiser: {}",
            opts.source.display(),
            e.to_string()
                .lines()
                .take(12)
                .collect::<Vec<_>>()
                .join("\n")
        )));
    }
    if opts.verbose {
        eprintln!(
            "gimso-cc: pass: {}: optimised (-O{})",
            input.display(),
            opts.opt_level
        );
    }

    let report = |diags: &[Diagnostic]| {
        for d in diags {
            eprintln!("{}", render_diagnostic(d, opts.source, opts.cwd));
        }
        let err = DriverError::Diagnostics { count: diags.len() };
        eprintln!("{err}");
        err
    };

    let rejected = check_module(&module);
    if !rejected.is_empty() {
        return Err(report(&rejected));
    }
    let prepared = prepare(&module);
    if opts.verbose {
        eprintln!(
            "gimso-cc: pass: {}: prepared ({prepared:?})",
            input.display()
        );
    }
    let options = TranslateOptions {
        direct_calls: opts.direct_calls,
        exposed_provenance: opts.exposed_provenance,
        implicit_null_checks: opts.implicit_null_checks && opts.output == IrOutput::Object,
    };
    let stats = match translate_module_with(&module, &options) {
        Ok(stats) => stats,
        Err(diags) if diags.is_empty() => {
            return Err(DriverError::Internal(format!(
                "the translation of {} failed without a diagnostic",
                opts.source.display()
            )));
        }
        Err(diags) => return Err(report(&diags)),
    };
    if opts.verbose {
        eprintln!(
            "gimso-cc: pass: {}: translated ({stats:?})",
            input.display()
        );
    }
    verify_translated(&module, opts.source)?;
    if opts.strip_debug {
        module.strip_debug_info();
    }
    write_module(&module, output, opts.output, opts.opt_level)?;
    if opts.verbose {
        eprintln!(
            "gimso-cc: pass: {}: verified, wrote {}",
            input.display(),
            output.display()
        );
    }
    Ok(())
}

/// Runs the LLVM verifier on a translated module. A failure is an internal
/// compiler error that names the first function the verifier rejects (or
/// the module when the problem is outside functions), with LLVM's message.
pub fn verify_translated(module: &Module<'_>, source: &Path) -> Result<(), DriverError> {
    let Err(message) = module.verify() else {
        return Ok(());
    };
    let bad: Vec<String> = module
        .get_functions()
        .filter(|f| f.count_basic_blocks() > 0 && !f.verify(false))
        .map(|f| f.get_name().to_string_lossy().into_owned())
        .collect();
    let whom = match bad.as_slice() {
        [] => "at module level".to_owned(),
        [one] => format!("in function `{one}`"),
        [first, rest @ ..] => format!("in function `{first}` (and {} more)", rest.len()),
    };
    let message = message.to_string();
    let mut lines: Vec<&str> = message.lines().take(12).collect();
    if message.lines().count() > lines.len() {
        lines.push("…");
    }
    Err(DriverError::Internal(format!(
        "the translation of {} fails LLVM verification {whom}:\n{}",
        source.display(),
        lines.join("\n")
    )))
}

/// Writes bitcode or text through `std::fs` (inkwell's path-taking writers
/// panic on non-UTF-8 paths).
fn write_module(
    module: &Module<'_>,
    path: &Path,
    kind: IrOutput,
    opt_level: &str,
) -> Result<(), DriverError> {
    let bytes: Vec<u8> = match kind {
        IrOutput::Bitcode => module.write_bitcode_to_memory().as_slice().to_vec(),
        IrOutput::Text => module.print_to_string().to_bytes().to_vec(),
        IrOutput::Object => {
            return crate::backend::emit_object(module, opt_level, path)
                .map_err(|e| DriverError::Internal(format!("code generation failed: {e}")));
        }
        IrOutput::Assembly => crate::backend::emit_assembly(module, opt_level)
            .map_err(|e| DriverError::Internal(format!("code generation failed: {e}")))?,
    };
    let written = if path == Path::new("-") {
        io::Write::write_all(&mut io::stdout().lock(), &bytes)
    } else {
        std::fs::write(path, bytes)
    };
    written.map_err(|error| DriverError::Io {
        what: format!("cannot write {}", path.display()),
        error,
    })
}

// ---------------------------------------------------------------------------
// Link errors
// ---------------------------------------------------------------------------

/// The linker's stderr with missing-wrapper errors rewritten.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkReport {
    /// The text to print.
    pub text: String,
    /// C names (without the `gimso.fn.`/`gimso.obj.` prefix) that have no
    /// gimso definition, in first-seen order, without repeats.
    pub missing: Vec<String>,
}

/// Rewrites linker output: every undefined reference to `gimso.fn.NAME`
/// or `gimso.obj.NAME` (GNU ld, gold, lld and mold formats) becomes
/// `gimso-cc: error: no gimso wrapper for external function 'NAME'
/// (referenced from <where> in function 'F')`; other lines pass through,
/// with each `(from, to)` of `renames` applied (temporary object paths →
/// source names). A note explaining the error follows when there was one.
pub fn rewrite_link_errors(output: &str, renames: &[(String, String)]) -> LinkReport {
    let mut rw = Rewriter::default();
    for raw in output.lines() {
        let mut line = raw.to_owned();
        for (from, to) in renames {
            if !from.is_empty() && line.contains(from.as_str()) {
                line = line.replace(from.as_str(), to);
            }
        }
        rw.line(&line);
    }
    rw.finish()
}

#[derive(Default)]
struct Rewriter {
    out: Vec<String>,
    /// One entry per missing name, rendered at its first reference.
    missing: Vec<Missing>,
    /// GNU ld's `obj: in function `F':` header, held back until a line it
    /// introduces is passed through (it is dropped when every reference
    /// under it was rewritten).
    function: Option<FunctionHeader>,
    /// An lld/mold block for a gimso symbol.
    lld_block: Option<LldBlock>,
}

/// A name without a gimso definition and where it is referenced.
struct Missing {
    name: String,
    /// Referenced as `gimso.fn.NAME` (a call) at least once.
    called: bool,
    /// Index of its line in `Rewriter::out`.
    line: usize,
    /// The first reference: place and function.
    place: String,
    function: Option<String>,
    /// The other functions (or places, when the linker names none) that
    /// reference it.
    others: std::collections::BTreeSet<String>,
}

impl Missing {
    fn render(&self) -> String {
        let kind = if self.called {
            "function"
        } else {
            "function or variable"
        };
        let mut msg = format!(
            "gimso-cc: error: no gimso wrapper for external {kind} '{}'",
            self.name
        );
        let from = match (self.place.is_empty(), &self.function) {
            (true, None) => None,
            (true, Some(f)) => Some(format!("function '{f}'")),
            (false, None) => Some(self.place.clone()),
            (false, Some(f)) => Some(format!("{} in function '{f}'", self.place)),
        };
        if let Some(from) = from {
            msg.push_str(&format!(" (referenced from {from}"));
            match self.others.len() {
                0 => {}
                1 => msg.push_str(", and from 1 other place"),
                n => msg.push_str(&format!(", and from {n} other places")),
            }
            msg.push(')');
        }
        msg
    }
}

struct FunctionHeader {
    line: String,
    /// The function's C name.
    name: String,
    printed: bool,
}

struct LldBlock {
    symbol: String,
    /// `(where, function)` of each `>>> referenced by`.
    refs: Vec<(String, Option<String>)>,
}

/// `gimso.fn.NAME` → `("function", NAME)`, `gimso.obj.NAME` → `("function
/// or variable", NAME)`.
fn gimso_symbol(sym: &str) -> Option<(&'static str, &str)> {
    if let Some(name) = sym.strip_prefix(gimso_abi::SYMBOL_FN_PREFIX) {
        Some(("function", name))
    } else {
        sym.strip_prefix(gimso_abi::SYMBOL_OBJ_PREFIX)
            .map(|name| ("function or variable", name))
    }
}

/// A compiled function's C name (`gimso.fn.main` → `main`).
fn c_name(function: &str) -> &str {
    function
        .strip_prefix(gimso_abi::SYMBOL_FN_PREFIX)
        .unwrap_or(function)
}

/// gold's `obj.o:src.c:function F` (or `obj.o:function F`) → the source
/// (or object) and `F`'s C name; other places are kept whole.
fn split_gold_place(place: &str) -> (String, Option<String>) {
    let Some(at) = place.find(":function ") else {
        return (place.to_owned(), None);
    };
    let function = place[at + ":function ".len()..]
        .split(':')
        .next()
        .unwrap_or_default();
    let file = place[..at].rsplit(':').next().unwrap_or_default();
    (file.to_owned(), Some(c_name(function).to_owned()))
}

/// Drops a leading `/usr/bin/ld: ` (or `ld.gold: `, …) tool prefix.
fn strip_tool_prefix(s: &str) -> &str {
    for tool in [
        "ld: ",
        "ld.bfd: ",
        "ld.gold: ",
        "ld.lld: ",
        "ld.lld-16: ",
        "mold: ",
    ] {
        if let Some(pos) = s.find(tool) {
            let head = &s[..pos];
            // The prefix is the program, possibly with its directory.
            if (head.is_empty() || head.ends_with('/')) && !head.contains([' ', ':']) {
                return &s[pos + tool.len()..];
            }
        }
    }
    s
}

/// Splits `line` at `marker` followed by a symbol in GNU's `` `sym' `` or
/// gold's `'sym'` quoting: `(text before marker, sym)`.
fn quoted_after<'l>(line: &'l str, marker: &str) -> Option<(&'l str, &'l str)> {
    let pos = line.find(marker)?;
    let rest = line[pos + marker.len()..].strip_prefix(['`', '\''])?;
    let end = rest.find('\'')?;
    Some((&line[..pos], &rest[..end]))
}

/// `obj.o:(function)` → `("obj.o", Some(function))`.
fn split_object_function(s: &str) -> (String, Option<String>) {
    match s.rfind(":(") {
        Some(open) if s.ends_with(')') => (
            s[..open].to_owned(),
            Some(c_name(&s[open + 2..s.len() - 1]).to_owned()),
        ),
        _ => (s.to_owned(), None),
    }
}

impl Rewriter {
    fn line(&mut self, line: &str) {
        // lld / mold: `ld.lld: error: undefined symbol: SYM`, then `>>> ` lines.
        if let Some(block) = &mut self.lld_block {
            if let Some(rest) = line.strip_prefix(">>>") {
                let rest = rest.trim();
                if let Some(place) = rest.strip_prefix("referenced by ") {
                    block.refs.push(split_object_function(place.trim()));
                } else if let Some(last) = block.refs.last_mut() {
                    let (object, function) = split_object_function(rest);
                    if function.is_some() && last.1.is_none() {
                        last.1 = function;
                        if last.0.is_empty() {
                            last.0 = object;
                        }
                    }
                }
                return;
            }
            self.flush_lld();
        }
        if let Some(pos) = line.find("undefined symbol: ") {
            let sym = line[pos + "undefined symbol: ".len()..].trim();
            if gimso_symbol(sym).is_some() {
                self.lld_block = Some(LldBlock {
                    symbol: sym.to_owned(),
                    refs: Vec::new(),
                });
                return;
            }
        }

        let body = strip_tool_prefix(line);
        // GNU ld: `/usr/bin/ld: obj.o: in function `F':`.
        if body.trim_end().ends_with("':") {
            if let Some((_, function)) = quoted_after(body, "in function ") {
                self.function = Some(FunctionHeader {
                    line: line.to_owned(),
                    name: c_name(function).to_owned(),
                    printed: false,
                });
                return;
            }
        }
        // GNU ld / gold: `where: undefined reference to `SYM'`.
        if let Some((place, sym)) = quoted_after(body, "undefined reference to ") {
            if let Some((kind, name)) = gimso_symbol(sym) {
                let place = place.trim_end().trim_end_matches(':');
                let place = place.strip_suffix(": error").unwrap_or(place);
                let (place, function) = match &self.function {
                    Some(h) => (place.to_owned(), Some(h.name.clone())),
                    None => split_gold_place(place),
                };
                self.emit(kind, name, &place, function.as_deref());
                return;
            }
        }
        if let Some((_, sym)) = quoted_after(body, "more undefined references to ") {
            if gimso_symbol(sym).is_some() {
                return;
            }
        }
        // Anything else passes through, after the header it belongs to
        // (the compiler driver's own closing line belongs to none).
        let is_driver_line = line.starts_with("clang") || line.starts_with("collect2");
        match &mut self.function {
            Some(header) if !is_driver_line => {
                if !header.printed {
                    header.printed = true;
                    self.out.push(header.line.clone());
                }
            }
            _ => self.function = None,
        }
        self.out.push(line.to_owned());
    }

    fn flush_lld(&mut self) {
        if let Some(block) = self.lld_block.take() {
            let Some((kind, name)) = gimso_symbol(&block.symbol) else {
                return;
            };
            if block.refs.is_empty() {
                self.emit(kind, name, "", None);
            }
            for (place, function) in &block.refs {
                self.emit(kind, name, place, function.as_deref());
            }
        }
    }

    fn emit(&mut self, kind: &str, name: &str, place: &str, function: Option<&str>) {
        // gold names the function inside the place: show its C name.
        let place = place.replace(gimso_abi::SYMBOL_FN_PREFIX, "");
        let called = kind == "function";
        // A call site references both the entry and the function object;
        // places are counted by function when the linker names one.
        let key = function.map_or_else(|| place.clone(), str::to_owned);
        if let Some(m) = self.missing.iter_mut().find(|m| m.name == name) {
            m.called |= called;
            let first = m.function.clone().unwrap_or_else(|| m.place.clone());
            if key != first {
                m.others.insert(key);
            }
            return;
        }
        self.missing.push(Missing {
            name: name.to_owned(),
            called,
            line: self.out.len(),
            place,
            function: function.map(str::to_owned),
            others: Default::default(),
        });
        // Rendered in `finish`, once every reference is known.
        self.out.push(String::new());
    }

    fn finish(mut self) -> LinkReport {
        self.flush_lld();
        for m in &self.missing {
            self.out[m.line] = m.render();
        }
        if !self.missing.is_empty() {
            self.out.push(
                "gimso-cc: note: code compiled by gimso-cc can only call functions that are \
                 themselves compiled by gimso-cc or that the gimso runtime wraps; compile the \
                 library defining them with gimso-cc"
                    .to_owned(),
            );
        }
        let mut text = self.out.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        LinkReport {
            text,
            missing: self.missing.into_iter().map(|m| m.name).collect(),
        }
    }
}

// ---------------------------------------------------------------------------
// Panics
// ---------------------------------------------------------------------------

/// What the panic hook needs: the source being compiled and the temporary
/// directories to remove (the workspace builds with `panic = "abort"`, so
/// no destructor runs after a panic).
struct PanicState {
    source: Option<PathBuf>,
    temp_dirs: Vec<(PathBuf, bool)>,
}

static PANIC_STATE: std::sync::Mutex<PanicState> = std::sync::Mutex::new(PanicState {
    source: None,
    temp_dirs: Vec::new(),
});

fn with_panic_state(f: impl FnOnce(&mut PanicState)) {
    // `try_lock`: never block (or die) inside the panic hook.
    if let Ok(mut state) = PANIC_STATE.try_lock() {
        f(&mut state);
    }
}

/// Makes a panic anywhere in the process an internal compiler error: the
/// message names the source being compiled, the temporary directories are
/// removed (unless kept) and the process exits with [`EXIT_INTERNAL`]
/// instead of aborting. The binary installs it; [`run_pass`] also catches
/// panics itself where unwinding is enabled (tests).
pub fn install_panic_hook() {
    // SAFETY: installs a plain function; LLVM calls it with a valid
    // NUL-terminated reason before exiting.
    unsafe {
        inkwell::llvm_sys::error_handling::LLVMInstallFatalErrorHandler(Some(llvm_fatal_error))
    };
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        internal_exit(&format!("panic{place}: {}", panic_message(info.payload())));
    }));
}

/// LLVM's `report_fatal_error` (it exits afterwards): the same internal
/// compiler error as a panic.
extern "C" fn llvm_fatal_error(reason: *const std::ffi::c_char) {
    let reason = if reason.is_null() {
        "unknown".to_owned()
    } else {
        // SAFETY: LLVM passes a valid NUL-terminated string.
        unsafe { std::ffi::CStr::from_ptr(reason) }
            .to_string_lossy()
            .into_owned()
    };
    internal_exit(&format!("LLVM fatal error: {reason}"));
}

/// Reports an internal compiler error while compiling the current source,
/// removes the temporary directories and exits with [`EXIT_INTERNAL`].
fn internal_exit(what: &str) -> ! {
    let mut source = None;
    let mut dirs = Vec::new();
    with_panic_state(|state| {
        source = state.source.clone();
        dirs = std::mem::take(&mut state.temp_dirs);
    });
    let compiling = source
        .map(|s| format!("compiling {}: ", s.display()))
        .unwrap_or_default();
    eprintln!("{}", DriverError::Internal(format!("{compiling}{what}")));
    for (dir, keep) in dirs {
        if keep {
            eprintln!("gimso-cc: keeping temporary files in {}", dir.display());
        } else {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    std::process::exit(EXIT_INTERNAL);
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic payload".to_owned())
}

// ---------------------------------------------------------------------------
// Temporary files
// ---------------------------------------------------------------------------

/// A private (mode 0700) temporary directory, removed on drop unless kept.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
    keep: bool,
}

/// Name prefix of the temporary directories; kept ones (`GIMSO_KEEP_TEMPS`)
/// are `gimso-cc-keep-…` and never swept.
const TEMP_PREFIX: &str = "gimso-cc-";

/// Stale directories are swept only when older than this (a process in
/// another PID namespace sharing `$TMPDIR` may look dead).
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

impl TempDir {
    /// Creates `$TMPDIR/gimso-cc-<pid>-<n>` (`gimso-cc-keep-…` when kept),
    /// after removing the directories of earlier runs that died without
    /// cleaning up (killed, or stopped by an LLVM fatal error).
    pub fn new(keep: bool) -> io::Result<Self> {
        use std::os::unix::fs::DirBuilderExt;
        let base = std::env::temp_dir();
        let prefix = if keep { "gimso-cc-keep-" } else { TEMP_PREFIX };
        let pid = std::process::id();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let mut last = None;
        for attempt in 0..64u32 {
            let path = base.join(format!("{prefix}{pid}-{:08x}", nanos.wrapping_add(attempt)));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => {
                    with_panic_state(|state| state.temp_dirs.push((path.clone(), keep)));
                    sweep_stale(&base, &path);
                    return Ok(TempDir { path, keep });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no temporary directory name left")))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Removes `base/gimso-cc-<pid>-*` directories whose process is gone, that
/// belong to the same user as `ours` (just created) and are older than
/// [`STALE_AFTER`]. Best effort: every failure is ignored.
fn sweep_stale(base: &Path, ours: &Path) {
    use std::os::unix::fs::MetadataExt;
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(uid) = std::fs::metadata(ours).map(|m| m.uid()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(TEMP_PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().filter(|p| p.parse::<u32>().is_ok()) else {
            continue; // also skips `gimso-cc-keep-…`
        };
        if Path::new("/proc").join(pid).exists() {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > STALE_AFTER);
        if meta.is_dir() && meta.uid() == uid && old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        with_panic_state(|state| state.temp_dirs.retain(|(p, _)| *p != self.path));
        if self.keep {
            eprintln!(
                "gimso-cc: keeping temporary files in {}",
                self.path.display()
            );
        } else {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

// ---------------------------------------------------------------------------
// The driver
// ---------------------------------------------------------------------------

/// `gimso-cc <crate version> (gimso runtime ABI <n>, clang-16)`.
pub fn version_line() -> String {
    format!(
        "gimso-cc {} (gimso runtime ABI {}, clang-16)",
        env!("CARGO_PKG_VERSION"),
        gimso_abi::ABI_VERSION
    )
}

/// Runs `inv`. Output files are written, diagnostics and tool output go to
/// stderr; the error says what is left to print and the exit status.
pub fn run(inv: &Invocation, env: &Environment) -> Result<(), DriverError> {
    Driver { inv, env }.run()
}

struct Driver<'a> {
    inv: &'a Invocation,
    env: &'a Environment,
}

/// What one source is compiled to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Product {
    Object,
    Assembly,
    Ir(IrOutput),
}

impl Driver<'_> {
    fn run(&self) -> Result<(), DriverError> {
        let inv = self.inv;
        match inv.mode {
            Mode::Version => {
                let line = version_line();
                if inv.cxx {
                    println!("{}", line.replacen("gimso-cc", "gimso-c++", 1));
                } else {
                    println!("{line}");
                }
                if inv.verbose {
                    // Configure scripts read `cc -v`; show the clang under it.
                    let mut cmd = self.clang();
                    cmd.arg("--version");
                    return self.status(cmd);
                }
                Ok(())
            }
            Mode::Preprocess => self.preprocess(),
            _ if has_flag(&inv.compile_flags, &["-M", "-MM"]) => self.preprocess(),
            Mode::Compile | Mode::Assemble => self.compile_only(),
            Mode::Link => self.compile_and_link(),
        }
    }

    fn clang(&self) -> Command {
        let clang = if self.env.clang.is_empty() {
            OsStr::new(DEFAULT_CLANG)
        } else {
            self.env.clang.as_os_str()
        };
        Command::new(clang)
    }

    /// `-isystem` for [`SYSTEM_HEADERS`]: next to the runtime when it is
    /// found, else in the temporary directory.
    fn system_headers(&self) -> Result<[OsString; 2], DriverError> {
        let mut bases = Vec::new();
        if let Ok(runtime) = find_runtime(
            self.inv.gimso_libdir.as_deref(),
            self.env.exe.as_deref(),
            self.env.env_libdir.as_deref(),
        ) {
            bases.extend(runtime.parent().map(Path::to_path_buf));
        }
        bases.push(std::env::temp_dir());
        let dir = system_header_dir(&bases)?;
        Ok(["-isystem".into(), dir.into_os_string()])
    }

    fn opt_flag(&self) -> String {
        format!("-O{}", self.inv.opt_level)
    }

    /// `-E` (and `-M`/`-MM`): one clang run over every input.
    fn preprocess(&self) -> Result<(), DriverError> {
        let mut cmd = self.clang();
        if self.inv.mode == Mode::Preprocess {
            cmd.arg("-E");
        }
        cmd.arg(self.opt_flag())
            .args(&self.inv.compile_flags)
            .args(PREPROCESSOR_FLAGS)
            .args(self.system_headers()?);
        let count = self.inv.inputs.len();
        for (i, input) in self.inv.inputs.iter().enumerate() {
            match input {
                Input::C(path) => push_source(&mut cmd, path, i + 1 < count, self.inv.cxx),
                Input::Object(path) => {
                    cmd.arg(path);
                }
                Input::Library(name) => {
                    cmd.arg(format!("-l{name}"));
                }
            }
        }
        if let Some(out) = &self.inv.output {
            cmd.arg("-o").arg(out);
        }
        self.status(cmd)
    }

    fn product(&self) -> Product {
        match (self.inv.mode == Mode::Assemble, self.inv.emit_llvm) {
            (false, false) => Product::Object,
            (true, false) => Product::Assembly,
            (false, true) => Product::Ir(IrOutput::Bitcode),
            (true, true) => Product::Ir(IrOutput::Text),
        }
    }

    /// `-c` / `-S`: one output per source, next to the working directory
    /// unless `-o`.
    fn compile_only(&self) -> Result<(), DriverError> {
        let product = self.product();
        let ext = match product {
            Product::Object | Product::Ir(IrOutput::Object) => "o",
            Product::Assembly | Product::Ir(IrOutput::Assembly) => "s",
            Product::Ir(IrOutput::Bitcode) => "bc",
            Product::Ir(IrOutput::Text) => "ll",
        };
        for input in &self.inv.inputs {
            if let Input::Object(p) = input {
                eprintln!("gimso-cc: warning: {}: 'linker' input unused", p.display());
            }
        }
        let tmp = self.tempdir()?;
        let mut first_err = None;
        for (index, src) in self.sources().enumerate() {
            let out = match &self.inv.output {
                Some(o) => o.clone(),
                None => PathBuf::from(format!("{}.{ext}", stem(src))),
            };
            if let Err(e) = self.compile_source(&tmp, index, src, &out, product, &out) {
                print_error(&e);
                first_err.get_or_insert(e.exit_code());
            }
        }
        drop(tmp);
        first_err.map_or(Ok(()), |code| Err(DriverError::Reported { code }))
    }

    /// Default mode: compile each source to a temporary object, then link.
    fn compile_and_link(&self) -> Result<(), DriverError> {
        let inv = self.inv;
        let runtime = find_runtime(
            inv.gimso_libdir.as_deref(),
            self.env.exe.as_deref(),
            self.env.env_libdir.as_deref(),
        )
        .map_err(DriverError::RuntimeNotFound)?;
        let output = inv.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
        let tmp = self.tempdir()?;
        let mut first_err = None;
        let mut link_inputs: Vec<OsString> = Vec::new();
        let mut renames = Vec::new();
        let mut index = 0;
        for input in &inv.inputs {
            match input {
                Input::C(src) => {
                    let obj = tmp.path().join(format!("{index}-{}.o", stem(src)));
                    if let Err(e) =
                        self.compile_source(&tmp, index, src, &obj, Product::Object, &output)
                    {
                        print_error(&e);
                        first_err.get_or_insert(e.exit_code());
                    }
                    index += 1;
                    renames.push((
                        obj.to_string_lossy().into_owned(),
                        src.to_string_lossy().into_owned(),
                    ));
                    link_inputs.push(obj.into_os_string());
                }
                Input::Object(path) => link_inputs.push(path.clone().into_os_string()),
                Input::Library(name) => link_inputs.push(format!("-l{name}").into()),
            }
        }
        if let Some(code) = first_err {
            return Err(DriverError::Reported { code });
        }
        if inv.cxx {
            link_inputs.push(self.cxx_support(&tmp, &runtime)?.into_os_string());
        }
        let mut cmd = self.clang();
        cmd.args(&inv.link_flags);
        let user_linker: Vec<&String> = inv
            .compile_flags
            .iter()
            .chain(&inv.link_flags)
            .filter(|f| f.starts_with("-fuse-ld=") || f.starts_with("--ld-path="))
            .collect();
        if user_linker.is_empty() {
            if let Some(ld) = fast_linker() {
                cmd.arg(format!("--ld-path={}", ld.display()));
            }
        }
        cmd.args(
            inv.compile_flags
                .iter()
                .filter(|f| f.starts_with("-fuse-ld=") || f.starts_with("--ld-path=")),
        );
        cmd.args(&link_inputs)
            .arg(&runtime)
            .args(RUNTIME_DEPS)
            .arg("-o")
            .arg(&output);
        let result = self.link(cmd, &renames);
        drop(tmp);
        result
    }

    /// The object of `cxx/cxxabi.c` (the C++ ABI support, compiled by
    /// gimso-cc itself), cached next to the runtime archive when that
    /// directory is writable.
    fn cxx_support(&self, tmp: &TempDir, runtime: &Path) -> Result<PathBuf, DriverError> {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in CXXABI_C
            .bytes()
            .chain(GIMSO_H.bytes())
            .chain(version_line().bytes())
        {
            h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
        let name = format!("gimso-cxxabi-{h:016x}.o");
        let cached = runtime.with_file_name(&name);
        if cached.is_file() {
            return Ok(cached);
        }
        let io = |what: &str, error| DriverError::Io {
            what: what.to_owned(),
            error,
        };
        let src = tmp.path().join("gimso-cxxabi.c");
        std::fs::write(&src, CXXABI_C).map_err(|e| io("cannot write the C++ support source", e))?;
        std::fs::write(tmp.path().join("gimso.h"), GIMSO_H)
            .map_err(|e| io("cannot write gimso.h", e))?;
        let obj = tmp.path().join(&name);
        let exe = std::env::current_exe().map_err(|e| io("cannot find gimso-cc itself", e))?;
        let mut cmd = Command::new(exe);
        cmd.args(["-x", "c", "-O2", "-fexceptions", "-c"])
            .arg(&src)
            .arg("-o")
            .arg(&obj);
        if let Some(c) = self.env.clang.to_str().filter(|c| !c.is_empty()) {
            cmd.env("GIMSO_CLANG", c);
        }
        self.status(cmd)?;
        // Publish atomically; if the directory is read-only, use ours.
        let staged = runtime.with_file_name(format!("{name}.{}", std::process::id()));
        if std::fs::copy(&obj, &staged).is_ok() && std::fs::rename(&staged, &cached).is_ok() {
            return Ok(cached);
        }
        let _ = std::fs::remove_file(&staged);
        Ok(obj)
    }

    fn sources(&self) -> impl Iterator<Item = &PathBuf> {
        self.inv.inputs.iter().filter_map(|i| match i {
            Input::C(p) => Some(p),
            _ => None,
        })
    }

    fn tempdir(&self) -> Result<TempDir, DriverError> {
        let tmp = TempDir::new(self.env.keep_temps).map_err(|error| DriverError::Io {
            what: "cannot create a temporary directory".to_owned(),
            error,
        })?;
        if self.inv.verbose {
            eprintln!("gimso-cc: temporary directory {}", tmp.path().display());
        }
        Ok(tmp)
    }

    /// Front half, pass, back half for one source. `dep_target` is what a
    /// dependency file names as the target (the object, or the linked
    /// program as clang does).
    fn compile_source(
        &self,
        tmp: &TempDir,
        index: usize,
        src: &Path,
        out: &Path,
        product: Product,
        dep_target: &Path,
    ) -> Result<(), DriverError> {
        let inv = self.inv;
        let base = format!("{index}-{}", stem(src));
        let front_bc = tmp.path().join(format!("{base}.bc"));
        let user_debug = wants_debug(&inv.compile_flags);

        // 1. Front half.
        let mut cmd = self.clang();
        cmd.arg(self.opt_flag())
            .args(&inv.compile_flags)
            .args(FRONT_HALF_FLAGS)
            .args(PREPROCESSOR_FLAGS)
            .args(self.system_headers()?);
        if !user_debug {
            cmd.arg("-gline-tables-only");
        }
        cmd.args(dependency_defaults(&inv.compile_flags, dep_target));
        cmd.args(FRONT_HALF_NO_PASSES).arg("-emit-llvm").arg("-c");
        push_source(&mut cmd, src, false, inv.cxx);
        cmd.arg("-o").arg(&front_bc);
        self.status(cmd)?;

        // 2. The pass.
        let in_process = matches!(product, Product::Object | Product::Assembly)
            && in_process_back_half(&inv.compile_flags);
        let (pass_out, ir_kind) = match product {
            Product::Ir(kind) => (out.to_owned(), kind),
            Product::Object if in_process => (out.to_owned(), IrOutput::Object),
            Product::Assembly if in_process => (out.to_owned(), IrOutput::Assembly),
            _ => (tmp.path().join(format!("{base}.out.bc")), IrOutput::Bitcode),
        };
        if inv.verbose {
            eprintln!(
                "gimso-cc: pass: load {} → optimise (-O{}) → check → prepare → translate → \
                 verify → write {}",
                front_bc.display(),
                inv.opt_level,
                pass_out.display()
            );
        }
        run_pass(
            &front_bc,
            &pass_out,
            &PassOptions {
                source: src,
                cwd: self.env.cwd.as_deref(),
                strip_debug: !user_debug,
                opt_level: &inv.opt_level,
                output: ir_kind,
                verbose: inv.verbose,
                direct_calls: inv.direct_calls,
                exposed_provenance: inv.exposed_provenance,
                // Code for shared libraries keeps explicit null tests: the
                // fault handler reads the executable's fault map only.
                implicit_null_checks: !inv
                    .compile_flags
                    .iter()
                    .any(|f| matches!(f.as_str(), "-fPIC" | "-fpic")),
            },
        )?;

        // 3. Back half (done above when in process).
        if in_process {
            return Ok(());
        }
        let what = match product {
            Product::Ir(_) => return Ok(()),
            Product::Object => "-c",
            Product::Assembly => "-S",
        };
        let mut cmd = self.clang();
        cmd.arg(self.opt_flag())
            .args(back_half_user_flags(&inv.compile_flags))
            .args(BACK_HALF_FLAGS)
            .arg(what)
            .arg(&pass_out)
            .arg("-o")
            .arg(out);
        self.status(cmd).inspect_err(|e| {
            if matches!(e, DriverError::Tool { .. }) {
                // The input is gimso's own output: unless clang could not
                // write the output file, this is a gimso bug.
                eprintln!(
                    "gimso-cc: note: clang failed on the translated code of {}; unless the \
                     error is about the output file, this is a bug in gimso \
                     (GIMSO_KEEP_TEMPS=1 keeps the translated bitcode)",
                    src.display()
                );
            }
        })
    }

    fn show(&self, cmd: &Command) {
        if self.inv.verbose {
            eprintln!("{}", render_command(cmd));
        }
    }

    /// Runs `cmd` with inherited stdio; a failure carries its exit status.
    fn status(&self, mut cmd: Command) -> Result<(), DriverError> {
        self.show(&cmd);
        let program = cmd.get_program().to_string_lossy().into_owned();
        let status = cmd.status().map_err(|error| DriverError::Spawn {
            program: program.clone(),
            error,
        })?;
        if status.success() {
            Ok(())
        } else {
            Err(DriverError::Tool {
                program,
                code: exit_code_of(status),
            })
        }
    }

    /// Runs the link with stderr captured and rewritten.
    fn link(&self, mut cmd: Command, renames: &[(String, String)]) -> Result<(), DriverError> {
        self.show(&cmd);
        let program = cmd.get_program().to_string_lossy().into_owned();
        let out = cmd
            .stdin(Stdio::inherit())
            .stdout(Stdio::inherit())
            .stderr(Stdio::piped())
            .output()
            .map_err(|error| DriverError::Spawn { program, error })?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        let report = rewrite_link_errors(&stderr, renames);
        eprint!("{}", report.text);
        if out.status.success() {
            Ok(())
        } else {
            Err(DriverError::Link {
                code: exit_code_of(out.status),
            })
        }
    }
}

fn print_error(e: &DriverError) {
    if let Some(msg) = e.message() {
        eprintln!("{msg}");
    }
}

/// A process's exit status as a shell reports it (128 + signal).
fn exit_code_of(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .unwrap_or(1)
}

/// Adds a C source to a clang command, with `-x c` when its name would not
/// tell clang it is C (and `-x none` after it when `more` inputs follow).
fn push_source(cmd: &mut Command, src: &Path, more: bool, cxx: bool) {
    let ext = src.extension().and_then(OsStr::to_str);
    if cxx {
        cmd.args(["-x", "c++"]).arg(src);
        if more {
            cmd.args(["-x", "none"]);
        }
    } else if matches!(ext, Some("c" | "i")) {
        cmd.arg(src);
    } else {
        cmd.args(["-x", "c"]).arg(src);
        if more {
            cmd.args(["-x", "none"]);
        }
    }
}

/// The file name without directory and extension (`src/a.c` → `a`), as
/// clang names default outputs.
fn stem(src: &Path) -> String {
    src.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "stdin".to_owned())
}

fn has_flag(flags: &[String], names: &[&str]) -> bool {
    flags.iter().any(|f| names.contains(&f.as_str()))
}

/// Whether the user asked for debug info: the last of `-g`, `-g1`…,
/// `-ggdb…`, `-gdwarf…`, `-gline-…`, `-gfull` (on) and `-g0`, `-ggdb0`
/// (off). Modifiers such as `-gsplit-dwarf` or `-gz` do not count.
pub fn wants_debug(flags: &[String]) -> bool {
    let mut on = false;
    for f in flags {
        match f.as_str() {
            "-g0" | "-ggdb0" => on = false,
            "-g" | "-g1" | "-g2" | "-g3" | "-gfull" | "-gused" => on = true,
            f if f.starts_with("-ggdb") || f.starts_with("-gdwarf") || f.starts_with("-gline-") => {
                on = true
            }
            _ => {}
        }
    }
    on
}

/// The user's options that also concern code generation from bitcode:
/// every `-f…` (except `-flto…`, which would make the object bitcode
/// again), `-m…` and `-g…` option.
/// Whether the back half can run in process: none of the user's flags
/// changes code generation beyond what the module already records
/// (function attributes, PIC/PIE levels, debug info). Target options
/// (`-m…`), section layout, sanitizers, profiling or LTO send the
/// translated bitcode through clang instead.
pub fn in_process_back_half(flags: &[String]) -> bool {
    const RECORDED: &[&str] = &[
        "-fno-omit-frame-pointer",
        "-fomit-frame-pointer",
        "-fPIC",
        "-fpic",
        "-fPIE",
        "-fpie",
        "-fno-pic",
        "-fno-pie",
        "-fno-PIC",
        "-fno-PIE",
        "-fstrict-aliasing",
        "-fno-strict-aliasing",
        "-fwrapv",
        "-fno-wrapv",
        "-fcommon",
        "-fno-common",
        "-fsigned-char",
        "-funsigned-char",
        "-finline",
        "-fno-inline",
        "-funroll-loops",
        "-fno-unroll-loops",
        "-fno-delete-null-pointer-checks",
        "-fexceptions",
        "-fno-exceptions",
        "-funwind-tables",
        "-fasynchronous-unwind-tables",
        "-fcolor-diagnostics",
        "-fno-color-diagnostics",
    ];
    const RECORDED_PREFIXES: &[&str] = &[
        "-fno-builtin",
        "-fbuiltin",
        "-fdiagnostics-",
        "-fmessage-length",
        "-fvisibility",
        "-fstack-protector",
        "-fno-stack-protector",
        "-ftrivial-auto-var-init",
        "-fno-fast-math",
        "-fmacro-prefix-map",
        "-fdebug-prefix-map",
        "-ffile-prefix-map",
    ];
    back_half_user_flags(flags).iter().all(|f| {
        (f.starts_with("-g") && !f.starts_with("-gsplit-dwarf") && !f.starts_with("-gz"))
            || RECORDED.contains(&f.as_str())
            || RECORDED_PREFIXES.iter().any(|p| f.starts_with(p))
    })
}

pub fn back_half_user_flags(flags: &[String]) -> Vec<String> {
    flags
        .iter()
        .filter(|f| {
            (f.starts_with("-f") && !f.starts_with("-flto") && !f.starts_with("-fno-lto"))
                || f.starts_with("-m")
                || f.starts_with("-g")
        })
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

/// A command as a shell would read it (for `-v`).
pub fn render_command(cmd: &Command) -> String {
    std::iter::once(cmd.get_program())
        .chain(cmd.get_args())
        .map(|a| shell_quote(&a.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=,+:@%".contains(&b));
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
