//! Loom models: every unordered pair (an operation with itself included) of
//! the six slot operations on two threads, from a non-atomic and an atomic
//! starting state, plus weak cmpxchg against the writers. Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p gimso-atomics --release --target-dir target/loom`.

#![cfg(loom)]

#[macro_use]
mod common;

use common::{Op, Outcome, Words, check, perform};
use gimso_atomics::{atomic_load, plain_load};
use loom::sync::Arc;
use loom::thread;

/// Thread 1 runs `a` (writing `pair(1)`), the main thread runs `b` (writing
/// `pair(2)`); then both are joined and the final state is checked.
fn model2(a: Op, b: Op) {
    for atomic_init in [false, true] {
        loom::model(move || {
            let words = Arc::new(Words::new(atomic_init));
            let w1 = words.clone();
            let t = thread::spawn(move || perform(a, 1, &w1));
            let out_b: Outcome = perform(b, 2, &words);
            let out_a = t.join().unwrap();
            let fin_atomic = atomic_load(words.slot());
            let fin_plain = plain_load(words.slot());
            check(&[(a, 1, out_a), (b, 2, out_b)], fin_atomic, fin_plain);
        });
    }
}

all_pairs!(model2; plain_store atomic_store cmpxchg xchg plain_load atomic_load);

/// Weak cmpxchg against itself and every writer.
mod weak {
    use super::{Op, model2};

    #[test]
    fn cmpxchg_weak() {
        model2(Op::CmpxchgWeak, Op::CmpxchgWeak);
    }

    #[test]
    fn cmpxchg() {
        model2(Op::CmpxchgWeak, Op::Cmpxchg);
    }

    #[test]
    fn atomic_store() {
        model2(Op::CmpxchgWeak, Op::AtomicStore);
    }

    #[test]
    fn plain_store() {
        model2(Op::CmpxchgWeak, Op::PlainStore);
    }

    #[test]
    fn xchg() {
        model2(Op::CmpxchgWeak, Op::Xchg);
    }
}
