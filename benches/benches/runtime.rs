//! Runtime fast paths against their baselines, measured in the same run:
//! - alloc+free pairs (16, 64, 256, 4096 B): gimso vs glibc malloc vs mimalloc;
//! - non-atomic pointer store / load through shadow vs a raw pointer;
//! - atomic pointer store / load / cmpxchg through boxes vs `AtomicPtr`;
//! - the inline access check plus a load vs a raw load.
//!
//! `benches/report.py` turns criterion's estimates into the ratio tables of
//! `BENCHMARKS.md`.

use std::alloc::{GlobalAlloc, Layout};
use std::hint::black_box;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use gimso_abi::SourceLocation;
use gimso_benches::{BenchHeap, SWEEP_EVERY_BYTES};
use gimso_shadow::check::{Access, check_access};
use gimso_shadow::pointer::{atomic_load_ptr, atomic_store_ptr, cmpxchg_ptr, load_ptr, store_ptr};
use gimso_shadow::{alloc_object, free::free};
use mimalloc::MiMalloc;

const HERE: &SourceLocation = &SourceLocation::UNKNOWN;

fn alloc_free(c: &mut Criterion) {
    for size in [16usize, 64, 256, 4096] {
        let mut g = c.benchmark_group(format!("alloc_free/{size}"));
        g.bench_function("gimso", |b| {
            let mut h = BenchHeap::new();
            let period = (SWEEP_EVERY_BYTES / (size + 16)).max(1) as u64;
            b.iter_custom(|iters| {
                let start = Instant::now();
                let mut until_collect = period;
                for _ in 0..iters {
                    let obj = alloc_object(&mut h.local, black_box(size), 16, 0);
                    free(black_box(obj).flight_ptr());
                    until_collect -= 1;
                    if until_collect == 0 {
                        h.collect();
                        until_collect = period;
                    }
                }
                start.elapsed()
            });
        });
        g.bench_function("glibc", |b| {
            b.iter(|| {
                // SAFETY: malloc/free pair on the system allocator.
                unsafe {
                    let p = libc::malloc(black_box(size));
                    libc::free(black_box(p));
                }
            })
        });
        g.bench_function("mimalloc", |b| {
            let layout = Layout::from_size_align(size, 16).unwrap();
            b.iter(|| {
                // SAFETY: alloc/dealloc pair with the same layout.
                unsafe {
                    let p = MiMalloc.alloc(black_box(layout));
                    MiMalloc.dealloc(black_box(p), layout);
                }
            })
        });
        // gimso's payloads are always zeroed: the zeroing allocators are the
        // like-for-like baselines.
        g.bench_function("glibc_calloc", |b| {
            b.iter(|| {
                // SAFETY: calloc/free pair on the system allocator.
                unsafe {
                    let p = libc::calloc(1, black_box(size));
                    libc::free(black_box(p));
                }
            })
        });
        g.bench_function("mimalloc_zeroed", |b| {
            let layout = Layout::from_size_align(size, 16).unwrap();
            b.iter(|| {
                // SAFETY: alloc_zeroed/dealloc pair with the same layout.
                unsafe {
                    let p = MiMalloc.alloc_zeroed(black_box(layout));
                    MiMalloc.dealloc(black_box(p), layout);
                }
            })
        });
        g.finish();
    }
}

fn pointer_store_load(c: &mut Criterion) {
    let mut h = BenchHeap::new();
    let obj = alloc_object(&mut h.local, 64, 16, 0);
    let target = alloc_object(&mut h.local, 64, 16, 0);
    let (dst, value) = (obj.flight_ptr().offset(8), target.flight_ptr());
    store_ptr(&mut h.local, dst, value, HERE); // creates the aux allocation
    let mut g = c.benchmark_group("pointer");
    g.bench_function("store/gimso", |b| {
        b.iter(|| store_ptr(&mut h.local, black_box(dst), black_box(value), HERE))
    });
    g.bench_function("load/gimso", |b| b.iter(|| load_ptr(black_box(dst), HERE)));
    let mut raw: [*mut u8; 8] = [std::ptr::null_mut(); 8];
    let raw_slot: *mut *mut u8 = &mut raw[1];
    g.bench_function("store/raw", |b| {
        // SAFETY: raw_slot points into a live local array.
        b.iter(|| unsafe {
            black_box(raw_slot).write_volatile(black_box(value.intval() as *mut u8))
        })
    });
    g.bench_function("load/raw", |b| {
        // SAFETY: raw_slot points into a live local array.
        b.iter(|| unsafe { black_box(raw_slot).read_volatile() })
    });
    g.finish();
}

fn atomic_pointer(c: &mut Criterion) {
    let mut h = BenchHeap::new();
    let obj = alloc_object(&mut h.local, 64, 16, 0);
    let target = alloc_object(&mut h.local, 64, 16, 0);
    h.keep(obj);
    h.keep(target);
    let dst = obj.flight_ptr();
    let value = target.flight_ptr();
    atomic_store_ptr(&mut h.local, dst, value, HERE);
    // Each atomic store makes a 32-byte box: collect every 1 MiB of boxes.
    let period = (SWEEP_EVERY_BYTES / 32) as u64;
    let mut g = c.benchmark_group("atomic");
    g.bench_function("store/gimso", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                atomic_store_ptr(&mut h.local, black_box(dst), black_box(value), HERE);
                if i % period == period - 1 {
                    h.collect();
                }
            }
            start.elapsed()
        })
    });
    g.bench_function("load/gimso", |b| {
        b.iter(|| atomic_load_ptr(black_box(dst), HERE))
    });
    g.bench_function("cmpxchg/gimso", |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            for i in 0..iters {
                let r = cmpxchg_ptr(
                    &mut h.local,
                    black_box(dst),
                    value.intval(),
                    black_box(value),
                    false,
                    HERE,
                );
                black_box(r);
                if i % period == period - 1 {
                    h.collect();
                }
            }
            start.elapsed()
        })
    });
    let raw = AtomicPtr::new(value.intval() as *mut u8);
    let v = value.intval() as *mut u8;
    g.bench_function("store/raw", |b| {
        b.iter(|| black_box(&raw).store(black_box(v), Ordering::SeqCst))
    });
    g.bench_function("load/raw", |b| {
        b.iter(|| black_box(&raw).load(Ordering::SeqCst))
    });
    g.bench_function("cmpxchg/raw", |b| {
        b.iter(|| {
            black_box(&raw).compare_exchange(v, black_box(v), Ordering::SeqCst, Ordering::SeqCst)
        })
    });
    g.finish();
}

fn access_check(c: &mut Criterion) {
    let mut h = BenchHeap::new();
    let obj = alloc_object(&mut h.local, 64, 16, 0);
    let p = obj.flight_ptr().offset(24);
    let mut g = c.benchmark_group("check");
    g.bench_function("load8/gimso", |b| {
        b.iter(|| {
            let p = black_box(p);
            check_access(p, Access::read(8));
            // SAFETY: the check just passed.
            unsafe { (p.intval() as *const u64).read() }
        })
    });
    g.bench_function("load8/raw", |b| {
        // SAFETY: p is in bounds of a live object.
        b.iter(|| unsafe { (black_box(p).intval() as *const u64).read() })
    });
    g.finish();
}

/// The fast paths compiled code inlines everywhere: the store barrier's
/// test while the collector is not marking, and the pollcheck with nothing
/// requested.
fn fast_paths(c: &mut Criterion) {
    let mut h = BenchHeap::new();
    let obj = alloc_object(&mut h.local, 64, 16, 0);
    let t = gimso::gc::current();
    let mut g = c.benchmark_group("fast_path");
    g.bench_function("barrier/gimso", |b| {
        b.iter(|| gimso_shadow::barrier::store_barrier(black_box(obj.lower())))
    });
    g.bench_function("pollcheck/gimso", |b| {
        b.iter(|| gimso::gc::pollcheck(black_box(t)))
    });
    g.bench_function("nothing/raw", |b| b.iter(|| black_box(obj.lower())));
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! {
    name = benches;
    config = config();
    targets = alloc_free, pointer_store_load, atomic_pointer, access_check, fast_paths
}
criterion_main!(benches);
