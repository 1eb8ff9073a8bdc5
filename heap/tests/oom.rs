//! Requests the heap cannot serve end the process cleanly with status 134
//! and a message naming the request size. Runs itself as a child process.

use std::process::Command;

use gimso_heap::{Heap, LocalHeap};

const CHILD_ENV: &str = "GIMSO_HEAP_OOM_CHILD";

/// In the child, allocates the size given in the environment; in a normal
/// test run, does nothing.
#[test]
fn oom_child() {
    if let Ok(size) = std::env::var(CHILD_ENV) {
        let size: usize = size.parse().unwrap();
        let mut local = LocalHeap::new(Heap::new());
        local.alloc(size);
        // Reaching this line means the allocation did not fail.
        std::process::exit(0);
    }
}

fn run_child(size: usize) -> (Option<i32>, String) {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "oom_child", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, size.to_string())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn beyond_2_pow_46_is_fatal_oom() {
    for size in [(1usize << 46) + 1, usize::MAX] {
        let (code, stderr) = run_child(size);
        assert_eq!(code, Some(134), "stderr: {stderr}");
        let msg = format!("gimso: fatal error: out of memory: cannot allocate {size} bytes\n");
        assert!(stderr.contains(&msg), "stderr: {stderr}");
    }
}

#[test]
fn mmap_failure_is_fatal_oom() {
    // Heuristic overcommit (mode 0) refuses a single 32 TiB mapping on any
    // machine this runs on; in "always overcommit" mode it might succeed.
    let mode = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    if mode.trim() == "1" {
        return;
    }
    let size = 1usize << 45;
    let (code, stderr) = run_child(size);
    assert_eq!(code, Some(134), "stderr: {stderr}");
    assert!(
        stderr.contains(&format!("cannot allocate {size} bytes")),
        "stderr: {stderr}"
    );
}
