//! `gimso-cc`'s command line: the clang/gcc options C builds use, sorted into
//! what the front half (preprocess and compile to IR), the back half
//! (compile the translated IR) and the linker need.
//!
//! Unknown options are an error naming them rather than being passed on
//! blindly: an option the driver does not understand might undo the
//! guarantees (sanitizers, other runtimes, `-fno-...` that re-enable UB
//! folding) or mean an output the pipeline cannot produce.

use std::fmt;
use std::path::PathBuf;

/// What the invocation produces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Compile and link an executable (no `-c`, `-S` or `-E`).
    Link,
    /// `-c`: object files.
    Compile,
    /// `-S`: assembly.
    Assemble,
    /// `-E`: preprocessed source (passed straight through to clang).
    Preprocess,
    /// `--version`.
    Version,
    /// A question build systems ask the compiler and nothing else
    /// (`-dumpversion`, `-dumpmachine`, `-print-…`, `-Wl,--version` alone):
    /// clang's answer, as the flags given.
    Query(Vec<String>),
}

/// Whether `arg` only asks the compiler a question (autoconf's and CMake's
/// probes, Makefiles reading `$(CC) -dumpversion`).
fn is_query(arg: &str) -> bool {
    matches!(arg, "-dumpversion" | "-dumpfullversion" | "-dumpmachine")
        || arg.starts_with("-print-")
        || arg.starts_with("--print-")
}

/// One input on the command line, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A C source file (`.c`, or anything after `-x c`).
    C(PathBuf),
    /// An object file or archive to link (`.o`, `.a`, `.so`).
    Object(PathBuf),
    /// `-lname`.
    Library(String),
}

/// A parsed `gimso-cc` command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    /// What to produce.
    pub mode: Mode,
    /// Inputs in command-line order.
    pub inputs: Vec<Input>,
    /// `-o`.
    pub output: Option<PathBuf>,
    /// The `-O` level: `0`, `1`, `2`, `3`, `s`, `z` (default `0`).
    pub opt_level: String,
    /// Options for the front half (preprocessing and compiling to IR):
    /// `-I`, `-D`, `-U`, `-include`, `-isystem`, `-std=`, `-W…`, safe `-f…`,
    /// `-g…`, dependency-file options.
    pub compile_flags: Vec<String>,
    /// Options for the link: `-L`, `-Wl,…`, `-pthread`, `-static`, `-rdynamic`.
    pub link_flags: Vec<String>,
    /// `-v`: print the commands and the in-process steps as they run.
    pub verbose: bool,
    /// Direct (register) entries between compiled functions (on;
    /// `-fno-gimso-direct-calls` turns them off).
    pub direct_calls: bool,
    /// `-fgimso-exposed-provenance`: integers converted back to pointers
    /// without a capability take that of the exposed object at their
    /// address (off by default; see `gimso_shadow::exposed`).
    pub exposed_provenance: bool,
    /// `-emit-llvm` (with `-c` or `-S`): write the translated IR (bitcode
    /// or text) instead of an object file or assembly.
    pub emit_llvm: bool,
    /// `--gimso-libdir=DIR`: where `libgimso.a` is (see
    /// [`crate::driver::toolchain::find_runtime`]).
    pub gimso_libdir: Option<PathBuf>,
    /// Sources are C++ (`gimso-c++`, or `-x c++`).
    pub cxx: bool,
}

/// A command line `gimso-cc` refuses, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgError(pub String);

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "gimso-cc: error: {}", self.0)
    }
}

impl std::error::Error for ArgError {}

/// Options that take their value as the next argument (or glued on).
const WITH_VALUE: &[&str] = &[
    "-I", "-D", "-U", "-L", "-l", "-o", "-x", "-include", "-isystem", "-MF", "-MT", "-MQ",
];

/// `-f` options that would undo gimso's guarantees or its pipeline.
const REFUSED_F: &[(&str, &str)] = &[
    (
        "-fsanitize",
        "gimso is itself the memory-safety runtime; it does not combine with sanitizers",
    ),
    (
        "-fdelete-null-pointer-checks",
        "it lets the optimiser delete the checks gimso must keep",
    ),
    (
        "-fprofile-instr-generate",
        "instrumented profiling runtimes are not supported",
    ),
    ("-fcoverage-mapping", "coverage runtimes are not supported"),
    ("-fxray", "XRay is not supported"),
];

/// Parses `args` (without the program name).
pub fn parse(args: &[String]) -> Result<Invocation, ArgError> {
    parse_as(args, false)
}

/// Parses a `gimso-c++` command line (`cxx`) or a `gimso-cc` one.
pub fn parse_as(args: &[String], cxx: bool) -> Result<Invocation, ArgError> {
    let mut inv = Invocation {
        mode: Mode::Link,
        inputs: Vec::new(),
        output: None,
        opt_level: "0".to_owned(),
        compile_flags: Vec::new(),
        link_flags: Vec::new(),
        verbose: false,
        direct_calls: true,
        exposed_provenance: false,
        emit_llvm: false,
        gimso_libdir: None,
        cxx,
    };
    let mut language: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if !arg.starts_with('-') || arg == "-" {
            inv.inputs
                .push(classify_input(arg, language.as_deref(), inv.cxx)?);
            continue;
        }
        // Options with a value, glued (`-Ifoo`) or separate (`-I foo`).
        if let Some(flag) = WITH_VALUE.iter().find(|f| arg.starts_with(**f)) {
            let value = if arg.len() > flag.len() {
                arg[flag.len()..].to_owned()
            } else {
                let v = args
                    .get(i)
                    .ok_or_else(|| ArgError(format!("missing value after '{flag}'")))?;
                i += 1;
                v.clone()
            };
            match *flag {
                "-o" => inv.output = Some(PathBuf::from(value)),
                "-l" => inv.inputs.push(Input::Library(value)),
                "-L" => inv.link_flags.push(format!("-L{value}")),
                "-x" => {
                    match value.as_str() {
                        "none" => {}
                        "c" => inv.cxx = false,
                        "c++" => inv.cxx = true,
                        _ => {
                            return Err(ArgError(format!(
                                "language '{value}' is not supported by gimso (C and C++ only)"
                            )));
                        }
                    }
                    language = (value != "none").then_some(value);
                }
                "-include" | "-isystem" | "-MF" | "-MT" | "-MQ" => {
                    inv.compile_flags.push(flag.to_string());
                    inv.compile_flags.push(value);
                }
                _ => inv.compile_flags.push(format!("{flag}{value}")),
            }
            continue;
        }
        match arg.as_str() {
            "-c" => inv.mode = Mode::Compile,
            "-S" => inv.mode = Mode::Assemble,
            "-E" => inv.mode = Mode::Preprocess,
            "--version" => inv.mode = Mode::Version,
            a if is_query(a) => match &mut inv.mode {
                Mode::Query(q) => q.push(a.to_owned()),
                _ => inv.mode = Mode::Query(vec![a.to_owned()]),
            },
            "-v" => inv.verbose = true,
            "-fgimso-direct-calls" => inv.direct_calls = true,
            "-fno-gimso-direct-calls" => inv.direct_calls = false,
            "-fgimso-exposed-provenance" => inv.exposed_provenance = true,
            "-fno-gimso-exposed-provenance" => inv.exposed_provenance = false,
            "-emit-llvm" => inv.emit_llvm = true,
            "--gimso-libdir" => {
                let v = args
                    .get(i)
                    .ok_or_else(|| ArgError("missing value after '--gimso-libdir'".to_owned()))?;
                i += 1;
                inv.gimso_libdir = Some(PathBuf::from(v));
            }
            a if a.starts_with("--gimso-libdir=") => {
                inv.gimso_libdir = Some(PathBuf::from(&a["--gimso-libdir=".len()..]));
            }
            "-pthread" => {
                inv.compile_flags.push(arg.clone());
                inv.link_flags.push(arg.clone());
            }
            "-static" | "-rdynamic" | "-shared" => inv.link_flags.push(arg.clone()),
            "-MD" | "-MMD" | "-MP" | "-M" | "-MM" | "-w" | "-pedantic" | "-pedantic-errors"
            | "-ansi" => inv.compile_flags.push(arg.clone()),
            a if a.starts_with("-O") => {
                let level = &a[2..];
                inv.opt_level = match level {
                    "" => "1".to_owned(),
                    "0" | "1" | "2" | "3" | "s" | "z" => level.to_owned(),
                    "fast" => "3".to_owned(),
                    other => {
                        return Err(ArgError(format!("unknown optimisation level '-O{other}'")));
                    }
                };
            }
            a if a.starts_with("-Wl,") => inv.link_flags.push(a.to_owned()),
            a if a.starts_with("-W") || a.starts_with("-std=") || a.starts_with("-g") => {
                inv.compile_flags.push(a.to_owned())
            }
            a if a.starts_with("-f") => {
                if let Some((_, why)) = REFUSED_F.iter().find(|(p, _)| a.starts_with(p)) {
                    return Err(ArgError(format!("option '{a}' is not supported: {why}")));
                }
                inv.compile_flags.push(a.to_owned());
            }
            a if a.starts_with("-m") => inv.compile_flags.push(a.to_owned()),
            other => return Err(ArgError(format!("unsupported option '{other}'"))),
        }
    }
    if matches!(inv.mode, Mode::Query(_)) {
        return Ok(inv);
    }
    if inv.mode != Mode::Version && inv.inputs.is_empty() {
        // `cc -v` alone prints the version (configure scripts probe it).
        if inv.verbose {
            inv.mode = Mode::Version;
            return Ok(inv);
        }
        // `cc -Wl,--version` alone: the linker's version (CMake and
        // libtool ask which linker is underneath).
        let linker_version = ["-Wl,--version", "-Wl,-v", "-Wl,-V"];
        if inv
            .link_flags
            .iter()
            .any(|f| linker_version.contains(&f.as_str()))
        {
            inv.mode = Mode::Query(inv.link_flags.clone());
            return Ok(inv);
        }
        return Err(ArgError("no input files".to_owned()));
    }
    if inv.emit_llvm && inv.mode == Mode::Link {
        return Err(ArgError(
            "'-emit-llvm' cannot be used when linking (add -c or -S)".to_owned(),
        ));
    }
    if inv.output.is_some()
        && matches!(inv.mode, Mode::Compile | Mode::Assemble)
        && inv
            .inputs
            .iter()
            .filter(|i| matches!(i, Input::C(_)))
            .count()
            > 1
    {
        return Err(ArgError(
            "cannot specify '-o' with '-c' or '-S' and several source files".to_owned(),
        ));
    }
    Ok(inv)
}

fn classify_input(arg: &str, language: Option<&str>, cxx: bool) -> Result<Input, ArgError> {
    let path = PathBuf::from(arg);
    if matches!(language, Some("c" | "c++")) {
        return Ok(Input::C(path));
    }
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    match ext {
        "c" | "i" => Ok(Input::C(path)),
        "cc" | "cpp" | "cxx" | "C" | "c++" | "cp" | "CPP" | "ii" if cxx => Ok(Input::C(path)),
        "o" | "a" | "so" => Ok(Input::Object(path)),
        "cc" | "cpp" | "cxx" | "C" => Err(ArgError(format!(
            "'{arg}': C++ sources are compiled with gimso-c++, not gimso-cc"
        ))),
        "s" | "S" => Err(ArgError(format!(
            "'{arg}': assembly sources cannot be made memory safe"
        ))),
        _ => Err(ArgError(format!(
            "'{arg}': unrecognised input file type (use -x c for C)"
        ))),
    }
}
