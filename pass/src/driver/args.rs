//! `gimso-cc`'s command line: the clang/gcc options C builds use, sorted into
//! what the front half (preprocess and compile to IR), the back half
//! (compile the translated IR) and the linker need.
//!
//! What each option is (refused, a mode, a setting, or which half gets
//! it) is [`super::flag_table`]'s; this module applies it in order.

use std::fmt;
use std::path::PathBuf;

use super::flag_table::{Disposition, Flag, Form, Forward, Produce, Setting, lookup};

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
        let flag = lookup(arg).ok_or_else(|| ArgError(format!("unsupported option '{arg}'")))?;
        let value = match flag.form {
            Form::Exact => None,
            Form::Prefix => Some(arg[flag.name.len()..].to_owned()),
            Form::Value(_) if arg.len() > flag.name.len() => {
                Some(arg[flag.name.len()..].to_owned())
            }
            Form::Value(_) | Form::NextValue => {
                let v = args
                    .get(i)
                    .ok_or_else(|| ArgError(format!("missing value after '{}'", flag.name)))?;
                i += 1;
                Some(v.clone())
            }
        };
        apply(&mut inv, &mut language, flag, arg, value)?;
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
        if inv
            .link_flags
            .iter()
            .any(|f| lookup(f).is_some_and(|e| e.disposition == Disposition::LinkerVersion))
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

/// Does what `flag` (given as `arg`, with `value` when it takes one) says.
fn apply(
    inv: &mut Invocation,
    language: &mut Option<String>,
    flag: &Flag,
    arg: &str,
    given: Option<String>,
) -> Result<(), ArgError> {
    let value = || given.clone().unwrap_or_default();
    // How the option reaches clang: as given, or rebuilt from its value.
    let forwarded = || match flag.form {
        Form::Value(Forward::Glued) => vec![format!("{}{}", flag.name, value())],
        Form::Value(Forward::Split) => vec![flag.name.to_owned(), value()],
        _ => vec![arg.to_owned()],
    };
    match flag.disposition {
        Disposition::Produce(p) => {
            inv.mode = match p {
                Produce::Compile => Mode::Compile,
                Produce::Assemble => Mode::Assemble,
                Produce::Preprocess => Mode::Preprocess,
                Produce::Version => Mode::Version,
            }
        }
        Disposition::Query => match &mut inv.mode {
            Mode::Query(q) => q.push(arg.to_owned()),
            _ => inv.mode = Mode::Query(vec![arg.to_owned()]),
        },
        Disposition::Setting(s) => match s {
            Setting::Verbose => inv.verbose = true,
            Setting::DirectCalls(on) => inv.direct_calls = on,
            Setting::ExposedProvenance(on) => inv.exposed_provenance = on,
            Setting::EmitLlvm => inv.emit_llvm = true,
        },
        Disposition::RuntimeDir => inv.gimso_libdir = Some(PathBuf::from(value())),
        Disposition::Output => inv.output = Some(PathBuf::from(value())),
        Disposition::Library => inv.inputs.push(Input::Library(value())),
        Disposition::Language => {
            let value = value();
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
            *language = (value != "none").then_some(value);
        }
        Disposition::OptLevel => {
            let level = value();
            inv.opt_level = match level.as_str() {
                "" => "1".to_owned(),
                "0" | "1" | "2" | "3" | "s" | "z" => level,
                "fast" => "3".to_owned(),
                other => {
                    return Err(ArgError(format!("unknown optimisation level '-O{other}'")));
                }
            };
        }
        Disposition::Refused(why) => {
            return Err(ArgError(format!("option '{arg}' is not supported: {why}")));
        }
        Disposition::Link | Disposition::LinkerVersion => inv.link_flags.extend(forwarded()),
        Disposition::FrontAndLink => {
            inv.compile_flags.extend(forwarded());
            inv.link_flags.extend(forwarded());
        }
        Disposition::Front(_)
        | Disposition::Debug(_)
        | Disposition::SharedCode
        | Disposition::DependenciesOnly
        | Disposition::ChoosesLinker => inv.compile_flags.extend(forwarded()),
    }
    Ok(())
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
