#!/usr/bin/env bash
# An allocation-heavy C workload (binary-trees, benches/c/) in three builds:
#   gimso   gimso_alloc + gimso_store_ptr/gimso_load_ptr, concurrent collector
#   boehm   GC_MALLOC from the Boehm collector (libgc)
#   malloc  glibc malloc with an explicit recursive free of every tree
# Each runs 3 times at the same depth (interleaved); the outputs must be
# identical. Prints the median wall time, peak RSS and time ratios.
#
#   benches/gc_workload.sh [max_depth]      (default 18)
set -euo pipefail
cd "$(dirname "$0")/.."

DEPTH="${1:-18}"
RUNS=3
case "$DEPTH" in
    '' | *[!0-9]*) echo "usage: $0 [max_depth]" >&2; exit 2 ;;
esac

# --- tools ---------------------------------------------------------------
missing=()
for pkg in clang-16 libgc-dev time; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
TIME=/usr/bin/time

# --- build -----------------------------------------------------------------
cargo build --release -p gimso --quiet

OUT=target/bench-c
mkdir -p "$OUT"
CFLAGS=(-O2 -g -Wall -Wextra -Werror)
clang-16 "${CFLAGS[@]}" -Iinclude benches/c/binary_trees_gimso.c target/release/libgimso.a \
    -lpthread -ldl -lm -o "$OUT/binary_trees_gimso"
clang-16 "${CFLAGS[@]}" benches/c/binary_trees_boehm.c -lgc -o "$OUT/binary_trees_boehm"
clang-16 "${CFLAGS[@]}" benches/c/binary_trees_malloc.c -o "$OUT/binary_trees_malloc"

# --- run -------------------------------------------------------------------
# run PROG ROUND: stdout to $OUT/PROG.ROUND.out, "seconds maxrss_kib" to .time
run() {
    local prog=$1 round=$2 status=0
    "$TIME" -f "%e %M" -o "$OUT/$prog.$round.time" \
        "$OUT/binary_trees_$prog" "$DEPTH" \
        >"$OUT/$prog.$round.out" 2>"$OUT/$prog.$round.err" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "binary_trees_$prog $DEPTH failed (exit status $status); stderr:" >&2
        grep -v '^Command exited with non-zero status' "$OUT/$prog.$round.time" >&2 || true
        cat "$OUT/$prog.$round.err" >&2
        exit 1
    fi
}

rm -f "$OUT"/*.out "$OUT"/*.err "$OUT"/*.time
echo "command: $0 $DEPTH"
echo "runs:    $OUT/binary_trees_{malloc,boehm,gimso} $DEPTH  ($RUNS rounds, interleaved)"
for round in $(seq 1 "$RUNS"); do
    for prog in malloc boehm gimso; do
        run "$prog" "$round"
        if ! cmp -s "$OUT/malloc.1.out" "$OUT/$prog.$round.out"; then
            echo "output of binary_trees_$prog (round $round) differs from binary_trees_malloc:" >&2
            diff "$OUT/malloc.1.out" "$OUT/$prog.$round.out" >&2 || true
            exit 1
        fi
    done
done
echo
echo "output (identical for all three):"
sed 's/^/    /' "$OUT/malloc.1.out"
for prog in gimso boehm; do
    echo "$prog stderr: $(cat "$OUT/$prog.1.err")"
done

# --- table -------------------------------------------------------------------
# median seconds and the largest peak RSS (KiB) over the rounds
stat() {
    local prog=$1
    for round in $(seq 1 "$RUNS"); do tail -n 1 "$OUT/$prog.$round.time"; done |
        sort -n -k1,1 | awk -v runs="$RUNS" '
            { t[NR] = $1; if ($2 > rss) rss = $2 }
            END { printf "%s %d\n", t[int((runs + 1) / 2)], rss }'
}
read -r t_gimso rss_gimso < <(stat gimso)
read -r t_boehm rss_boehm < <(stat boehm)
read -r t_malloc rss_malloc < <(stat malloc)

echo
echo "binary-trees, max_depth $DEPTH, median of $RUNS runs, clang-16 -O2, $(nproc) cores"
echo
echo "| program | median s | peak RSS MiB | time vs malloc | time vs Boehm |"
echo "|---|---:|---:|---:|---:|"
row() {
    awk -v p="$1" -v t="$2" -v rss="$3" -v tm="$t_malloc" -v tb="$t_boehm" 'BEGIN {
        rm = tm > 0 ? sprintf("%.2fx", t / tm) : "n/a"
        rb = tb > 0 ? sprintf("%.2fx", t / tb) : "n/a"
        printf "| %s | %.2f | %.1f | %s | %s |\n", p, t, rss / 1024, rm, rb
    }'
}
row "binary_trees_gimso" "$t_gimso" "$rss_gimso"
row "binary_trees_boehm" "$t_boehm" "$rss_boehm"
row "binary_trees_malloc" "$t_malloc" "$rss_malloc"
echo
for prog in gimso boehm malloc; do
    printf 'binary_trees_%s runs (s, peak RSS MiB):' "$prog"
    for round in $(seq 1 "$RUNS"); do
        tail -n 1 "$OUT/$prog.$round.time" | awk '{ printf " %.2f/%.1f", $1, $2 / 1024 }'
    done
    echo
done
