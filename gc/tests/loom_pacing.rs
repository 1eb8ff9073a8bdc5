//! Loom model of waking the collector under allocation pressure: two
//! allocating threads cross the trigger ([`Pacer::pressure`], then
//! `collector::request` if it says so) while the collector takes requests
//! as `collector_main` does and calls [`Pacer::woken`]. Checks that the
//! collector always wakes (loom reports a deadlock otherwise), that at most
//! one request is sent per cycle, and that the wake flag is never left set
//! with no cycle coming (which would silence every later pressure). Run with
//! `RUSTFLAGS="--cfg loom" cargo test -p gimso-gc --release --target-dir target/loom`.

#![cfg(loom)]

use gimso_gc::pacing::Pacer;
use gimso_gc::primitive::{AtomicUsize, Ordering};
use loom::sync::{Arc, Condvar, Mutex};
use loom::thread;

const ALLOCATORS: usize = 2;

/// The collector's request state (`collector::STATE`), plus how many
/// allocating threads are finished so the model's collector can end.
#[derive(Default)]
struct Requests {
    requested: bool,
    finished: usize,
}

struct World {
    pacer: Pacer,
    state: Mutex<Requests>,
    wake: Condvar,
    /// The heap's allocation count.
    allocated: AtomicUsize,
    /// Pressures that asked for a cycle.
    asked: AtomicUsize,
}

impl World {
    /// `collector::request`.
    fn request(&self) {
        let mut s = self.state.lock().unwrap();
        s.requested = true;
        self.wake.notify_one();
    }

    /// An allocation past the trigger (`Heap::note_allocation`, then
    /// `collector::on_pressure`).
    fn allocate(&self) {
        self.allocated.fetch_add(1, Ordering::Relaxed);
        if self.pacer.pressure() {
            self.asked.fetch_add(1, Ordering::Relaxed);
            self.request();
        }
    }

    fn finish(&self) {
        let mut s = self.state.lock().unwrap();
        s.finished += 1;
        self.wake.notify_one();
    }

    /// `collector::collector_main`, ending once every allocating thread is
    /// finished and no request is left; returns the cycles run.
    fn collector(&self) -> usize {
        let mut cycles = 0;
        loop {
            {
                let mut s = self.state.lock().unwrap();
                while !s.requested && s.finished < ALLOCATORS {
                    s = self.wake.wait(s).unwrap();
                }
                if !s.requested {
                    return cycles;
                }
                s.requested = false;
            }
            self.pacer.woken();
            // `run_cycle`: the allocation count restarts, a trigger is set.
            self.allocated.swap(0, Ordering::Relaxed);
            self.pacer.cycle_started();
            cycles += 1;
            self.pacer.cycle_ended(cycles);
        }
    }
}

#[test]
fn pressure_wakes_the_collector_once_per_cycle() {
    loom::model(|| {
        let w = Arc::new(World {
            pacer: Pacer::new(),
            state: Mutex::new(Requests::default()),
            wake: Condvar::new(),
            allocated: AtomicUsize::new(0),
            asked: AtomicUsize::new(0),
        });
        let allocators: Vec<_> = (0..ALLOCATORS)
            .map(|_| {
                let w = w.clone();
                thread::spawn(move || {
                    w.allocate();
                    w.finish();
                })
            })
            .collect();
        let cycles = w.collector();
        for a in allocators {
            a.join().unwrap();
        }
        let asked = w.asked.load(Ordering::Relaxed);
        assert!(cycles >= 1, "a pressure asked and no cycle ran");
        assert!(
            asked >= 1 && asked <= cycles,
            "{asked} requests, {cycles} cycles"
        );
        // The collector took every request: the next pressure must ask.
        assert!(
            w.pacer.pressure(),
            "wake flag left set with no cycle coming"
        );
    });
}
