//! The collector's switches, read once from the environment.
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `GIMSO_GC_THRESHOLD` | allocation floor between cycles (bytes, `K`/`M`/`G` suffixes) | 8M |
//! | `GIMSO_GC_MULTIPLIER` | next trigger = live × (multiplier − 1), at least the floor | 1.75 |
//! | `GIMSO_GC_STW=1` | collect with every thread stopped (debugging barrier bugs) | off |
//! | `GIMSO_GC_TORTURE=N` | collect synchronously every N allocations of a thread | off |
//! | `GIMSO_GC_VERIFY=1` | after marking, stop the world and check every reachable object is marked | off |
//! | `GIMSO_GC_TRACE=1` | one line per cycle on stderr | off |
//! | `GIMSO_GC_MARKERS=N` | marking threads (including the collector) | cores, at most 4 |
//! | `GIMSO_HEAP_MAX` | heap limit (bytes, suffixes); exceeding it after a collection is fatal | none |

use std::sync::OnceLock;

use gimso_abi::FATAL_REPORT_PREFIX;

/// The parsed switches.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Minimum allocation volume between two cycles.
    pub threshold: usize,
    /// Heap growth factor.
    pub multiplier: f64,
    /// Stop-the-world debugging mode.
    pub stw: bool,
    /// Collect every N allocations per thread (0 = off).
    pub torture: u64,
    /// Verify marking against a stop-the-world re-trace.
    pub verify: bool,
    /// Print one line per cycle.
    pub trace: bool,
    /// Marking threads.
    pub markers: usize,
    /// Heap limit in bytes (0 = none).
    pub heap_max: usize,
}

/// The configuration, read from the environment on first use.
pub fn config() -> &'static Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            // 8 MiB: with a small live set, a 1 MiB floor ran a cycle every
            // ~2 ms in Lua's gc_heavy.lua, and each cycle's handshakes,
            // barrier slow paths and cache flushes cost the program 5-7%
            // of its time (same peak RSS within noise); 4 MiB still ran
            // 555 cycles at scale 8, 7% slower than 8 MiB (2.52-2.59 s
            // against 2.38-2.40 s) for 2-3 MiB less peak RSS (of 30).
            threshold: size_var("GIMSO_GC_THRESHOLD")
                .unwrap_or(8 << 20)
                .max(64 << 10),
            multiplier: float_var("GIMSO_GC_MULTIPLIER").unwrap_or(1.75).max(1.1),
            stw: flag_var("GIMSO_GC_STW"),
            torture: size_var("GIMSO_GC_TORTURE").unwrap_or(0) as u64,
            verify: flag_var("GIMSO_GC_VERIFY"),
            trace: flag_var("GIMSO_GC_TRACE"),
            markers: size_var("GIMSO_GC_MARKERS")
                .unwrap_or(cores.min(4))
                .clamp(1, 64),
            heap_max: size_var("GIMSO_HEAP_MAX").unwrap_or(0),
        }
    })
}

fn bad(name: &str, value: &str, want: &str) -> ! {
    eprintln!("{FATAL_REPORT_PREFIX} bad value {value:?} for {name}: expected {want}");
    // SAFETY: _exit never returns and is always safe to call.
    unsafe { libc::_exit(134) }
}

fn flag_var(name: &str) -> bool {
    match std::env::var(name) {
        Err(_) => false,
        Ok(v) => match v.trim() {
            "" | "0" | "false" | "no" | "off" => false,
            "1" | "true" | "yes" | "on" => true,
            other => bad(name, other, "0 or 1"),
        },
    }
}

/// Parses `123`, `64K`, `16M`, `2G` (binary units).
pub fn parse_size(v: &str) -> Option<usize> {
    let v = v.trim();
    let (digits, shift) = match v.as_bytes().last()? {
        b'k' | b'K' => (&v[..v.len() - 1], 10),
        b'm' | b'M' => (&v[..v.len() - 1], 20),
        b'g' | b'G' => (&v[..v.len() - 1], 30),
        _ => (v, 0),
    };
    digits
        .trim()
        .parse::<usize>()
        .ok()?
        .checked_mul(1usize << shift)
}

fn size_var(name: &str) -> Option<usize> {
    let v = std::env::var(name).ok()?;
    if v.trim().is_empty() {
        return None;
    }
    Some(parse_size(&v).unwrap_or_else(|| bad(name, &v, "a size such as 4096, 64K, 16M or 2G")))
}

fn float_var(name: &str) -> Option<f64> {
    let v = std::env::var(name).ok()?;
    Some(
        v.trim()
            .parse()
            .unwrap_or_else(|_| bad(name, &v, "a number such as 1.5")),
    )
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_with_binary_units() {
        assert_eq!(parse_size("4096"), Some(4096));
        assert_eq!(parse_size(" 64K "), Some(64 << 10));
        assert_eq!(parse_size("16m"), Some(16 << 20));
        assert_eq!(parse_size("2G"), Some(2 << 30));
        assert_eq!(parse_size("0"), Some(0));
    }

    #[test]
    fn bad_sizes_are_refused() {
        for bad in ["", "K", "1.5M", "-1", "12T", "1 2", "99999999999999999999G"] {
            assert_eq!(parse_size(bad), None, "{bad:?}");
        }
    }
}
