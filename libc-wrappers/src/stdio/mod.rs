//! `<stdio.h>`: the standard streams, `FILE` objects, and the output,
//! input, file and `scanf` families.
//!
//! All I/O goes through libc's own streams, so buffering, ordering and
//! stream positions are those of a normal C program; the exit path
//! flushes them. No pointer of the program is ever handed to libc: data
//! moves through Rust buffers and every byte of the program's memory that
//! a function reads or writes is checked against its capability.
//!
//! - [`streams`]: `stdin`/`stdout`/`stderr` and the `FILE` objects.
//! - [`output`]: the `printf` family, `puts`, `fputs`, `fwrite`, …
//! - [`input`]: `fgetc`, `fgets`, `fread`, `getline`, …
//! - [`files`]: opening, closing, positioning and buffering streams,
//!   `popen`, `tmpfile`, `remove`, `rename`.
//! - [`scan`]: the `scanf` engine; [`scanf`]: the `scanf` family.

pub mod files;
pub mod input;
pub mod output;
pub mod scan;
pub mod scanf;
pub mod streams;

pub use files::*;
pub use input::*;
pub use output::*;
pub use scanf::*;
pub use streams::*;
