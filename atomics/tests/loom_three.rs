//! Loom models with three threads: a store, a cmpxchg and a reader doing an
//! atomic then a plain load, from a non-atomic and an atomic starting state.

#![cfg(loom)]

mod common;

use common::{Op, Words, check, perform};
use gimso_atomics::{atomic_load, plain_load};
use loom::sync::Arc;
use loom::thread;

/// Threads 1 and 2 run `a` and `b`; the main thread runs `c` (as thread 3).
fn model3(a: Op, b: Op, c: Op) {
    for atomic_init in [false, true] {
        loom::model(move || {
            let words = Arc::new(Words::new(atomic_init));
            let (w1, w2) = (words.clone(), words.clone());
            let t1 = thread::spawn(move || perform(a, 1, &w1));
            let t2 = thread::spawn(move || perform(b, 2, &w2));
            let out_c = perform(c, 3, &words);
            let out_a = t1.join().unwrap();
            let out_b = t2.join().unwrap();
            let fin_atomic = atomic_load(words.slot());
            let fin_plain = plain_load(words.slot());
            check(
                &[(a, 1, out_a), (b, 2, out_b), (c, 3, out_c)],
                fin_atomic,
                fin_plain,
            );
        });
    }
}

#[test]
fn atomic_store_cmpxchg_loads() {
    model3(Op::AtomicStore, Op::Cmpxchg, Op::BothLoads);
}

#[test]
fn plain_store_cmpxchg_loads() {
    model3(Op::PlainStore, Op::Cmpxchg, Op::BothLoads);
}

#[test]
fn xchg_cmpxchg_loads() {
    model3(Op::Xchg, Op::Cmpxchg, Op::BothLoads);
}

#[test]
fn atomic_store_cmpxchg_xchg() {
    model3(Op::AtomicStore, Op::Cmpxchg, Op::Xchg);
}
