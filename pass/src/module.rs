//! Loading LLVM IR (textual `.ll` or bitcode `.bc`) into an inkwell module.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;

/// Why a module could not be loaded.
#[derive(Debug)]
pub enum LoadError {
    /// The file could not be read.
    Io { path: PathBuf, source: io::Error },
    /// LLVM could not parse it (neither valid bitcode nor valid textual IR).
    Parse { name: String, message: String },
    /// It parsed, but the LLVM verifier rejects it. The pass only promises to
    /// handle valid IR, so this is reported rather than risked.
    Invalid { name: String, message: String },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, source } => {
                write!(f, "{}: error: cannot read: {source}", path.display())
            }
            LoadError::Parse { name, message } => {
                write!(f, "{name}: error: invalid LLVM IR: {}", message.trim_end())
            }
            LoadError::Invalid { name, message } => {
                write!(
                    f,
                    "{name}: error: LLVM IR fails verification: {}",
                    message.trim_end()
                )
            }
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Reads and parses `path` (bitcode or text; LLVM tells them apart by the
/// bitcode magic), then verifies the module.
///
/// The file is read with `std::fs` rather than `MemoryBuffer::create_from_file`,
/// which panics on non-UTF-8 paths.
pub fn load_module<'ctx>(ctx: &'ctx Context, path: &Path) -> Result<Module<'ctx>, LoadError> {
    let bytes = std::fs::read(path).map_err(|source| LoadError::Io {
        path: path.to_owned(),
        source,
    })?;
    parse_module(ctx, &bytes, &path.to_string_lossy())
}

/// Parses IR held in memory; `name` is used as the buffer name and in errors.
pub fn parse_module<'ctx>(
    ctx: &'ctx Context,
    bytes: &[u8],
    name: &str,
) -> Result<Module<'ctx>, LoadError> {
    // The copy is NUL-terminated, which LLVM's textual parser requires.
    let buffer = MemoryBuffer::create_from_memory_range_copy(bytes, name);
    let module = ctx
        .create_module_from_ir(buffer)
        .map_err(|e| LoadError::Parse {
            name: name.to_owned(),
            message: e.to_string(),
        })?;
    module.verify().map_err(|e| LoadError::Invalid {
        name: name.to_owned(),
        message: e.to_string(),
    })?;
    Ok(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_text() {
        let ctx = Context::create();
        let m = parse_module(&ctx, b"define i32 @f() {\n  ret i32 0\n}\n", "t.ll").unwrap();
        assert!(m.get_function("f").is_some());
    }

    #[test]
    fn reports_syntax_errors() {
        let ctx = Context::create();
        let err = parse_module(&ctx, b"define i32 @f( {", "bad.ll").unwrap_err();
        assert!(matches!(err, LoadError::Parse { .. }), "{err}");
        assert!(
            err.to_string()
                .starts_with("bad.ll: error: invalid LLVM IR"),
            "{err}"
        );
    }

    #[test]
    fn reports_verifier_errors() {
        let ctx = Context::create();
        // Parses fine, but only PHI nodes may use their own result.
        let src = b"define i32 @f(i32 %x) {\n  %y = add i32 %y, 1\n  ret i32 %x\n}\n";
        let err = parse_module(&ctx, src, "v.ll").unwrap_err();
        assert!(matches!(err, LoadError::Invalid { .. }), "{err}");
    }

    #[test]
    fn reports_missing_files() {
        let ctx = Context::create();
        let err = load_module(&ctx, Path::new("/nonexistent/x.ll")).unwrap_err();
        assert!(matches!(err, LoadError::Io { .. }), "{err}");
    }

    #[test]
    fn rejects_garbage_bitcode() {
        let ctx = Context::create();
        // Bitcode magic followed by junk.
        let err = parse_module(&ctx, b"BC\xc0\xde\x01\x02\x03", "junk.bc").unwrap_err();
        assert!(matches!(err, LoadError::Parse { .. }), "{err}");
    }
}
