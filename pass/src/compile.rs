//! The pass as one call: the stages a module of clang's goes through, in
//! order ([`STAGES`]), each named so the driver can say what it did.
//!
//! The module is verified once, after the translation: the translation
//! reads only what earlier stages make, and a module they broke fails that
//! verification (or the translation stops with an internal error). With
//! `GIMSO_VERIFY_EACH=1` every stage is followed by the verifier, which
//! names the first stage whose output LLVM rejects.

use inkwell::module::Module;

use crate::prepare::{PrepareStats, prepare};
use crate::reject::{Diagnostic, check_module};
use crate::translate::{TranslateOptions, TranslateStats, translate_module_with};

/// One stage of [`compile_module`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// `GIMSO_PERSONALITY`: the personality the module's C++ code uses
    /// ([`crate::personality`]).
    Personality,
    /// The promises stripped, pointer atomics restored, the `-O2` guards
    /// and kept locals placed, then LLVM's pipeline at the user's level
    /// ([`crate::optimize::front_half`]).
    Optimise,
    /// What the spec rejects, with source positions ([`check_module`]).
    Check,
    /// The rewrite the translation expects ([`prepare`]).
    Prepare,
    /// The translation to the gimso semantics
    /// ([`crate::translate::translate_module`]).
    Translate,
    /// LLVM's verifier over the translated module.
    Verify,
}

/// The stages, in the order [`compile_module`] runs them.
pub const STAGES: [Stage; 6] = [
    Stage::Personality,
    Stage::Optimise,
    Stage::Check,
    Stage::Prepare,
    Stage::Translate,
    Stage::Verify,
];

impl Stage {
    /// The stage's name in `-v` output and errors.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Personality => "personality",
            Stage::Optimise => "optimise",
            Stage::Check => "check",
            Stage::Prepare => "prepare",
            Stage::Translate => "translate",
            Stage::Verify => "verify",
        }
    }
}

/// What [`compile_module`] needs besides the module.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The `-O` level of the optimiser (`0`…`3`, `s`, `z`).
    pub opt_level: String,
    /// How the translation works.
    pub translate: TranslateOptions,
    /// Verify after every stage, not only at the end.
    pub verify_each: bool,
}

/// Why [`compile_module`] stopped.
#[derive(Debug)]
pub enum CompileError {
    /// The program uses what gimso refuses: one diagnostic each.
    Diagnostics(Vec<Diagnostic>),
    /// The pass failed (an internal compiler error), at `stage`.
    Internal { stage: Stage, message: String },
}

/// What the stages reported, for `-v`.
#[derive(Clone, Debug, Default)]
pub struct CompileStats {
    pub prepared: PrepareStats,
    pub translated: TranslateStats,
}

/// Runs [`STAGES`] over `module` in place, calling `after` once each stage
/// is done.
pub fn compile_module(
    module: &Module<'_>,
    opts: &CompileOptions,
    mut after: impl FnMut(Stage, &CompileStats),
) -> Result<CompileStats, CompileError> {
    let mut stats = CompileStats::default();
    for stage in STAGES {
        let internal = |message: String| CompileError::Internal { stage, message };
        match stage {
            Stage::Personality => {
                if let Err(message) = crate::personality::apply(module) {
                    return Err(CompileError::Diagnostics(vec![Diagnostic {
                        location: crate::location::Location::module(),
                        construct: "GIMSO_PERSONALITY".into(),
                        message,
                    }]));
                }
            }
            Stage::Optimise => crate::optimize::front_half(module, &opts.opt_level)
                .map_err(|e| internal(format!("the optimiser failed: {e}")))?,
            Stage::Check => {
                let rejected = check_module(module);
                if !rejected.is_empty() {
                    return Err(CompileError::Diagnostics(rejected));
                }
            }
            Stage::Prepare => stats.prepared = prepare(module),
            Stage::Translate => {
                stats.translated = match translate_module_with(module, &opts.translate) {
                    Ok(s) => s,
                    Err(diags) if diags.is_empty() => {
                        return Err(internal(
                            "the translation failed without a diagnostic".into(),
                        ));
                    }
                    Err(diags) => return Err(CompileError::Diagnostics(diags)),
                };
            }
            Stage::Verify => verify(module).map_err(internal)?,
        }
        if opts.verify_each && stage != Stage::Verify {
            verify(module).map_err(|e| internal(format!("after {}: {e}", stage.name())))?;
        }
        after(stage, &stats);
    }
    Ok(stats)
}

/// LLVM's verifier: the first function it rejects (or the module level)
/// and the first lines of its message.
pub fn verify(module: &Module<'_>) -> Result<(), String> {
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
    Err(format!(
        "fails LLVM verification {whom}:\n{}",
        lines.join("\n")
    ))
}
