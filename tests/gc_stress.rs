//! Collector stress: 4 threads build and mutate random object graphs
//! through the runtime's pointer store/load API (plain operations on
//! thread-private root arrays, atomic ones on nodes, which are shared
//! between threads) while the collector runs
//! many cycles; after every cycle each thread re-verifies the checksum of
//! every node it can reach. Run in child processes under the default
//! settings, GIMSO_GC_TORTURE, GIMSO_GC_STW=1 and GIMSO_GC_VERIFY=1.

use std::collections::HashSet;
use std::process::Command;

use gimso::capi::*;
use gimso_abi::{ACCESS_READ, ACCESS_WRITE, FlightPtr};

const THREADS: usize = 4;
const ROOTS: usize = 64;
const SHARED: usize = 16;
/// Node payload: id, checksum, child 0, child 1, payload words.
const NODE_WORDS: usize = 6;

fn checksum(id: u64) -> u64 {
    id.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0xdead_beef_cafe_f00d
}

fn word(p: FlightPtr, i: usize) -> FlightPtr {
    p.offset(8 * i as isize)
}

fn read(p: FlightPtr) -> u64 {
    // SAFETY: capabilities come from the runtime; the check guards the read.
    unsafe { gimso_check_access(p, 8, ACCESS_READ) };
    // SAFETY: just checked.
    unsafe { (p.intval() as *const u64).read() }
}

fn write(p: FlightPtr, v: u64) {
    // SAFETY: as in `read`.
    unsafe { gimso_check_access(p, 8, ACCESS_WRITE) };
    // SAFETY: just checked.
    unsafe { (p.intval() as *mut u64).write(v) }
}

fn load(p: FlightPtr) -> FlightPtr {
    // SAFETY: runtime-issued capabilities.
    unsafe { gimso_load_ptr(p) }
}

fn store(p: FlightPtr, v: FlightPtr) {
    // SAFETY: runtime-issued capabilities.
    unsafe { gimso_store_ptr(p, v) }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Node children: nodes travel between threads through the shared object,
/// so their child slots are accessed atomically (racing plain pointer
/// accesses may tear, which GIMSO makes trap: correct, but not this test).
fn load_child(n: FlightPtr, c: usize) -> FlightPtr {
    // SAFETY: runtime-issued capability.
    unsafe { gimso_atomic_load_ptr(word(n, 2 + c)) }
}

fn store_child(n: FlightPtr, c: usize, v: FlightPtr) {
    // SAFETY: runtime-issued capabilities.
    unsafe { gimso_atomic_store_ptr(word(n, 2 + c), v) }
}

fn new_node(id: u64) -> FlightPtr {
    // One node in 128 is a large object (its own mapping).
    let extra = if id % 128 == 5 { 12 << 10 } else { 0 };
    let n = gimso_alloc(NODE_WORDS * 8 + extra);
    write(word(n, 0), id);
    write(word(n, 1), checksum(id));
    write(word(n, 4), id ^ 0x5555);
    n
}

/// Walks everything reachable from `roots`, checking every node.
fn verify(roots: FlightPtr, shared: FlightPtr) -> usize {
    let mut seen = HashSet::new();
    let mut stack: Vec<FlightPtr> = (0..ROOTS).map(|i| load(word(roots, i))).collect();
    // SAFETY: runtime-issued capability.
    stack.extend((0..SHARED).map(|i| unsafe { gimso_atomic_load_ptr(word(shared, i)) }));
    while let Some(n) = stack.pop() {
        if n.intval() == 0 || !seen.insert(n.lower()) {
            continue;
        }
        let id = read(word(n, 0));
        assert_eq!(read(word(n, 1)), checksum(id), "node {id} corrupted");
        assert_eq!(read(word(n, 4)), id ^ 0x5555, "node {id} payload corrupted");
        stack.push(load_child(n, 0));
        stack.push(load_child(n, 1));
        assert!(seen.len() < 1_000_000, "graph grew without bound");
    }
    seen.len()
}

fn mutator(k: usize, shared: FlightPtr, iters: usize) -> (u64, usize) {
    let roots = gimso_alloc(ROOTS * 8);
    let mut rng = Rng(0x1234_5678_9abc_def1 ^ ((k as u64 + 1) * 0x1000_0001));
    let mut next_id = (k as u64) << 40;
    let mut last_cycle = gimso_gc_cycles();
    let mut verified = 0;
    for _ in 0..iters {
        gimso_pollcheck();
        match rng.below(10) {
            // A small tree replaces a root: its old tree becomes garbage.
            0..=3 => {
                let n = new_node(next_id);
                next_id += 1;
                for c in 0..2 {
                    if rng.below(2) == 0 {
                        let leaf = new_node(next_id);
                        next_id += 1;
                        store_child(n, c, leaf);
                    }
                }
                store(word(roots, rng.below(ROOTS)), n);
            }
            // Cross-link two roots (or cut a link).
            4..=5 => {
                let a = load(word(roots, rng.below(ROOTS)));
                if a.intval() != 0 {
                    let b = if rng.below(3) == 0 {
                        FlightPtr::NULL
                    } else {
                        load(word(roots, rng.below(ROOTS)))
                    };
                    store_child(a, rng.below(2), b);
                }
            }
            // Publish to / take from the shared object (cross-thread edges).
            // Atomic pointer operations: plain ones racing on one slot may
            // tear, which GIMSO turns into a trap, not a bug to test here.
            6 => {
                let p = load(word(roots, rng.below(ROOTS)));
                // SAFETY: runtime-issued capabilities.
                unsafe { gimso_atomic_store_ptr(word(shared, rng.below(SHARED)), p) };
            }
            7 => {
                // SAFETY: runtime-issued capability.
                let p = unsafe { gimso_atomic_load_ptr(word(shared, rng.below(SHARED))) };
                store(word(roots, rng.below(ROOTS)), p);
            }
            // Garbage.
            _ => {
                let g = gimso_alloc(8 + rng.below(200));
                write(g, 1);
            }
        }
        let c = gimso_gc_cycles();
        if c != last_cycle {
            last_cycle = c;
            verify(roots, shared);
            verified += 1;
        }
    }
    verify(roots, shared);
    (last_cycle, verified + 1)
}

/// The stress body, run in a child process.
fn run_stress() {
    let iters: usize = std::env::var("STRESS_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400_000);
    let shared = gimso_alloc(SHARED * 8);
    // SAFETY: runtime-issued capability.
    unsafe { gimso_register_global(shared) };
    let results: Vec<(u64, usize)> = std::thread::scope(|s| {
        let nthreads: usize = std::env::var("STRESS_THREADS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(THREADS);
        let hs: Vec<_> = (0..nthreads)
            .map(|k| s.spawn(move || mutator(k, shared, iters)))
            .collect();
        // The main thread is attached but waits: it must not hold up cycles.
        gimso_exit();
        let r = hs.into_iter().map(|h| h.join().unwrap()).collect();
        gimso_enter();
        r
    });
    let verified: usize = results.iter().map(|r| r.1).sum();
    println!(
        "STRESS-DONE cycles {} verifications {verified}",
        gimso_gc_cycles()
    );
}

#[test]
fn stress_child() {
    if std::env::var("GIMSO_STRESS_CHILD").is_ok() {
        run_stress();
    }
}

fn run_mode(env: &[(&str, &str)], min_cycles: u64) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "stress_child", "--nocapture", "--test-threads=1"])
        .env("GIMSO_STRESS_CHILD", "1")
        .env("GIMSO_GC_THRESHOLD", "256K")
        .envs(env.iter().copied())
        .output()
        .expect("spawn stress child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "mode {env:?} failed ({:?}):\n{stderr}\n{stdout}",
        out.status
    );
    let line = stdout
        .lines()
        .find_map(|l| l.find("STRESS-DONE").map(|i| &l[i..]))
        .unwrap_or_else(|| panic!("no stress summary in:\n{stdout}\n{stderr}"));
    let cycles: u64 = line.split_whitespace().nth(2).unwrap().parse().unwrap();
    let verified: usize = line.split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(cycles >= min_cycles, "mode {env:?}: only {cycles} cycles");
    assert!(
        verified as u64 >= min_cycles,
        "mode {env:?}: only {verified} verifications"
    );
    eprintln!("mode {env:?}: {line}");
}

#[test]
fn stress_concurrent() {
    run_mode(&[], 20);
}

#[test]
fn stress_torture() {
    run_mode(
        &[("GIMSO_GC_TORTURE", "1000"), ("STRESS_ITERS", "100000")],
        20,
    );
}

#[test]
fn stress_stop_the_world() {
    run_mode(&[("GIMSO_GC_STW", "1")], 20);
}

#[test]
fn stress_verify() {
    run_mode(&[("GIMSO_GC_VERIFY", "1")], 20);
}
