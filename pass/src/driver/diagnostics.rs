//! Diagnostics printed clang-style.

use std::path::Path;

use crate::location::Scope;
use crate::reject::Diagnostic;

/// `d` as clang prints an error: `file.c:L:C: error: <message> (in function
/// `f`)`. The file is shown relative to `cwd` when it lies under it (the
/// debug info records it joined to the compilation directory); without a
/// source position the `source` the user named stands in for it.
pub fn render_diagnostic(d: &Diagnostic, source: &Path, cwd: Option<&Path>) -> String {
    let mut out = match &d.location.source {
        Some(loc) => {
            let mut loc = loc.clone();
            if let Some(rest) = cwd.and_then(|c| Path::new(&loc.file).strip_prefix(c).ok()) {
                loc.file = rest.to_string_lossy().into_owned();
            }
            loc.to_string()
        }
        None => source.display().to_string(),
    };
    out.push_str(": error: ");
    out.push_str(&d.message);
    match &d.location.scope {
        Scope::Module => {}
        Scope::Function(name) => out.push_str(&format!(" (in function `{name}`)")),
        Scope::Global(name) => out.push_str(&format!(" (in global `{name}`)")),
    }
    out
}
