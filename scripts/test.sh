#!/usr/bin/env bash
# Every test of the default run: formatting, lints (and the pass's one
# door to LLVM's C API), the workspace's tests
# (unit, integration, header-vs-ABI, child-process safety reports, stress),
# the loom models at LOOM_MAX_PREEMPTIONS=3, and the example program.
# Longer runs: `cargo bench -p gimso-benches` (see BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# A fresh CI clone gains nothing from incremental compilation, and its
# cache is ~1.4 GB of disk.
if [ "${CI:-}" = true ]; then export CARGO_INCREMENTAL=0; fi
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== the pass reaches LLVM's C API only through pass/src/llvm/"
scripts/check-llvm-facade.sh
echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings
echo "== cargo build --release (libgimso.a, libgimso.so)"
cargo build --release --quiet
echo "== the C++ standard library: libc++ built by gimso-c++ (scripts/build-libcxx.sh)"
scripts/build-libcxx.sh
echo "== cargo test"
cargo test --workspace
echo "== loom models (LOOM_MAX_PREEMPTIONS=${LOOM_MAX_PREEMPTIONS:=3})"
LOOM_MAX_PREEMPTIONS=$LOOM_MAX_PREEMPTIONS scripts/loom.sh
echo "== example"
scripts/run-example.sh
