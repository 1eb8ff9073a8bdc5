#!/usr/bin/env bash
# Longer collector soak (not part of the default run): repeats the GC
# stress tests N times (default 50) with more iterations per thread.
#   scripts/soak.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-50}"
cargo test -q -p gimso --test gc_stress --no-run
for i in $(seq 1 "$n"); do
    STRESS_ITERS=1000000 cargo test -q -p gimso --test gc_stress 2>&1 | tail -n 3 | grep -q "test result: ok" \
        || { echo "soak: run $i failed"; STRESS_ITERS=1000000 cargo test -q -p gimso --test gc_stress; exit 1; }
    echo "soak: run $i ok"
done
