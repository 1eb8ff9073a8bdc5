//! The marking helpers are started once and kept: many collections with
//! three markers leave exactly two helper threads, and every collection
//! still marks what is reachable. Runs in a child process (the marker count
//! is read once from the environment).

use std::hint::black_box;
use std::process::Command;

use gimso::capi::*;
use gimso_abi::{ACCESS_READ, FlightPtr};

/// Names of this process's threads that are marking helpers.
fn helper_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("gimso-mark-"))
        .count()
}

fn read(p: FlightPtr) -> u64 {
    // SAFETY: a runtime-issued capability; the check guards the read.
    unsafe { gimso_check_access(p, 8, ACCESS_READ) };
    // SAFETY: just checked.
    unsafe { (p.intval() as *const u64).read() }
}

#[test]
fn scenario() {
    if std::env::var_os("GIMSO_MARKER_CHILD").is_none() {
        return;
    }
    // A list long enough that marking has work for every marker.
    let mut head = gimso_alloc(16);
    for i in 0..20_000u64 {
        let n = gimso_alloc(16);
        // SAFETY: fresh runtime-issued capabilities with 16 bytes.
        unsafe {
            (n.intval() as *mut u64).write(i);
            gimso_store_ptr(n.offset(8), head);
        }
        head = n;
    }
    let mut most = 0;
    for _ in 0..40 {
        for _ in 0..2_000 {
            black_box(gimso_alloc(64));
        }
        gimso_gc_collect();
        most = most.max(helper_threads());
    }
    // Walk the list: every node survived the collections.
    let mut n = head;
    let mut count = 0u64;
    while count < 20_000 {
        assert_eq!(read(n), 19_999 - count);
        // SAFETY: runtime-issued capability of a live node.
        n = unsafe { gimso_load_ptr(n.offset(8)) };
        count += 1;
    }
    println!("HELPERS {most} {}", helper_threads());
}

#[test]
fn helpers_are_kept_between_collections() {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "scenario", "--nocapture"])
        .env("GIMSO_MARKER_CHILD", "1")
        .env("GIMSO_GC_MARKERS", "3")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Two helpers (the collector is the third marker), never more, still
    // there after the last collection.
    assert!(stdout.contains("HELPERS 2 2"), "{stdout}");
}
