//! Source locations for diagnostics, read from `!dbg` metadata.
//!
//! The positions come from [`Value::source_position`]. Every function here
//! is total: IR without debug info yields a location that names only the
//! enclosing function or global.

use std::fmt;

use crate::llvm::{Func, Value};

/// A position in a source file, as recorded by the front end (`clang -g`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceLocation {
    /// File name, joined to the compilation directory when it is relative.
    pub file: String,
    /// 1-based line; 0 when unknown.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub column: u32,
}

impl fmt::Display for SourceLocation {
    /// `file:line:col`, dropping the parts that are unknown (clang's style).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line != 0 {
            write!(f, ":{}", self.line)?;
            if self.column != 0 {
                write!(f, ":{}", self.column)?;
            }
        }
        Ok(())
    }
}

/// The IR entity a diagnostic belongs to, named even without debug info.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Module-level (e.g. `module asm`, aliases).
    Module,
    /// Inside, or the signature of, the named function.
    Function(String),
    /// The named global variable.
    Global(String),
}

/// Where a problem is: a source position if debug info has one, and a scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub source: Option<SourceLocation>,
    pub scope: Scope,
}

impl Location {
    /// A module-level location (no source position, no scope).
    pub fn module() -> Self {
        Location {
            source: None,
            scope: Scope::Module,
        }
    }

    /// The instruction's own `!dbg` location; if it has none (or line 0, which
    /// marks compiler-generated code), the enclosing function's `DISubprogram`.
    /// Anything but an instruction in a function is module-level.
    pub fn of_instruction(inst: Value<'_>) -> Self {
        let function = inst
            .is_instruction()
            .then(|| inst.parent_block())
            .flatten()
            .and_then(|bb| bb.parent());
        let Some(function) = function else {
            // A detached instruction: cannot happen for instructions reached by
            // walking a module, but stay total.
            return Self::module();
        };
        let source = if inst.debug_loc().is_some() {
            debug_loc(inst)
        } else {
            None
        };
        match source {
            Some(source) => Location {
                source: Some(source),
                scope: function_scope(function),
            },
            None => Self::of_function(function),
        }
    }

    /// Where the instruction's code was inlined, innermost call site first
    /// (empty when it was not inlined or has no debug location): a check
    /// inside an inlined library function (`std::vector::operator[]`) is
    /// reported at the library's line and, through these, the program's.
    pub fn inlined_at(inst: Value<'_>) -> Vec<SourceLocation> {
        let mut chain = Vec::new();
        let mut at = inst
            .is_instruction()
            .then(|| inst.debug_loc())
            .flatten()
            .filter(|m| m.is_location())
            .and_then(|m| m.inlined_at());
        while let Some(loc) = at.filter(|m| m.is_location()) {
            let (line, column) = loc.line_col();
            let (dir, file) = loc.scope().map(|s| s.scope_file()).unwrap_or_default();
            if !file.is_empty() {
                chain.push(SourceLocation {
                    file: join_dir(&dir, &file),
                    line,
                    column,
                });
            }
            at = loc.inlined_at();
        }
        chain
    }

    /// The instruction's own `!dbg` position, if it has one (no fallback;
    /// `None` for a value that is not an instruction).
    pub fn own_source(inst: Value<'_>) -> Option<SourceLocation> {
        (inst.is_instruction() && inst.debug_loc().is_some())
            .then(|| debug_loc(inst))
            .flatten()
    }

    /// The function's `DISubprogram` (file and line of its definition), if any.
    pub fn of_function(function: Func<'_>) -> Self {
        let source = if function.subprogram().is_some() {
            debug_loc(function.as_value())
        } else {
            None
        };
        Location {
            source,
            scope: function_scope(function),
        }
    }

    /// A global variable's `DIGlobalVariable` position, if any.
    pub fn of_global(global: Value<'_>) -> Self {
        // Only global variables reach the accessors (they reject aliases
        // and ifuncs).
        let source = if global.is_global_variable() {
            debug_loc(global)
        } else {
            None
        };
        Location {
            source,
            scope: Scope::Global(global.name()),
        }
    }
}

fn function_scope(function: Func<'_>) -> Scope {
    Scope::Function(function.name())
}

/// Reads file, directory, line and column of an instruction, function or
/// global variable.
fn debug_loc(value: Value<'_>) -> Option<SourceLocation> {
    let (file, dir, line, column) = value.source_position();
    let is_instruction = value.is_instruction();
    // Only instructions carry a column.
    let column = if is_instruction { column } else { 0 };
    // Line 0 on an instruction marks compiler-generated code: the caller
    // falls back to the function's own position instead.
    if file.is_empty() || (is_instruction && line == 0) {
        return None;
    }
    Some(SourceLocation {
        file: join_dir(&dir, &file),
        line,
        column,
    })
}

/// `dir/file` when `file` is relative and a directory is known.
fn join_dir(dir: &str, file: &str) -> String {
    if dir.is_empty() || file.starts_with('/') {
        file.to_owned()
    } else {
        format!("{}/{}", dir.trim_end_matches('/'), file)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_relative_paths_only() {
        assert_eq!(join_dir("/src", "a.c"), "/src/a.c");
        assert_eq!(join_dir("/src/", "a.c"), "/src/a.c");
        assert_eq!(join_dir("/src", "/abs/a.c"), "/abs/a.c");
        assert_eq!(join_dir("", "a.c"), "a.c");
    }

    #[test]
    fn display_drops_unknown_parts() {
        let loc = |line, column| SourceLocation {
            file: "a.c".into(),
            line,
            column,
        };
        assert_eq!(loc(3, 7).to_string(), "a.c:3:7");
        assert_eq!(loc(3, 0).to_string(), "a.c:3");
        assert_eq!(loc(0, 0).to_string(), "a.c");
    }
}
