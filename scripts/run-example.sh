#!/usr/bin/env bash
# The main job: build the runtime and gimso-cc, compile examples/hello.c
# with gimso-cc, run it, then show two caught bugs.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo build --release --quiet -p gimso -p gimso-pass
# Set-up: the C++ standard library gimso-c++ links (built once, cached).
scripts/build-libcxx.sh
mkdir -p target/examples
./target/release/gimso-cc -O2 -g -Wall -Werror examples/hello.c -o target/examples/hello
./target/examples/hello
for bug in overflow uaf; do
    echo "--- ./hello $bug (a safety error is expected) ---"
    set +e
    ./target/examples/hello "$bug"
    status=$?
    set -e
    echo "exit status $status"
    [ "$status" -eq 134 ] || { echo "expected exit status 134" >&2; exit 1; }
done
