//! Collector benchmarks (a plain bench binary: each measurement needs its
//! own process, because the `GIMSO_GC_*` switches are read once):
//!
//! - handshake pauses (p50 / p99 / max) seen by 4 mutator threads that
//!   allocate and mutate pointers while ≥ 64 MiB stays live;
//! - marking throughput (live MiB per second of marking) with 1 and 2
//!   marker threads.
//!
//! `cargo bench -p gimso-benches --bench gc`; figures go to BENCHMARKS.md.

use std::hint::black_box;
use std::process::Command;
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use gimso::capi::*;
use gimso_abi::FlightPtr;

const NODE: usize = 256;

/// Builds `bytes` of live data: an array of nodes, each pointing at the
/// next, reachable from the returned holder.
fn build_live(bytes: usize) -> FlightPtr {
    let n = bytes / (NODE + 16);
    let holder = gimso_alloc(n * 8);
    let mut prev = FlightPtr::NULL;
    for i in 0..n {
        let node = gimso_alloc(NODE);
        // SAFETY: runtime-issued capabilities.
        unsafe {
            gimso_store_ptr(node, prev);
            gimso_store_ptr(node.offset(8), holder);
            gimso_store_ptr(holder.offset(8 * i as isize), node);
        }
        prev = node;
    }
    holder
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn pauses() {
    let holder = black_box(build_live(64 << 20));
    gimso_gc_collect();
    gimso::gc::handshake::record_pauses(true);
    let stop = AtomicBool::new(false);
    let start_line = Barrier::new(5);
    let cycles_before = gimso_gc_cycles();
    let stalls_before = gimso::gc::collector::stalls();
    let served_before = gimso::gc::handshake::served();
    let t0 = Instant::now();
    std::thread::scope(|s| {
        for k in 0..4 {
            let (stop, start_line) = (&stop, &start_line);
            s.spawn(move || {
                let mut slots = gimso_alloc(64 * 8);
                start_line.wait();
                let mut i = 0usize;
                while !stop.load(Ordering::Relaxed) {
                    gimso_pollcheck();
                    let o = gimso_alloc(32 + (i % 8) * 32);
                    // SAFETY: runtime-issued capabilities.
                    unsafe { gimso_store_ptr(slots.offset(8 * (i % 64) as isize), o) };
                    if i % 100_000 == 0 {
                        slots = gimso_alloc(64 * 8);
                    }
                    i += 1 + k;
                }
            });
        }
        gimso_exit();
        start_line.wait();
        std::thread::sleep(Duration::from_secs(4));
        stop.store(true, Ordering::Relaxed);
    });
    gimso_enter();
    let elapsed = t0.elapsed();
    let cycles = gimso_gc_cycles() - cycles_before;
    let mut p = gimso::gc::handshake::record_pauses(false);
    p.sort();
    let live = gimso::gc::last_cycle().map_or(0, |c| c.live_bytes);
    let stalls = gimso::gc::collector::stalls();
    let (n_stalls, stall_time) = (stalls.0 - stalls_before.0, stalls.1 - stalls_before.1);
    println!(
        "pauses: {} handshake callbacks over {cycles} cycles in {:.1} s, live {} MiB: p50 {:.1} us, p99 {:.1} us, max {:.1} us",
        p.len(),
        elapsed.as_secs_f64(),
        live >> 20,
        percentile(&p, 0.5).as_secs_f64() * 1e6,
        percentile(&p, 0.99).as_secs_f64() * 1e6,
        p.last().copied().unwrap_or_default().as_secs_f64() * 1e6,
    );
    let served = gimso::gc::handshake::served();
    let (own, behalf) = (served.0 - served_before.0, served.1 - served_before.1);
    println!(
        "handshakes: {own} callbacks run by the threads themselves, {behalf} on behalf of exited threads"
    );
    println!(
        "pacing: {n_stalls} waits for a collection, {:.1} ms in total ({:.1}% of mutator time)",
        stall_time.as_secs_f64() * 1e3,
        100.0 * stall_time.as_secs_f64() / (4.0 * elapsed.as_secs_f64())
    );
    black_box(holder);
}

fn marking() {
    let holder = black_box(build_live(128 << 20));
    let mut best = f64::MAX;
    let mut live = 0;
    for _ in 0..5 {
        gimso_gc_collect();
        let c = gimso::gc::last_cycle().expect("a cycle ran");
        best = best.min(c.mark.as_secs_f64());
        live = c.live_bytes;
    }
    println!(
        "marking: markers {} live {} MiB, best mark time {:.1} ms, throughput {:.0} MiB/s",
        gimso::gc::config::config().markers,
        live >> 20,
        best * 1e3,
        (live as f64 / (1 << 20) as f64) / best
    );
    black_box(holder);
}

fn main() {
    match std::env::var("GIMSO_BENCH_CHILD").as_deref() {
        Ok("pauses") => return pauses(),
        Ok("marking") => return marking(),
        _ => {}
    }
    // `cargo bench` passes --bench; a filter argument may follow.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let want = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let exe = std::env::current_exe().unwrap();
    let run = |what: &str, env: &[(&str, &str)]| {
        let out = Command::new(&exe)
            .env("GIMSO_BENCH_CHILD", what)
            .envs(env.iter().copied())
            .output()
            .expect("spawn benchmark child");
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
            panic!("benchmark {what} {env:?} failed");
        }
    };
    if want("pauses") {
        run("pauses", &[]);
    }
    if want("marking") {
        run(
            "marking",
            &[("GIMSO_GC_MARKERS", "1"), ("GIMSO_GC_THRESHOLD", "4G")],
        );
        run(
            "marking",
            &[("GIMSO_GC_MARKERS", "2"), ("GIMSO_GC_THRESHOLD", "4G")],
        );
    }
}
