#!/usr/bin/env bash
# Feeds llvm-stress-16 modules through the pass (loading, the rejection
# checker, the analyses, prepare and the translation, with the verifier on
# every output) and fails on the first crash, diagnostic or invalid output.
#   scripts/fuzz-pass.sh [seeds]     (default 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
PASS_FUZZ_SEEDS="${1:-1000}" cargo test -q --release -p gimso-pass --test stress -- --nocapture
