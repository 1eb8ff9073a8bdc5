#!/usr/bin/env bash
# Model-checks the pointer-slot protocol (crate gimso-atomics) and the
# collector's handshake and pacing cores (crate gimso-gc) with loom.
# The acceptance bound is LOOM_MAX_PREEMPTIONS=3 (the default here).
set -euo pipefail
cd "$(dirname "$0")/.."
export LOOM_MAX_PREEMPTIONS="${LOOM_MAX_PREEMPTIONS:-3}"
# Doc tests are left out: rustdoc builds them without `--cfg loom`, and
# under loom the crates leave out the code they document.
RUSTFLAGS="--cfg loom" cargo test -p gimso-atomics -p gimso-gc --release --target-dir target/loom \
    --lib --tests -- --test-threads=2
