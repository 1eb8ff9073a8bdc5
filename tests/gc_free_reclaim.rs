//! Objects the program frees while pointers to them still sit in the heap:
//! the collector redirects those pointers to the free singleton and
//! reclaims the memory at the next sweep; the stale pointers still trap.

use std::process::Command;

use gimso::capi::*;
use gimso::heap::Heap;
use gimso_abi::{ACCESS_READ, ACCESS_WRITE, FlightPtr};

const N: usize = 2000;
const SIZE: usize = 1000;

/// In a thread that then exits (so no stale stack word of ours can keep
/// them alive): a holder whose slots point at N objects, all freed.
fn build_freed() -> (FlightPtr, Vec<(usize, usize)>) {
    std::thread::spawn(|| {
        let holder = gimso_alloc(N * 8);
        let mut old = Vec::with_capacity(N);
        for i in 0..N {
            let o = gimso_alloc(SIZE);
            // SAFETY: runtime-issued capabilities; checked before writing.
            unsafe {
                gimso_check_access(o, 8, ACCESS_WRITE);
                (o.intval() as *mut u64).write(i as u64);
                gimso_store_ptr(holder.offset(8 * i as isize), o);
                gimso_free(o);
            }
            old.push((o.intval(), o.lower()));
        }
        (holder, old)
    })
    .join()
    .unwrap()
}

#[test]
fn child_trap() {
    if std::env::var("GIMSO_FREE_CHILD").as_deref() != Ok("trap") {
        return;
    }
    let (holder, _) = build_freed();
    gimso_gc_collect();
    // SAFETY: runtime-issued capability.
    let stale = unsafe { gimso_load_ptr(holder.offset(8)) };
    // SAFETY: as above; this must trap.
    unsafe { gimso_check_access(stale, 8, ACCESS_READ) };
    println!("CHILD-NOT-TRAPPED");
}

fn spawn(mode: &str) -> std::process::Output {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &format!("child_{mode}"), "--nocapture"])
        .env("GIMSO_FREE_CHILD", mode)
        // No automatic cycle before the test's own collections.
        .env("GIMSO_GC_THRESHOLD", "1G")
        .output()
        .unwrap()
}

#[test]
fn freed_memory_is_reclaimed_and_stale_pointers_trap() {
    let out = spawn("reclaim");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("RECLAIM-OK"),
        "{stderr}"
    );
    eprintln!("{stderr}");

    // And using a stale pointer is a use-after-free report.
    let out = spawn("trap");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(134), "{stderr}");
    assert!(
        stderr.contains("gimso: safety error: use after free"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("CHILD-NOT-TRAPPED"));
}

#[test]
fn child_reclaim() {
    if std::env::var("GIMSO_FREE_CHILD").as_deref() != Ok("reclaim") {
        return;
    }
    let heap = Heap::global();
    let (holder, old) = build_freed();
    // Before a collection the freed objects still occupy their memory.
    let still_there = old
        .iter()
        .filter(|&&(a, l)| gimso_lookup(a).lower() == l)
        .count();
    assert_eq!(
        still_there, N,
        "free must not reuse memory before a collection"
    );
    let committed_before = heap.stats().committed_bytes;

    gimso_gc_collect();
    gimso_gc_collect();

    // Reclaimed: the slots are free (or hold other objects).
    let reclaimed = old
        .iter()
        .filter(|&&(a, l)| gimso_lookup(a).lower() != l)
        .count();
    assert!(
        reclaimed >= N * 95 / 100,
        "only {reclaimed} of {N} freed objects reclaimed"
    );
    let committed_after = heap.stats().committed_bytes;
    eprintln!("committed {committed_before} -> {committed_after}, reclaimed {reclaimed}/{N}");

    // The heap's pointers to reclaimed objects now carry the free
    // singleton: same address, a permanently freed, zero-size capability.
    // (A freed object a stale stack word keeps marked may keep its
    // references until a cycle finds it unmarked: tracing skips references
    // to marked objects without reading their headers. It is not reclaimed
    // meanwhile, so its references cannot dangle.)
    let mut redirected = 0;
    for (i, &(addr, lower)) in old.iter().enumerate() {
        // SAFETY: runtime-issued capability.
        let p = unsafe { gimso_load_ptr(holder.offset(8 * i as isize)) };
        assert_eq!(p.intval(), addr);
        let gone = gimso_lookup(addr).lower() != lower;
        if p.lower() != lower {
            redirected += 1;
            // SAFETY: runtime-issued capability.
            assert_eq!(unsafe { gimso_object_size(p) }, 0);
        } else {
            assert!(
                !gone,
                "a reference to reclaimed object {i} was not redirected"
            );
        }
    }
    assert!(
        redirected >= reclaimed,
        "{redirected} references redirected, {reclaimed} objects reclaimed"
    );
    println!("RECLAIM-OK");
}
