//! The pass, in process: load, optimise, check, prepare, translate,
//! verify, write.

use std::io;
use std::path::Path;

use inkwell::context::Context;
use inkwell::module::Module;

use super::{diagnostics::*, errors::*, panics::*};
use crate::compile::{CompileError, CompileOptions, CompileStats, Stage, compile_module};
use crate::translate::TranslateOptions;
use crate::{LoadError, load_module};

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
    let options = CompileOptions {
        opt_level: opts.opt_level.to_owned(),
        translate: TranslateOptions {
            direct_calls: opts.direct_calls,
            exposed_provenance: opts.exposed_provenance,
            implicit_null_checks: opts.implicit_null_checks && opts.output == IrOutput::Object,
        },
        verify_each: std::env::var_os("GIMSO_VERIFY_EACH").is_some_and(|v| v != "0"),
    };
    let verbose = |stage: Stage, stats: &CompileStats| {
        if !opts.verbose {
            return;
        }
        let what = match stage {
            Stage::Optimise => format!("optimised (-O{})", opts.opt_level),
            Stage::Prepare => format!("prepared ({:?})", stats.prepared),
            Stage::Translate => format!("translated ({:?})", stats.translated),
            other => format!("{} done", other.name()),
        };
        eprintln!("gimso-cc: pass: {}: {what}", input.display());
    };
    match compile_module(&module, &options, verbose) {
        Ok(_) => {}
        Err(CompileError::Diagnostics(diags)) => {
            for d in &diags {
                eprintln!("{}", render_diagnostic(d, opts.source, opts.cwd));
            }
            let err = DriverError::Diagnostics { count: diags.len() };
            eprintln!("{err}");
            return Err(err);
        }
        Err(CompileError::Internal { stage, message }) => {
            let source = opts.source.display();
            return Err(DriverError::Internal(match stage {
                Stage::Verify => format!("the translation of {source} {message}"),
                _ => format!("{source}, at {}: {message}", stage.name()),
            }));
        }
    }
    if opts.strip_debug {
        module.strip_debug_info();
    }
    write_module(&module, output, opts.output, opts.opt_level)?;
    if opts.verbose {
        eprintln!(
            "gimso-cc: pass: {}: wrote {}",
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
    crate::compile::verify(module).map_err(|message| {
        DriverError::Internal(format!("the translation of {} {message}", source.display()))
    })
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
