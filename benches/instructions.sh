#!/usr/bin/env bash
# Instructions the real programs' small workloads execute (valgrind's
# cachegrind: exact counts, unlike timings on a shared 2-core machine),
# gimso-cc -O2 against clang-16 -O2. The measure most compiler changes in
# BENCHMARKS.md are judged by before a timing run.
#
#   zlib    zlib_roundtrip run on the 2 MB input
#   bzip2   bzip2 -9 -c of the 2 MB input
#   lua     tests/real/lua/{gc_heavy,tables}.lua at scale 1, from a Lua built
#           here with a fixed string-hash seed and sort pivot (Lua seeds its
#           hashes from the time and addresses, and table.sort randomises its
#           pivot with clock() and time(): counts vary by about 1% between
#           runs without them)
#   sqlite  sqlite_workload with 20 000 rows
#
# Collections are off (GIMSO_GC_THRESHOLD=4G: the collector's threads would
# add their own, varying, instructions) and so is address randomisation
# (setarch -R).
#
# With EVENT=I1 it counts misses in the simulated L1 instruction cache
# instead (cachegrind --cache-sim=yes, the host's cache geometry): Lua's and
# SQLite's hot code under gimso-cc does not fit it, though this machine's
# front end hides most of what the simulation counts (see BENCHMARKS.md).
#
# Usage: benches/instructions.sh [zlib] [bzip2] [lua] [sqlite]   (default all)
# Environment: GIMSO_CC, CLANG, OUT (as scripts/real-programs.sh, whose small
# builds this runs first and reuses); EVENT=instructions (default) or I1.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$ROOT/target/real}
GIMSO_CC=${GIMSO_CC:-$ROOT/target/release/gimso-cc}
CLANG=${CLANG:-clang-16}
PROGRAMS=("$@")
[ ${#PROGRAMS[@]} -eq 0 ] && PROGRAMS=(zlib bzip2 lua sqlite)
case ${EVENT:=instructions} in
instructions) SIM=no LINE='I *refs' FMT=%.0f ;;
I1) SIM=yes LINE='I1 *misses' FMT=%.3f ;; # clang's misses can be a few thousand
*)
    echo "instructions.sh: EVENT must be instructions or I1" >&2
    exit 2
    ;;
esac

command -v valgrind >/dev/null || {
    echo "instructions.sh: needs valgrind (apt-get install -y valgrind)" >&2
    exit 2
}
command -v setarch >/dev/null || {
    echo "instructions.sh: needs setarch (util-linux)" >&2
    exit 2
}

mkdir -p "$OUT"
OUT=$OUT GIMSO_CC=$GIMSO_CC CLANG=$CLANG SIZE=small VARIANTS="clang gimso" \
    "$ROOT/scripts/real-programs.sh" "${PROGRAMS[@]}" >/dev/null 2>"$OUT/instructions.log" || {
    echo "instructions.sh: scripts/real-programs.sh failed (see $OUT/instructions.log)" >&2
    exit 1
}

# Instructions executed (or, EVENT=I1, L1 instruction-cache misses) by the
# command "$@".
count() {
    GIMSO_GC_THRESHOLD=4G setarch -R valgrind --tool=cachegrind --cache-sim=$SIM \
        --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        awk -v line="$LINE" '$0 ~ line { gsub(",", "", $NF); print $NF }'
}

# A Lua with a fixed hash seed built by compiler variant $1 into $2.
fixed_seed_lua() {
    local cc=$1 dir=$2 src=$ROOT/target/c-sources/lua f
    mkdir -p "$dir"
    for f in "$src"/*.c "$ROOT/tests/real/lua_main.c"; do
        case $(basename "$f") in lua.c | luac.c | onelua.c) continue ;; esac
        $cc -O2 -DLUA_USE_POSIX '-Dluai_makeseed(L)=0' '-Dl_randomizePivot()=0' -I"$src" -w -c "$f" \
            -o "$dir/$(basename "$f" .c).o"
    done
    $cc "$dir"/*.o -o "$dir/lua" -lm -lpthread
}

row() { # name clang-count gimso-count
    awk -v n="$1" -v c="$2" -v g="$3" -v f="$FMT" \
        'BEGIN { printf "| %s | " f " | " f " | %s |\n", n, c / 1e6, g / 1e6,
                 (c > 0 ? sprintf("%.2f", g / c) : "—") }'
}

echo "| workload ($EVENT) | clang -O2 (M) | gimso-cc -O2 (M) | × clang |"
echo "|---|---:|---:|---:|"
scratch=$OUT/instructions
mkdir -p "$scratch"
for prog in "${PROGRAMS[@]}"; do
    case $prog in
    zlib)
        mkdir -p "$scratch/zlib-clang" "$scratch/zlib-gimso"
        row "zlib round trips, 2 MB" \
            "$(count "$OUT/clang/zlib/zlib_roundtrip" run "$OUT/data/zlib-small.txt" "$scratch/zlib-clang")" \
            "$(count "$OUT/gimso/zlib/zlib_roundtrip" run "$OUT/data/zlib-small.txt" "$scratch/zlib-gimso")"
        ;;
    bzip2)
        row "bzip2 -9, 2 MB" \
            "$(count "$OUT/clang/bzip2/bzip2" -9 -c "$OUT/data/bzip2-small.txt")" \
            "$(count "$OUT/gimso/bzip2/bzip2" -9 -c "$OUT/data/bzip2-small.txt")"
        ;;
    lua)
        fixed_seed_lua "$CLANG" "$scratch/lua-clang"
        fixed_seed_lua "$GIMSO_CC" "$scratch/lua-gimso"
        for s in gc_heavy tables; do
            row "Lua $s.lua 1" \
                "$(count "$scratch/lua-clang/lua" "$ROOT/tests/real/lua/$s.lua" 1)" \
                "$(count "$scratch/lua-gimso/lua" "$ROOT/tests/real/lua/$s.lua" 1)"
        done
        ;;
    sqlite)
        rm -f "$scratch"/sqlite-*.db*
        row "SQLite 20 000 rows" \
            "$(count "$OUT/clang/sqlite/sqlite_workload" "$scratch/sqlite-clang.db" 20000)" \
            "$(count "$OUT/gimso/sqlite/sqlite_workload" "$scratch/sqlite-gimso.db" 20000)"
        ;;
    *)
        echo "instructions.sh: unknown program $prog" >&2
        exit 2
        ;;
    esac
done
