#!/bin/bash
# Nanoseconds per step of a hand-written gimso pointer chase (check, load,
# shadow-word read) with the shadow words inline, in a separate region
# found through the header, or in a mirror at a fixed distance
# (benches/c/shadow_placement.c says why). Three working-set sizes: in L1/L2,
# in the last-level cache, in memory. Medians of ROUNDS (default 7) rounds.
#
# Usage: benches/shadow_placement.sh   (needs clang-16; Linux x86-64)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/target/shadow_placement
ROUNDS=${ROUNDS:-7}
mkdir -p "$OUT"
clang-16 -O2 -Wall -Wextra -Werror "$ROOT/benches/c/shadow_placement.c" -o "$OUT/shadow_placement"
printf '| objects (80 B each) | inline ns/step | separate ns/step | mirror ns/step | mirror / inline | mirror / separate |\n'
printf '|---:|---:|---:|---:|---:|---:|\n'
for spec in "1000 50000000" "100000 20000000" "3000000 5000000"; do
    # shellcheck disable=SC2086
    set -- $spec
    "$OUT/shadow_placement" "$1" "$2" "$ROUNDS" | awk -v n="$1" '
        { t[$1] = $2 }
        END { printf "| %d | %.2f | %.2f | %.2f | %.2f | %.2f |\n", n, t["inline"], t["separate"],
              t["mirror"], t["mirror"] / t["inline"], t["mirror"] / t["separate"] }'
done
