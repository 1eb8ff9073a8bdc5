//! Running a parsed `gimso-cc` command line (docs/gimso-cc.md, "The pipeline").
//!
//! For each C source:
//!
//! 1. **Front half** (a `clang-16` process): `clang-16 -O<n> <user flags>
//!    <UB-keeping flags> -Xclang -disable-llvm-passes -Xclang
//!    -disable-O0-optnone -emit-llvm -c src -o N-src.bc`: clang's front end
//!    at the user's level (`__OPTIMIZE__`, inline definitions, no blanket
//!    `noinline`), but none of LLVM's passes. [`FRONT_HALF_FLAGS`] keep the
//!    front end from licensing UB-based deletions.
//! 2. **The pass** (in process, [`super::pass_step`]): [`load_module`](crate::load_module) →
//!    [`crate::optimize::front_half`] (the promises stripped, pointer
//!    atomics restored, then LLVM's `default<On>` pipeline: optimising
//!    before the pass, so allocas are promoted, TOOLCHAIN-NOTES "Pipeline
//!    order") → [`check_module`](crate::reject::check_module) → [`prepare`](crate::prepare::prepare)
//!    → [`translate_module`](crate::translate::translate_module) → LLVM
//!    verifier → bitcode. Diagnostics are printed clang-style
//!    (`file.c:L:C: error: …`) and give exit status 1; a module the verifier
//!    rejects, an optimiser failure, or a panic in the pass is an internal
//!    compiler error (exit status 70).
//! 3. **Back half**: the translated module optimised again and compiled to
//!    machine code, in process unless a user flag changes code generation
//!    ([`in_process_back_half`]), else
//!    by a `clang-16 -O<n> -c N-src.out.bc -o src.o` (or `-S`) process.
//!
//! Then, unless `-c`, `-S` or `-E`, the link: `clang-16 <objects>
//! libgimso.a -lpthread -ldl -lm -o a.out`, with undefined `gimso.fn.NAME`
//! / `gimso.obj.NAME` symbols reported as missing gimso wrappers
//! ([`rewrite_link_errors`]).
//!
//! Every error is a value ([`DriverError`]); clang's own errors go to
//! stderr unchanged and its exit status becomes `gimso-cc`'s.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::flag_table::{Disposition, front_has};
use super::{
    environment::*, errors::*, flags::*, link_errors::*, pass_step::*, temp::*, toolchain::*,
};
use crate::driver::args::{Input, Invocation, Mode};

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
        match &inv.mode {
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
            Mode::Query(flags) => {
                let mut cmd = self.clang();
                cmd.args(flags);
                // The linker a link would use answers `-Wl,--version`.
                self.choose_linker(&mut cmd);
                self.status(cmd)
            }
            Mode::Preprocess => self.preprocess(),
            _ if inv
                .compile_flags
                .iter()
                .any(|f| front_has(f, Disposition::DependenciesOnly)) =>
            {
                self.preprocess()
            }
            Mode::Compile | Mode::Assemble => self.compile_only(),
            Mode::Link => self.compile_and_link(),
        }
    }

    /// The user's `-fuse-ld=`/`--ld-path=`, or else the fastest linker
    /// installed ([`fast_linker`]).
    fn choose_linker(&self, cmd: &mut Command) {
        let inv = self.inv;
        let chosen =
            |f: &&String| front_has(f, Disposition::ChoosesLinker) || f.starts_with(LD_PATH);
        if !inv
            .compile_flags
            .iter()
            .chain(&inv.link_flags)
            .any(|f| chosen(&f))
        {
            if let Some(ld) = fast_linker() {
                cmd.arg(format!("{LD_PATH}{}", ld.display()));
            }
        }
        cmd.args(inv.compile_flags.iter().filter(chosen));
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

    /// For C++: `-nostdinc++ -isystem <libc++ headers>`, unless the command
    /// line chose its own standard headers (`-nostdinc++`, `-nostdinc`).
    fn cxx_headers(&self) -> Result<Vec<OsString>, DriverError> {
        let own = |f: &String| f == "-nostdinc++" || f == "-nostdinc";
        if !self.inv.cxx || self.inv.compile_flags.iter().any(own) {
            return Ok(Vec::new());
        }
        let lib = find_cxx_library(&self.runtime()?)?;
        Ok(vec![
            "-nostdinc++".into(),
            "-isystem".into(),
            lib.include.into_os_string(),
        ])
    }

    fn runtime(&self) -> Result<PathBuf, DriverError> {
        find_runtime(
            self.inv.gimso_libdir.as_deref(),
            self.env.exe.as_deref(),
            self.env.env_libdir.as_deref(),
        )
        .map_err(DriverError::RuntimeNotFound)
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
            .args(self.cxx_headers()?)
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
        let runtime = self.runtime()?;
        let output = inv.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
        let tmp = self.tempdir()?;
        let mut first_err = None;
        let mut link_inputs: Vec<OsString> = Vec::new();
        let mut renames = Vec::new();
        let mut index = 0;
        let mut wants_cxx = inv.cxx;
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
                // gimso's own libc++ stands for the system's C++ libraries.
                Input::Library(name) if CXX_LIBRARY_NAMES.contains(&name.as_str()) => {
                    wants_cxx = true;
                }
                Input::Library(name) => link_inputs.push(format!("-l{name}").into()),
            }
        }
        if let Some(code) = first_err {
            return Err(DriverError::Reported { code });
        }
        if wants_cxx {
            let lib = find_cxx_library(&runtime)?;
            link_inputs.push("-Wl,--start-group".into());
            let experimental = |f: &String| f == "-fexperimental-library";
            if inv
                .compile_flags
                .iter()
                .chain(&inv.link_flags)
                .any(experimental)
            {
                link_inputs.push(lib.experimental.into_os_string());
            }
            link_inputs.extend(lib.archives.map(PathBuf::into_os_string));
            link_inputs.push("-Wl,--end-group".into());
        }
        let mut cmd = self.clang();
        cmd.args(&inv.link_flags);
        self.choose_linker(&mut cmd);
        cmd.args(&link_inputs)
            .arg(&runtime)
            .args(RUNTIME_DEPS)
            .arg("-o")
            .arg(&output);
        let result = self.link(cmd, &renames);
        drop(tmp);
        result
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
            .args(self.cxx_headers()?)
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
            let stages: Vec<String> = crate::compile::STAGES
                .iter()
                .map(|&s| match s {
                    crate::compile::Stage::Optimise => format!("optimise (-O{})", inv.opt_level),
                    other => other.name().to_owned(),
                })
                .collect();
            eprintln!(
                "gimso-cc: pass: load {} → {} → write {}",
                front_bc.display(),
                stages.join(" → "),
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
                    .any(|f| front_has(f, Disposition::SharedCode)),
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
