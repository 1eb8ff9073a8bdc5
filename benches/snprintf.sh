#!/usr/bin/env bash
# Instructions per snprintf call of integers and short strings
# (benches/c/snprintf_ints.c: "%lld", "%s:%d", "%zu items"), built by
# clang-16 -O2 (glibc's snprintf) and by gimso-cc -O2 (the runtime's printf
# engine), counted by valgrind's cachegrind with collections off. Both
# builds must print the same checksum.
#
# Usage: benches/snprintf.sh   (environment: GIMSO_CC, CLANG, CALLS per
# format, default 200000)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
GIMSO_CC=${GIMSO_CC:-$ROOT/target/release/gimso-cc}
CLANG=${CLANG:-clang-16}
CALLS=${CALLS:-200000}
OUT=$ROOT/target/snprintf
command -v valgrind >/dev/null || {
    echo "snprintf.sh: needs valgrind (apt-get install -y valgrind)" >&2
    exit 2
}
[ -x "$GIMSO_CC" ] || {
    echo "snprintf.sh: no gimso-cc at $GIMSO_CC (cargo build --release -p gimso -p gimso-pass)" >&2
    exit 2
}
mkdir -p "$OUT"
"$CLANG" -O2 -Wall -Wextra -Werror "$ROOT/benches/c/snprintf_ints.c" -o "$OUT/snprintf-clang"
"$GIMSO_CC" -O2 -Wall -Wextra -Werror "$ROOT/benches/c/snprintf_ints.c" -o "$OUT/snprintf-gimso"
want=$("$OUT/snprintf-clang" "$CALLS")
got=$("$OUT/snprintf-gimso" "$CALLS")
[ "$want" = "$got" ] || {
    echo "snprintf.sh: checksums differ: clang $want, gimso-cc $got" >&2
    exit 1
}

# Instructions executed by "$@".
count() {
    GIMSO_GC_THRESHOLD=4G valgrind --tool=cachegrind --cache-sim=no \
        --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
}
c=$(count "$OUT/snprintf-clang" "$CALLS")
g=$(count "$OUT/snprintf-gimso" "$CALLS")
calls=$((3 * CALLS))
printf '| build | instructions (M) | per call |\n|---|---:|---:|\n'
awk -v c="$c" -v g="$g" -v n="$calls" 'BEGIN {
    printf "| clang -O2 (glibc) | %.1f | %.0f |\n", c / 1e6, c / n
    printf "| gimso-cc -O2 | %.1f | %.0f |\n", g / 1e6, g / n
    printf "| gimso / clang | %.2f | |\n", g / c
}'
