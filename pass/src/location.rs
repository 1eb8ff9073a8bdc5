//! Source locations for diagnostics, read from `!dbg` metadata.
//!
//! inkwell has no debug-location accessors, so this goes through the LLVM C
//! API (`LLVMGetDebugLoc*`). Every function here is total: IR without debug
//! info yields a location that names only the enclosing function or global.

use std::fmt;

use inkwell::llvm_sys::core::{
    LLVMGetDebugLocColumn, LLVMGetDebugLocDirectory, LLVMGetDebugLocFilename, LLVMGetDebugLocLine,
    LLVMGetValueName2, LLVMIsAGlobalVariable, LLVMIsAInstruction,
};
use inkwell::llvm_sys::debuginfo::{LLVMGetSubprogram, LLVMInstructionGetDebugLoc};
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::values::{AsValueRef, FunctionValue, GlobalValue, InstructionValue};

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
    pub fn of_instruction(inst: InstructionValue<'_>) -> Self {
        let function = inst.get_parent().and_then(|bb| bb.get_parent());
        let Some(function) = function else {
            // A detached instruction: cannot happen for instructions reached by
            // walking a module, but stay total.
            return Self::module();
        };
        let raw = inst.as_value_ref();
        // SAFETY: `raw` is a live instruction of a module the caller borrows.
        let has_loc = unsafe { !LLVMInstructionGetDebugLoc(raw).is_null() };
        let source = if has_loc {
            // SAFETY: `raw` is an instruction, the kind these accessors accept.
            unsafe { debug_loc(raw) }
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

    /// The instruction's own `!dbg` position, if it has one (no fallback).
    pub fn own_source(inst: InstructionValue<'_>) -> Option<SourceLocation> {
        let raw = inst.as_value_ref();
        // SAFETY: `raw` is a live instruction of a module the caller borrows.
        let has_loc = unsafe { !LLVMInstructionGetDebugLoc(raw).is_null() };
        // SAFETY: `raw` is an instruction, the kind `debug_loc` accepts.
        has_loc.then(|| unsafe { debug_loc(raw) }).flatten()
    }

    /// The function's `DISubprogram` (file and line of its definition), if any.
    pub fn of_function(function: FunctionValue<'_>) -> Self {
        let raw = function.as_value_ref();
        // SAFETY: `raw` is a live function.
        let has_sp = unsafe { !LLVMGetSubprogram(raw).is_null() };
        let source = if has_sp {
            // SAFETY: `raw` is a function, a kind these accessors accept.
            unsafe { debug_loc(raw) }
        } else {
            None
        };
        Location {
            source,
            scope: function_scope(function),
        }
    }

    /// A global variable's `DIGlobalVariable` position, if any.
    pub fn of_global(global: GlobalValue<'_>) -> Self {
        let raw = global.as_value_ref();
        // SAFETY: `raw` is a live global value; only global variables are
        // passed on to the accessors (they reject aliases and ifuncs).
        let source = unsafe {
            if LLVMIsAGlobalVariable(raw).is_null() {
                None
            } else {
                debug_loc(raw)
            }
        };
        // SAFETY: `raw` is a live value.
        let name = unsafe { value_name(raw) };
        Location {
            source,
            scope: Scope::Global(name),
        }
    }
}

fn function_scope(function: FunctionValue<'_>) -> Scope {
    Scope::Function(function.get_name().to_string_lossy().into_owned())
}

/// The name of a value (empty for unnamed values).
///
/// # Safety
/// `value` must be a live LLVM value.
pub(crate) unsafe fn value_name(value: LLVMValueRef) -> String {
    let mut len = 0usize;
    // SAFETY: caller guarantees `value` is live; LLVM returns a pointer to
    // `len` bytes owned by the value (or null).
    unsafe { lossy(LLVMGetValueName2(value, &mut len), len) }
}

/// Reads file, directory, line and column through the C API.
///
/// # Safety
/// `value` must be a live instruction, function or global variable (the
/// accessors assert on other kinds in debug builds of LLVM).
unsafe fn debug_loc(value: LLVMValueRef) -> Option<SourceLocation> {
    // SAFETY: caller guarantees the kind; each accessor returns a borrowed
    // (pointer, length) pair or null, copied out immediately.
    unsafe {
        let mut len = 0u32;
        let file = lossy(LLVMGetDebugLocFilename(value, &mut len), len as usize);
        let mut len = 0u32;
        let dir = lossy(LLVMGetDebugLocDirectory(value, &mut len), len as usize);
        let line = LLVMGetDebugLocLine(value);
        let is_instruction = !LLVMIsAInstruction(value).is_null();
        // Only instructions carry a column; the C API returns 0 otherwise.
        let column = if is_instruction {
            LLVMGetDebugLocColumn(value)
        } else {
            0
        };
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
}

/// `dir/file` when `file` is relative and a directory is known.
fn join_dir(dir: &str, file: &str) -> String {
    if dir.is_empty() || file.starts_with('/') {
        file.to_owned()
    } else {
        format!("{}/{}", dir.trim_end_matches('/'), file)
    }
}

/// Copies a borrowed, not necessarily NUL-terminated C string.
///
/// # Safety
/// `ptr` is null or points to `len` readable bytes.
unsafe fn lossy(ptr: *const std::ffi::c_char, len: usize) -> String {
    if ptr.is_null() || len == 0 {
        return String::new();
    }
    // SAFETY: caller guarantees `len` readable bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    String::from_utf8_lossy(bytes).into_owned()
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
