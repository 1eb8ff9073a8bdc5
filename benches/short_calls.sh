#!/bin/bash
# Instructions per iteration of benches/c/short_calls.c (allocator and
# memcpy calls) under gimso-cc -O2 and clang-16 -O2: the difference of two
# cachegrind counts (200 000 and 100 000 iterations) over 100 000, so
# start-up cost cancels. Deterministic, unlike timings on a shared host.
#
# Usage: benches/short_calls.sh   (needs valgrind; builds the workspace)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
cargo build --release -q
OUT=$ROOT/target/short_calls
mkdir -p "$OUT"
target/release/gimso-cc -O2 -w benches/c/short_calls.c -o "$OUT/gimso"
clang-16 -O2 -w benches/c/short_calls.c -o "$OUT/clang"
count() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
}
printf '| call | gimso-cc instructions / iteration | clang -O2 |\n|---|---:|---:|\n'
for mode in alloc memcpy; do
    row="| $mode"
    for v in gimso clang; do
        a=$(count "$OUT/$v" "$mode" 100000)
        b=$(count "$OUT/$v" "$mode" 200000)
        row="$row | $(( (b - a) / 100000 ))"
    done
    echo "$row |"
done
