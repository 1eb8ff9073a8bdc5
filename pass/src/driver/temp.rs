//! The driver's temporary directory, removed on exit; stale ones of
//! killed runs swept.

use std::io;
use std::path::{Path, PathBuf};

use super::panics::*;

/// A private (mode 0700) temporary directory, removed on drop unless kept.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
    keep: bool,
}

/// Name prefix of the temporary directories; kept ones (`GIMSO_KEEP_TEMPS`)
/// are `gimso-cc-keep-…` and never swept.
const TEMP_PREFIX: &str = "gimso-cc-";

/// Stale directories are swept only when older than this (a process in
/// another PID namespace sharing `$TMPDIR` may look dead).
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

impl TempDir {
    /// Creates `$TMPDIR/gimso-cc-<pid>-<n>` (`gimso-cc-keep-…` when kept),
    /// after removing the directories of earlier runs that died without
    /// cleaning up (killed, or stopped by an LLVM fatal error).
    pub fn new(keep: bool) -> io::Result<Self> {
        use std::os::unix::fs::DirBuilderExt;
        let base = std::env::temp_dir();
        let prefix = if keep { "gimso-cc-keep-" } else { TEMP_PREFIX };
        let pid = std::process::id();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let mut last = None;
        for attempt in 0..64u32 {
            let path = base.join(format!("{prefix}{pid}-{:08x}", nanos.wrapping_add(attempt)));
            match std::fs::DirBuilder::new().mode(0o700).create(&path) {
                Ok(()) => {
                    with_panic_state(|state| state.temp_dirs.push((path.clone(), keep)));
                    sweep_stale(&base, &path);
                    return Ok(TempDir { path, keep });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => return Err(e),
            }
        }
        Err(last.unwrap_or_else(|| io::Error::other("no temporary directory name left")))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Removes `base/gimso-cc-<pid>-*` directories whose process is gone, that
/// belong to the same user as `ours` (just created) and are older than
/// [`STALE_AFTER`]. Best effort: every failure is ignored.
fn sweep_stale(base: &Path, ours: &Path) {
    use std::os::unix::fs::MetadataExt;
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(uid) = std::fs::metadata(ours).map(|m| m.uid()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(TEMP_PREFIX)) else {
            continue;
        };
        let Some(pid) = rest.split('-').next().filter(|p| p.parse::<u32>().is_ok()) else {
            continue; // also skips `gimso-cc-keep-…`
        };
        if Path::new("/proc").join(pid).exists() {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age > STALE_AFTER);
        if meta.is_dir() && meta.uid() == uid && old {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        with_panic_state(|state| state.temp_dirs.retain(|(p, _)| *p != self.path));
        if self.keep {
            eprintln!(
                "gimso-cc: keeping temporary files in {}",
                self.path.display()
            );
        } else {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}
