//! A thread blocked in the exited state (sleeping) does not hold up
//! collections, and the collector keeps what its stack references alive by
//! scanning it on its behalf.

use std::hint::black_box;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use gimso::capi::*;
use gimso_abi::{ACCESS_READ, ACCESS_WRITE, FlightPtr};

fn fill(p: FlightPtr, seed: u64) {
    // SAFETY: runtime-issued capability, checked first.
    unsafe {
        gimso_check_access(p, 4096, ACCESS_WRITE);
        for i in 0..512 {
            (p.intval() as *mut u64).add(i).write(seed ^ i as u64);
        }
    }
}

fn intact(p: FlightPtr, seed: u64) -> bool {
    // SAFETY: runtime-issued capability, checked first.
    unsafe {
        gimso_check_access(p, 4096, ACCESS_READ);
        (0..512).all(|i| (p.intval() as *const u64).add(i).read() == seed ^ i as u64)
    }
}

#[test]
fn sleeping_thread_does_not_block_collections() {
    let (tx, rx) = mpsc::channel();
    let sleeper = std::thread::spawn(move || {
        let mine = black_box(gimso_alloc(4096));
        fill(mine, 0xabcd);
        gimso_exit();
        tx.send(()).unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        gimso_enter();
        intact(black_box(mine), 0xabcd)
    });
    rx.recv().unwrap();
    let start = Instant::now();
    let before = gimso_gc_cycles();
    for _ in 0..5 {
        for _ in 0..20_000 {
            black_box(gimso_alloc(200));
        }
        gimso_gc_collect();
    }
    let took = start.elapsed();
    let cycles = gimso_gc_cycles() - before;
    assert!(cycles >= 5, "{cycles} cycles");
    assert!(
        took < Duration::from_millis(1000),
        "5 collections took {took:?} while a thread slept 1.5 s exited"
    );
    assert!(
        sleeper.join().unwrap(),
        "the sleeping thread's object was reclaimed"
    );
}
