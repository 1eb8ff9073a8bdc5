#!/usr/bin/env bash
# Feeds llvm-stress-16 modules through the pass (today: loading, verifying
# and the rejection checker) and fails on the first crash or diagnostic.
#   scripts/fuzz-pass.sh [seeds]     (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
PASS_FUZZ_SEEDS="${1:-1000}" cargo test -q --release -p gimso-pass --test stress -- --nocapture
