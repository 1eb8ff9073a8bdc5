//! The memory-safe C library surface compiled programs call (docs/c-library.md).
//!
//! Every wrapper is defined with [`wrapper!`]: it exports the generic entry
//! `gimso.fn.NAME` and the function object `gimso.obj.NAME` that code
//! compiled by `gimso-cc` binds `NAME` to, reads its arguments from the CC
//! buffers, checks every pointer argument against its capability for
//! exactly the bytes it touches, and returns capabilities with returned
//! pointers.
//!
//! - [`object`]: static function/global/special objects and [`wrapper!`].
//! - [`cc`]: reading arguments and writing return values (ABI v1).
//! - [`call`]: calling compiled code from Rust (main, atexit, qsort).
//! - [`mem`]: checked reads, writes and C strings.
//! - [`report`]: the wrappers' own safety reports.
//! - [`start`]: `gimso_start_main`, `exit`, `atexit`, `abort`, `__assert_fail`.
//! - [`environ`]: `environ`, kept in step with libc's environment.
//! - [`format`]: the `printf` engine.
//! - [`stdio`]: the standard streams, `FILE` objects, the `printf`,
//!   `puts`, `fgets`/`getline`, file and `scanf` families.
//! - [`malloc`], [`string`], [`stdlib`], [`errno`], [`math`], [`ctype`], [`time`]:
//!   the rest of libc.
//! - [`calendar`]: `struct tm`, `strftime`; [`locale`]: `setlocale`,
//!   `localeconv`; [`getopt`]: GNU `getopt`/`getopt_long`; [`string_gnu`]:
//!   `strtok_r`, `strsep` and the other POSIX/GNU string functions.
//! - [`signal`]: handlers compiled by gimso-cc, run at safepoints.
//! - [`pthread`]: threads, mutexes, condition variables, rwlocks, once,
//!   thread-specific data, all registered with the collector.
//! - [`posix`]: file descriptors, the file system, directory streams,
//!   `mmap`, processes (`fork`, `exec*`, `wait*`), and the refused `dl*`.
//! - [`setjmp`]: `longjmp` and friends (the translation handles `setjmp`).
//! - [`xlocale`]: POSIX 2008 locale objects and the `_l` functions;
//!   [`wconv`]: whole-string wide conversions, wide number parsing,
//!   `long double` parsers, `swprintf`; [`catalog`]: message catalogs.
//! - [`unwind`]: the `_Unwind_*` functions, `__gcc_personality_v0` and the
//!   landing-pad entry points of translated `invoke`s.

pub mod calendar;
pub mod call;
pub mod catalog;
pub mod cc;
pub mod cpu_model;
pub mod ctype;
pub mod direct;
pub mod environ;
pub mod errno;
pub mod format;
pub mod getopt;
pub mod glob;
pub mod handles;
pub mod iconv;
pub mod libgen;
pub mod locale;
pub mod malloc;
pub mod math;
pub mod mem;
pub mod null_faults;
pub mod object;
pub mod posix;
pub mod pthread;
pub mod regex;
pub mod report;
pub mod setjmp;
pub mod signal;
pub mod start;
pub mod stdio;
pub mod stdlib;
pub mod string;
pub mod string_gnu;
pub mod time;
pub mod unwind;
pub mod wchar;
pub mod wconv;
pub mod wctype;
pub mod xlocale;
