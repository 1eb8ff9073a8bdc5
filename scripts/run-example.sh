#!/usr/bin/env bash
# The main job: build the runtime, compile examples/hello.c against
# libgimso.a with clang-16, and run it (then show two caught bugs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
cargo build --release --quiet
mkdir -p target/examples
clang-16 -O2 -g -Wall -Werror -Iinclude examples/hello.c target/release/libgimso.a \
    -lpthread -ldl -lm -o target/examples/hello
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
