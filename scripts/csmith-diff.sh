#!/usr/bin/env bash
# Differential testing against clang with random UB-free programs from
# csmith (default options: bit-fields and packed structs included).
#
#   scripts/csmith-diff.sh [SEEDS] [FIRST]    # default 1000 seeds from 1
#
# Each seed is built with clang-16 -O0 (the reference) and with gimso-cc
# at -O0 and -O2; the printed checksums must match and gimso must neither
# report nor fail to compile. Seeds whose reference build runs over 10 s
# (csmith's own nonterminating programs) are skipped and counted.
# Environment: GIMSO_CC (default target/release/gimso-cc), JOBS (default
# 2), OUT (work directory, default a fresh temporary one, kept on failure),
# GIMSO_TIMEOUT (seconds a gimso build may run, default 120).
# Prints one line per failing seed and a summary; exits 1 if any failed.
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-1000}
FIRST=${2:-1}
JOBS=${JOBS:-2}
CC=${GIMSO_CC:-$PWD/target/release/gimso-cc}
GIMSO_TIMEOUT=${GIMSO_TIMEOUT:-120}
CSMITH_INC=${CSMITH_INC:-/usr/include/csmith}
for tool in csmith clang-16; do
    command -v "$tool" >/dev/null || {
        echo "csmith-diff: $tool not found (apt-get install csmith libcsmith-dev clang-16)" >&2
        exit 2
    }
done
[ -f "$CSMITH_INC/csmith.h" ] || {
    echo "csmith-diff: $CSMITH_INC/csmith.h not found (apt-get install libcsmith-dev)" >&2
    exit 2
}
[ -x "$CC" ] || {
    echo "csmith-diff: $CC not found (cargo build --release -p gimso -p gimso-pass)" >&2
    exit 2
}
OUT=${OUT:-$(mktemp -d /tmp/csmith-diff.XXXXXX)}
mkdir -p "$OUT"

# One seed: prints "SEED STATUS [detail]" with STATUS one of ok, skip,
# differs, report, compile, timeout, csmith.
one() {
    local seed=$1 d="$OUT/$1"
    mkdir -p "$d"
    if ! csmith --seed "$seed" -o "$d/t.c" >/dev/null 2>&1; then
        echo "$seed csmith"
        return
    fi
    if ! clang-16 -O0 -w -I"$CSMITH_INC" "$d/t.c" -o "$d/ref" 2>"$d/ref.cc"; then
        echo "$seed skip (clang does not compile it)"
        return
    fi
    if ! timeout 10 "$d/ref" >"$d/ref.out" 2>/dev/null; then
        echo "$seed skip (reference runs over 10 s or fails)"
        return
    fi
    local opt status=ok detail=""
    for opt in -O0 -O2; do
        if ! timeout "$GIMSO_TIMEOUT" "$CC" $opt -w -I"$CSMITH_INC" "$d/t.c" -o "$d/g$opt" \
            2>"$d/g$opt.cc"; then
            status=compile
            detail="$opt: $(head -c 300 "$d/g$opt.cc" | tr '\n' ' ')"
            break
        fi
        local rc=0
        GIMSO_BACKTRACE=0 timeout "$GIMSO_TIMEOUT" "$d/g$opt" >"$d/g$opt.out" 2>"$d/g$opt.err" \
            || rc=$?
        if grep -q "^gimso: " "$d/g$opt.err"; then
            status=report
            detail="$opt: $(head -n 8 "$d/g$opt.err" | tr '\n' ' ')"
            break
        fi
        if [ "$rc" = 124 ]; then
            status=timeout
            detail="$opt"
            break
        fi
        if [ "$rc" != 0 ] || ! cmp -s "$d/ref.out" "$d/g$opt.out"; then
            status=differs
            detail="$opt: exit $rc, $(head -c 200 "$d/g$opt.out" | tr '\n' ' ') vs $(head -c 200 "$d/ref.out" | tr '\n' ' ')"
            break
        fi
    done
    echo "$seed $status${detail:+ $detail}"
    [ "$status" = ok ] && rm -rf "$d"
    return 0
}
export -f one
export OUT CC CSMITH_INC GIMSO_TIMEOUT

seq "$FIRST" $((FIRST + SEEDS - 1)) | xargs -P "$JOBS" -I{} bash -c 'one {}' >"$OUT/results"
awk '$2 != "ok" && $2 != "skip"' "$OUT/results" | sort -n
count() { awk -v s="$1" '$2 == s' "$OUT/results" | wc -l; }
ok=$(count ok)
skip=$(count skip)
failed=$((SEEDS - ok - skip))
echo "csmith-diff: $SEEDS seeds from $FIRST: $ok same, $skip skipped, $(count differs) differ," \
    "$(count report) reported, $(count compile) compile errors, $(count timeout) timeouts," \
    "$(count csmith) csmith failures (work: $OUT)"
if [ "$failed" != 0 ]; then
    exit 1
fi
rm -rf "$OUT"
