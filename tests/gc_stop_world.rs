//! Stop-the-world (the STW debugging mode and `fork` use it): every thread
//! parks at its next safepoint until the world resumes.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use gimso::capi::*;

#[test]
fn stopped_threads_make_no_progress_until_resumed() {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    static STOP: AtomicBool = AtomicBool::new(false);
    let worker = std::thread::spawn(|| {
        gimso_thread_attach();
        while !STOP.load(Ordering::Relaxed) {
            gimso_pollcheck();
            COUNT.fetch_add(1, Ordering::Relaxed);
        }
    });
    while COUNT.load(Ordering::Relaxed) < 1000 {
        std::thread::yield_now();
    }
    let world = gimso::gc::stop_world();
    let at_stop = COUNT.load(Ordering::Relaxed);
    std::thread::sleep(Duration::from_millis(200));
    let later = COUNT.load(Ordering::Relaxed);
    // The worker may finish the increment it was doing when it stopped.
    assert!(
        later <= at_stop + 1,
        "worker ran while stopped: {at_stop} -> {later}"
    );
    drop(world);
    std::thread::sleep(Duration::from_millis(50));
    assert!(
        COUNT.load(Ordering::Relaxed) > later + 100,
        "worker did not resume"
    );
    STOP.store(true, Ordering::Relaxed);
    worker.join().unwrap();
}
