//! Finding the tools and files a compile needs: clang, the runtime
//! archive, a fast linker, the headers written on first use, the C++
//! standard library.

use std::fmt;
use std::path::{Path, PathBuf};

use super::errors::*;

/// The C compiler the driver runs (override with `$GIMSO_CLANG`).
pub const DEFAULT_CLANG: &str = "clang-16";

/// The runtime archive linked into every program.
pub const RUNTIME_LIB: &str = "libgimso.a";

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

/// The directory, next to the runtime archive, holding the C++ standard
/// library gimso-c++ compiles and links against: LLVM's libc++ and
/// libc++abi compiled by gimso-c++ (`scripts/build-libcxx.sh` writes it).
pub const CXX_LIBRARY_DIR: &str = "gimso-libcxx";

/// Libraries a C++ link names that gimso's own libc++ stands for: the
/// system's builds of them are not compiled by gimso.
pub const CXX_LIBRARY_NAMES: &[&str] = &["stdc++", "c++", "c++abi", "supc++"];

/// The C++ standard library: its headers and its two archives.
#[derive(Clone, Debug)]
pub struct CxxLibrary {
    /// `include/c++/v1`, put before the C library's headers.
    pub include: PathBuf,
    /// `libc++.a`, then `libc++abi.a`.
    pub archives: [PathBuf; 2],
    /// `libc++experimental.a`: linked under `-fexperimental-library`, as
    /// clang links it (`<format>`'s error type, experimental resources).
    pub experimental: PathBuf,
}

/// The C++ library next to `runtime` (the path of `libgimso.a`), if it has
/// been built completely (its `STAMP` is written last).
pub fn find_cxx_library(runtime: &Path) -> Result<CxxLibrary, DriverError> {
    let dir = runtime
        .parent()
        .unwrap_or_else(|| Path::new("."))
        .join(CXX_LIBRARY_DIR);
    let lib = CxxLibrary {
        include: dir.join("include/c++/v1"),
        archives: [dir.join("lib/libc++.a"), dir.join("lib/libc++abi.a")],
        experimental: dir.join("lib/libc++experimental.a"),
    };
    let complete = dir.join("STAMP").is_file()
        && lib.include.join("__config_site").is_file()
        && lib.archives.iter().all(|a| a.is_file())
        && lib.experimental.is_file();
    if complete {
        Ok(lib)
    } else {
        Err(DriverError::CxxLibraryMissing(dir))
    }
}

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
pub(super) fn fast_linker() -> Option<&'static Path> {
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
