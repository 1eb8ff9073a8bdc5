#!/usr/bin/env bash
# Nanoseconds per step of a linked-list chase (benches/c/pointer_chase.c)
# built by clang-16 -O2 and by gimso-cc -O2, for lists that fit in L1, in
# L2 and in the last-level cache. Best of ROUNDS (default 5) interleaved
# runs. Shows what instruction counts do not: at L1 size a gimso step costs
# the latency of its capability chain (see BENCHMARKS.md).
#
# Usage: benches/pointer_chase.sh   (environment: GIMSO_CC, CLANG, ROUNDS,
# STEPS, default 100000000)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GIMSO_CC=${GIMSO_CC:-$ROOT/target/release/gimso-cc}
CLANG=${CLANG:-clang-16}
ROUNDS=${ROUNDS:-5}
STEPS=${STEPS:-100000000}
OUT=$ROOT/target/pointer_chase
[ -x "$GIMSO_CC" ] || {
    echo "pointer_chase.sh: no gimso-cc at $GIMSO_CC (cargo build --release -p gimso -p gimso-pass)" >&2
    exit 2
}
mkdir -p "$OUT"
"$CLANG" -O2 -Wall -Wextra -Werror "$ROOT/benches/c/pointer_chase.c" -o "$OUT/chase-clang"
"$GIMSO_CC" -O2 -Wall -Wextra -Werror "$ROOT/benches/c/pointer_chase.c" -o "$OUT/chase-gimso"

# Best wall seconds of ROUNDS runs of "$@".
best() {
    local b="" t
    for _ in $(seq "$ROUNDS"); do
        t=$({ /usr/bin/time -f %e "$@" >/dev/null; } 2>&1 | tail -1)
        b=$(awk -v a="$b" -v t="$t" 'BEGIN { print (a == "" || t < a) ? t : a }')
    done
    echo "$b"
}

printf '| nodes (16 B) | clang -O2 ns/step | gimso-cc ns/step | × clang |\n'
printf '|---:|---:|---:|---:|\n'
for n in 256 4096 100000; do
    want=$("$OUT/chase-clang" "$STEPS" "$n")
    got=$("$OUT/chase-gimso" "$STEPS" "$n")
    [ "$want" = "$got" ] || {
        echo "pointer_chase.sh: sums differ at $n nodes ($want, $got)" >&2
        exit 1
    }
    c=$(best "$OUT/chase-clang" "$STEPS" "$n")
    g=$(best "$OUT/chase-gimso" "$STEPS" "$n")
    awk -v n="$n" -v c="$c" -v g="$g" -v s="$STEPS" \
        'BEGIN { printf "| %d | %.2f | %.2f | %.2f |\n", n, c * 1e9 / s, g * 1e9 / s, g / c }'
done
