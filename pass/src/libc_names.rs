//! The C library functions the runtime wraps (`libc_names.txt`, checked
//! against `libgimso.a`'s exports by `tests/abi_exports.rs`). Wrappers have
//! only the generic entry, so calls to them skip the direct-call thunk
//! ([`crate::translate`], `direct.rs`).

const LIST: &str = include_str!("libc_names.txt");

/// The wrapped names, sorted (comment lines skipped).
pub fn names() -> impl Iterator<Item = &'static str> {
    LIST.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Whether `name` is a C library function the runtime wraps.
pub fn is_libc(name: &str) -> bool {
    use std::sync::OnceLock;
    static SORTED: OnceLock<Vec<&'static str>> = OnceLock::new();
    let sorted = SORTED.get_or_init(|| {
        let mut v: Vec<&str> = names().collect();
        v.sort_unstable();
        v
    });
    sorted.binary_search(&name).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_common_wrappers_and_not_program_names() {
        for n in [
            "printf",
            "malloc",
            "memcmp",
            "strlen",
            "fopen",
            "pthread_create",
        ] {
            assert!(is_libc(n), "{n}");
        }
        for n in ["main", "luaH_get", "sqlite3_open", ""] {
            assert!(!is_libc(n), "{n}");
        }
    }
}
