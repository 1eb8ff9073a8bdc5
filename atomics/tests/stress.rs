//! The loom scenarios on OS threads, many rounds each, with the same checks,
//! plus a mixed test where writers hammer one slot with random operations
//! while a reader checks the invariants continuously.

#![cfg(not(loom))]

#[macro_use]
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

use common::{Op, Outcome, Words, Writes, check, pair, perform};
use gimso_atomics::{
    LeakBoxes, Ptr, atomic_load, atomic_store, cmpxchg, plain_load, plain_store, xchg,
};

const ROUNDS: usize = 2000;

/// A reusable spinning barrier: the threads leave it within a few hundred
/// nanoseconds of each other, so their operations really overlap.
struct SpinBarrier {
    n: usize,
    count: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(n: usize) -> Self {
        SpinBarrier {
            n,
            count: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
        }
    }

    fn wait(&self) {
        let generation = self.generation.load(Ordering::Acquire);
        if self.count.fetch_add(1, Ordering::AcqRel) + 1 == self.n {
            self.count.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::AcqRel);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            spins += 1;
            if spins < 200 {
                std::hint::spin_loop();
            } else {
                // More threads than cores: let the others run.
                thread::yield_now();
            }
        }
    }
}

/// Runs `ops[i]` as thread `i + 1` for `ROUNDS` rounds from each starting
/// mode, checking every round as the loom models do.
fn scenario(ops: &[Op]) {
    let n = ops.len();
    let barrier = Arc::new(SpinBarrier::new(n + 1));
    let words = Arc::new(Words::new(false));
    let handles: Vec<_> = ops
        .iter()
        .enumerate()
        .map(|(i, &op)| {
            let (barrier, words) = (barrier.clone(), words.clone());
            thread::spawn(move || {
                let mut outs = Vec::with_capacity(2 * ROUNDS);
                for _ in 0..2 * ROUNDS {
                    barrier.wait();
                    outs.push(perform(op, i + 1, &words));
                    barrier.wait();
                }
                outs
            })
        })
        .collect();
    // The main thread resets the slot before each round and records its final
    // state after it; the checks run once all rounds are done, to keep the
    // rounds tight.
    let mut finals = Vec::with_capacity(2 * ROUNDS);
    for r in 0..2 * ROUNDS {
        let slot = words.slot();
        if r < ROUNDS {
            plain_store(slot, common::INIT);
        } else {
            atomic_store(slot, common::INIT, &mut LeakBoxes::default());
        }
        barrier.wait();
        barrier.wait();
        finals.push((atomic_load(slot), plain_load(slot)));
    }
    let outs: Vec<Vec<Outcome>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for (r, &(fin_atomic, fin_plain)) in finals.iter().enumerate() {
        let round: Vec<(Op, usize, Outcome)> =
            (0..n).map(|i| (ops[i], i + 1, outs[i][r])).collect();
        check(&round, fin_atomic, fin_plain);
    }
}

all_pairs!(two_threads; plain_store atomic_store cmpxchg xchg plain_load atomic_load);

mod weak {
    use super::{Op, scenario};

    #[test]
    fn against_writers() {
        for other in [
            Op::CmpxchgWeak,
            Op::Cmpxchg,
            Op::AtomicStore,
            Op::PlainStore,
            Op::Xchg,
        ] {
            scenario(&[Op::CmpxchgWeak, other]);
        }
    }
}

mod three {
    use super::{Op, scenario};

    #[test]
    fn atomic_store_cmpxchg_loads() {
        scenario(&[Op::AtomicStore, Op::Cmpxchg, Op::BothLoads]);
    }

    #[test]
    fn plain_store_cmpxchg_loads() {
        scenario(&[Op::PlainStore, Op::Cmpxchg, Op::BothLoads]);
    }

    #[test]
    fn xchg_cmpxchg_loads() {
        scenario(&[Op::Xchg, Op::Cmpxchg, Op::BothLoads]);
    }

    #[test]
    fn atomic_store_cmpxchg_xchg() {
        scenario(&[Op::AtomicStore, Op::Cmpxchg, Op::Xchg]);
    }
}

/// xorshift64: no dependency, different stream per thread.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// Number of distinct pairs the mixed test writes (`pair(0..PAIRS)`).
const PAIRS: usize = 16;

/// Three writers run random operations on one slot while a reader checks
/// invariants 1–2 on every load. With `plain` false the writers use only
/// atomic writes, so every atomic read must be an exact pair; with it true
/// plain stores join in and atomic reads are held to invariant 2.
fn mixed(plain: bool) {
    const OPS: usize = 60_000;
    let words = Arc::new(Words::new(false));
    let done = Arc::new(AtomicBool::new(false));
    let writes = Arc::new(Writes {
        pairs: (0..PAIRS).map(pair).collect(),
        plain_writer: plain,
    });
    let reader = {
        let (words, done, writes) = (words.clone(), done.clone(), writes.clone());
        thread::spawn(move || {
            let mut reads = 0usize;
            while !done.load(Ordering::Relaxed) {
                writes.check_atomic(atomic_load(words.slot()), "reader atomic_load");
                writes.check_plain(plain_load(words.slot()), "reader plain_load");
                reads += 1;
            }
            reads
        })
    };
    let writers: Vec<_> = (1..=3u64)
        .map(|t| {
            let (words, writes) = (words.clone(), writes.clone());
            thread::spawn(move || {
                let mut rng = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(t);
                let mut boxes = LeakBoxes::default();
                let slot = words.slot();
                for _ in 0..OPS {
                    let r = next(&mut rng);
                    let v = pair((r >> 8) as usize % PAIRS);
                    match r % 8 {
                        0 if plain => plain_store(slot, v),
                        0 | 1 => atomic_store(slot, v, &mut boxes),
                        2 | 3 => {
                            let expected = pair((r >> 16) as usize % PAIRS).intval;
                            let weak = r & (1 << 24) != 0;
                            let (old, ok) = cmpxchg(slot, expected, v, weak, &mut boxes);
                            writes.check_atomic(old, "cmpxchg old");
                            if ok || !weak {
                                assert_eq!(
                                    ok,
                                    old.intval == expected,
                                    "cmpxchg {old:x?} {expected:#x}"
                                );
                            }
                        }
                        4 => writes.check_atomic(xchg(slot, v, &mut boxes), "xchg old"),
                        5 => writes.check_atomic(atomic_load(slot), "writer atomic_load"),
                        6 => writes.check_plain(plain_load(slot), "writer plain_load"),
                        _ => {
                            // A loop that relies on cmpxchg: replace whatever is
                            // there, atomically, the way C code would.
                            let mut cur: Ptr = atomic_load(slot);
                            loop {
                                let (old, ok) = cmpxchg(slot, cur.intval, v, false, &mut boxes);
                                if ok {
                                    break;
                                }
                                cur = old;
                            }
                        }
                    }
                }
            })
        })
        .collect();
    for w in writers {
        w.join().unwrap();
    }
    done.store(true, Ordering::Relaxed);
    let reads = reader.join().unwrap();
    assert!(reads > 0);
}

#[test]
fn mixed_atomic_writers() {
    mixed(false);
}

#[test]
fn mixed_with_plain_stores() {
    mixed(true);
}

/// A two-thread scenario (what `all_pairs!` runs).
fn two_threads(a: Op, b: Op) {
    scenario(&[a, b]);
}
