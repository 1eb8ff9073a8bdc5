#!/usr/bin/env bash
# Real C programs under gimso: zlib, bzip2, Lua 5.4 and SQLite,
# their sources fetched from the crates that ship them
# (scripts/fetch-c-sources.sh), built unchanged with each compiler variant,
# driven by programs written here (tests/real/) and checked against the
# plain clang build:
#   zlib     tests/real/zlib_roundtrip.c: deflate/inflate, compress2/uncompress
#            and gz* round trips of a generated file, byte-identical
#   bzip2    bzip2's own bzip2.c: the sample1..3 reference tests of its
#            Makefile, then a generated file compressed (output identical
#            to the plain build's) and decompressed (identical to the input)
#   lua      tests/real/lua_main.c running tests/real/lua/*.lua (output
#            identical to the plain build's)
#   sqlite   the amalgamation + tests/real/sqlite_workload.c (inserts,
#            indexed queries, joins, rollback; output identical) and
#            tests/real/sqlite_threads.c (four threads, one WAL database)
#   zstd     zstd's library + tests/real/zstd_roundtrip.c (one-shot and
#            streaming round trips, streaming with two worker threads, a
#            corrupted frame; output identical; the gimso build once more
#            under GIMSO_GC_VERIFY with frequent collections).
#   lz4      lz4's own command-line program: a generated file compressed at
#            levels 1 and 9 and with two worker threads (-T2; output
#            identical to the plain build's),
#            tested, and decompressed (identical to the input).
#   libdeflate  libdeflate 1.26's own test programs (checksums against
#            zlib's, invalid and incomplete streams, over-reads), then its
#            gzip program: a generated file compressed at levels 1, 6 and 12
#            (output identical to the plain build's) and decompressed
#            (identical to the input).
#   xz       xz 5.2's own test programs, its command-line program on its
#            good-*.xz (decoded) and bad-*.xz (refused) test files, then a
#            generated file compressed at -1, -6, as .lzma and with two
#            encoder threads (output identical to the plain build's) and
#            decompressed.
#   onig     Oniguruma 6.9.10's own test programs (UTF-8, back references,
#            options, regsets, syntaxes, EUC-JP, UTF-16; output identical;
#            its st.c hash tables key pointers as unsigned long through
#            calls, which keep their capabilities).
#   mozjpeg  mozjpeg's own cjpeg, djpeg and jpegtran: a generated image
#            compressed with several option sets, decompressed to PPM, BMP,
#            GIF and Targa, and transformed (outputs identical to the plain
#            build's); a truncated file is decoded as far as it goes.
#   webp     libwebp + tests/real/webp_roundtrip.c (lossy and lossless
#            RGB/RGBA round trips through its SSE2/SSE4.1 code; output
#            identical).
#   treesitter  tree-sitter's runtime and C grammar +
#            tests/real/treesitter_parse.c: zlib's sources (full: Lua's and
#            the SQLite amalgamation too) parsed, edited and reparsed
#            incrementally (output identical).
#   quickjs  QuickJS (quickjs-ng) and its qjs shell: its own test scripts
#            (output and exit status identical to the plain build's;
#            microbench.js prints timings and test_worker.js passes
#            SharedArrayBuffer pointers through bytes, which needs
#            -fgimso-exposed-provenance), then tests/real/quickjs/workload.js
#            (objects, closures, classes, strings, JSON, regular
#            expressions, collections, typed arrays, generators,
#            exceptions, promises; output identical).
#            zstd, lz4, libdeflate, xz, onig, mozjpeg, webp, treesitter and
#            quickjs are not in the default list: the headline benchmark is
#            the other four.
#
# Usage: scripts/real-programs.sh [zlib] [bzip2] [lua] [sqlite] [zstd] [lz4] [libdeflate] [xz]
#                                 [onig] [mozjpeg] [webp] [treesitter] [quickjs]
#        (default: zlib bzip2 lua sqlite)
# Environment:
#   SIZE=small|full   small (the default test run): 2 MB files, 20 000 SQLite
#                     rows, Lua scale 1, 1 MB for zstd and xz, 2 MB for lz4
#                     and libdeflate, QuickJS workload scale 1; full: a 50 MB
#                     zlib file, a 20 MB bzip2 file, 100 000 rows (300 000
#                     inserts), Lua scale 8, 8 MB for zstd and xz, 50 MB for
#                     lz4, 20 MB for libdeflate, QuickJS scale 4
#   VARIANTS="clang gimso"   builds to make and run; clang must be first (the
#                     reference). "asan" adds clang -fsanitize=address.
#   BENCH=1           after the checked runs, time every step N more times
#                     with the variants interleaved (/usr/bin/time, best of N)
#                     and print markdown tables of time and peak RSS against
#                     clang -O2
#   N=5               timed runs per step (five: on this 2-core machine single
#                     runs move by 15-30%, and best-of-three geomeans spread
#                     1.52-1.84 where best-of-five ones gave 1.67 and 1.68)
#   OPT=-O2           optimisation level of every build
#   OUT=target/real   build and scratch directory (objects are reused while
#                     newer than their source and compiler)
#   GIMSO_CC          gimso-cc (default target/release/gimso-cc)
#   GIMSO_BASE_CC     another gimso-cc (an older build, say), built and run
#                     as the variant "base" (VARIANTS="clang base gimso"), so
#                     that before/after ratios come from one interleaved run
# Exit status 0 only if every program passed under every variant.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZE=${SIZE:-small}
VARIANTS=${VARIANTS:-clang gimso}
BENCH=${BENCH:-0}
N=${N:-5}
OPT=${OPT:--O2}
OUT=${OUT:-$ROOT/target/real}
GIMSO_CC=${GIMSO_CC:-$ROOT/target/release/gimso-cc}
GIMSO_BASE_CC=${GIMSO_BASE_CC:-}
CLANG=${CLANG:-clang-16}
JOBS=${JOBS:-$(nproc)}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
PROGRAMS=("$@")
[ ${#PROGRAMS[@]} -eq 0 ] && PROGRAMS=(zlib bzip2 lua sqlite)

case "$SIZE" in
small) ZLIB_BYTES=2000000 BZ_BYTES=2000000 LUA_SCALE=1 SQL_ROWS=20000 ZSTD_BYTES=1000000 LZ4_BYTES=2000000 DEFLATE_BYTES=2000000 XZ_BYTES=1000000 JS_SCALE=1 ;;
full) ZLIB_BYTES=50000000 BZ_BYTES=20000000 LUA_SCALE=8 SQL_ROWS=100000 ZSTD_BYTES=8000000 LZ4_BYTES=50000000 DEFLATE_BYTES=20000000 XZ_BYTES=8000000 JS_SCALE=4 ;;
*) echo "real-programs.sh: SIZE must be small or full" >&2; exit 2 ;;
esac
if [ "${VARIANTS%% *}" != clang ]; then
    echo "real-programs.sh: VARIANTS must start with clang (the reference build)" >&2
    exit 2
fi
if [ "$BENCH" = 1 ] && [ ! -x /usr/bin/time ]; then
    echo "real-programs.sh: BENCH=1 needs /usr/bin/time (apt-get install -y time)" >&2
    exit 2
fi

SRC=$ROOT/target/c-sources
if [ ! -e "$SRC/sqlite/sqlite3.c" ] || [ ! -e "$SRC/lua/lua.h" ] || [ ! -e "$SRC/zstd/zstd.h" ] \
    || [ ! -e "$SRC/lz4/lib/lz4.h" ] || [ ! -e "$SRC/libdeflate/libdeflate.h" ] \
    || [ ! -e "$SRC/xz/config.h" ] || [ ! -e "$SRC/onig/src/oniguruma.h" ] \
    || [ ! -e "$SRC/mozjpeg/jpeglib.h" ] || [ ! -e "$SRC/webp/src/webp/encode.h" ] \
    || [ ! -e "$SRC/tree-sitter-c/parser.c" ] || [ ! -e "$SRC/quickjs/quickjs.c" ]; then
    "$ROOT/scripts/fetch-c-sources.sh" >/dev/null || exit 2
fi
DATA=$OUT/data
mkdir -p "$DATA"

log() { echo "== $*" >&2; }
FAILED=()
fail() {
    echo "FAILED: $*" >&2
    FAILED+=("$*")
}

compiler() {
    case "$1" in
    clang) echo "$CLANG $OPT" ;;
    asan) echo "$CLANG $OPT -fsanitize=address" ;;
    gimso) echo "$GIMSO_CC $OPT" ;;
    base) echo "$GIMSO_BASE_CC $OPT" ;;
    esac
}
# What a build depends on besides its source: the compiler (and runtime).
stamp() {
    case "$1" in
    gimso) echo "$GIMSO_CC $(dirname "$GIMSO_CC")/libgimso.a" ;;
    base) echo "$GIMSO_BASE_CC $(dirname "$GIMSO_BASE_CC")/libgimso.a" ;;
    *) command -v "$CLANG" ;;
    esac
}

# build_objs VARIANT DIR FLAGS -- SOURCES...: compiles each source into DIR
# (JOBS at a time) unless its object is newer than it and the compiler.
build_objs() {
    local variant=$1 dir=$2 flags=$3
    shift 4
    mkdir -p "$dir"
    local cc pids=() src obj dep stale rc=0 all_stale=0
    cc=$(compiler "$variant")
    # Objects built with other flags are stale too.
    if [ "$(cat "$dir/flags" 2>/dev/null)" != "$flags" ]; then
        all_stale=1
        printf '%s' "$flags" >"$dir/flags"
    fi
    for src in "$@"; do
        obj=$dir/$(basename "${src%.c}").o
        stale=$all_stale
        [ -e "$obj" ] || stale=1
        for dep in "$src" $(stamp "$variant"); do
            [ "$dep" -nt "$obj" ] && stale=1
        done
        [ $stale = 0 ] && continue
        # shellcheck disable=SC2086
        $cc $flags -c "$src" -o "$obj" 2>"$obj.log" &
        pids+=($!)
        if [ ${#pids[@]} -ge "$JOBS" ]; then
            wait "${pids[0]}" || rc=1
            pids=("${pids[@]:1}")
        fi
    done
    for p in "${pids[@]}"; do wait "$p" || rc=1; done
    if [ $rc != 0 ]; then
        grep -h -m5 "error" "$dir"/*.log >&2
        return 1
    fi
}

# link VARIANT OUTPUT ARGS...
link() {
    local variant=$1 output=$2
    shift 2
    local cc
    cc=$(compiler "$variant")
    # shellcheck disable=SC2086
    $cc "$@" -o "$output" -lm -lpthread 2>"$output.log" || { cat "$output.log" >&2; return 1; }
}

# run_timed NAME VARIANT CMD... runs CMD once (stdout to $LAST_OUT, stderr
# to $LAST_OUT.err) for the correctness checks that follow it. With BENCH=1
# it also records the step; the timing pass after every build (below) runs
# each recorded step N more times with the variants interleaved, so that the
# machine's drift over minutes (clang's own times vary by up to 25% here)
# falls on every variant alike.
declare -A TIME RSS CMD OUTF NSTEP
run_timed() {
    local key=$1 variant=$2 k
    shift 2
    "$@" >"$LAST_OUT" 2>"$LAST_OUT.err" || return 1
    if [ "$BENCH" = 1 ]; then
        k=$((${NSTEP[$key/$variant]:-0} + 1))
        NSTEP[$key/$variant]=$k
        CMD[$key/$k/$variant]=$(printf '%q ' "$@")
        OUTF[$key/$k/$variant]=$LAST_OUT
    fi
    return 0
}

# time_steps: the timing pass. Round r runs, for each program and step, the
# step under every variant (in reverse order on odd rounds); a step's time
# is its best, a program's the sum of its steps' bests, its RSS the peak.
time_steps() {
    local r prog k v order best t line
    declare -A BEST
    log "timing: best of $N, variants interleaved"
    for ((r = 0; r < N; r++)); do
        order=$VARIANTS
        [ $((r % 2)) = 1 ] && order=$(printf '%s\n' $VARIANTS | tac | tr '\n' ' ')
        for prog in "${PROGRAMS[@]}"; do
            for ((k = 1; k <= ${NSTEP[$prog/clang]:-0}; k++)); do
                for v in $order; do
                    [ -n "${CMD[$prog/$k/$v]:-}" ] || continue
                    if ! eval "/usr/bin/time -f '%e %M' -o '$OUT/time.txt' ${CMD[$prog/$k/$v]}" \
                        >"${OUTF[$prog/$k/$v]}" 2>"${OUTF[$prog/$k/$v]}.err"; then
                        fail "$prog: timed run $k ($v)"
                        continue
                    fi
                    line=$(tail -1 "$OUT/time.txt")
                    t=${line% *}
                    best=${BEST[$prog/$k/$v]:-}
                    BEST[$prog/$k/$v]=$(awk -v a="$best" -v b="$t" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
                    [ "${line#* }" -gt "${RSS[$prog/$v]:-0}" ] && RSS[$prog/$v]=${line#* }
                done
            done
        done
    done
    for prog in "${PROGRAMS[@]}"; do
        for v in $VARIANTS; do
            for ((k = 1; k <= ${NSTEP[$prog/$v]:-0}; k++)); do
                TIME[$prog/$v]=$(awk -v a="${TIME[$prog/$v]:-0}" -v b="${BEST[$prog/$k/$v]:-}" 'BEGIN { print a + b }')
            done
        done
    done
    rm -f "$OUT"/*/{bzip2,lz4,libdeflate,xz}/tmp/big.out
}

# same_as_reference NAME VARIANT FILE: FILE equals the clang run's copy.
same_as_reference() {
    local name=$1 variant=$2 file=$3
    if [ "$variant" = clang ]; then
        cp "$file" "$DATA/$name.reference"
        return 0
    fi
    cmp -s "$file" "$DATA/$name.reference" || {
        diff "$DATA/$name.reference" "$file" | head -10 >&2
        return 1
    }
}

program_zlib() {
    local v=$1 dir=$OUT/$1/zlib
    local flags="-DHAVE_UNISTD_H -DHAVE_STDARG_H -D_LARGEFILE64_SOURCE=1 -I$SRC/zlib"
    build_objs "$v" "$dir/obj" "$flags" -- "$SRC"/zlib/*.c "$ROOT/tests/real/zlib_roundtrip.c" \
        && link "$v" "$dir/zlib_roundtrip" "$dir"/obj/*.o || { fail "zlib: build ($v)"; return; }
    local input=$DATA/zlib-$SIZE.txt
    [ -e "$input" ] || "$dir/zlib_roundtrip" gen "$ZLIB_BYTES" "$input" || { fail "zlib: gen"; return; }
    mkdir -p "$dir/tmp"
    LAST_OUT=$dir/out.txt
    run_timed zlib "$v" "$dir/zlib_roundtrip" run "$input" "$dir/tmp" \
        || { fail "zlib: run ($v): $(tail -3 "$LAST_OUT.err")"; return; }
    same_as_reference zlib "$v" "$LAST_OUT" || { fail "zlib: output differs ($v)"; return; }
    grep -q "all round trips identical" "$LAST_OUT" || fail "zlib: round trip ($v)"
}

program_bzip2() {
    local v=$1 dir=$OUT/$1/bzip2 s=$SRC/bzip2 bz
    build_objs "$v" "$dir/obj" "-D_FILE_OFFSET_BITS=64 -w" -- \
        "$s"/{blocksort,huffman,crctable,randtable,compress,decompress,bzlib,bzip2}.c \
        && link "$v" "$dir/bzip2" "$dir"/obj/*.o || { fail "bzip2: build ($v)"; return; }
    bz=$dir/bzip2
    mkdir -p "$dir/tmp"
    local i lvl
    for i in 1 2 3; do
        lvl=$i
        "$bz" -$lvl <"$s/sample$i.ref" >"$dir/tmp/sample$i.rb2" 2>"$dir/tmp/err" \
            && cmp -s "$dir/tmp/sample$i.rb2" "$s/sample$i.bz2" \
            || { fail "bzip2: sample$i compress ($v): $(tail -2 "$dir/tmp/err")"; return; }
        local dflag=-d
        [ $i = 3 ] && dflag=-ds
        "$bz" $dflag <"$s/sample$i.bz2" >"$dir/tmp/sample$i.tst" 2>"$dir/tmp/err" \
            && cmp -s "$dir/tmp/sample$i.tst" "$s/sample$i.ref" \
            || { fail "bzip2: sample$i decompress ($v): $(tail -2 "$dir/tmp/err")"; return; }
    done
    local input=$DATA/bzip2-$SIZE.txt
    if [ ! -e "$input" ]; then
        [ -x "$OUT/clang/zlib/zlib_roundtrip" ] || program_zlib clang
        "$OUT/clang/zlib/zlib_roundtrip" gen "$BZ_BYTES" "$input" || { fail "bzip2: gen"; return; }
    fi
    LAST_OUT=$dir/tmp/big.bz2
    run_timed bzip2 "$v" "$bz" -9 -c "$input" || { fail "bzip2: compress ($v)"; return; }
    same_as_reference bzip2 "$v" "$LAST_OUT" || { fail "bzip2: compressed output differs ($v)"; return; }
    LAST_OUT=$dir/tmp/big.out
    run_timed bzip2 "$v" "$bz" -d -c "$dir/tmp/big.bz2" || { fail "bzip2: decompress ($v)"; return; }
    cmp -s "$LAST_OUT" "$input" || fail "bzip2: decompressed file differs ($v)"
    rm -f "$dir/tmp/big.out"
}

program_lua() {
    local v=$1 dir=$OUT/$1/lua srcs=() f
    for f in "$SRC"/lua/*.c; do
        case $(basename "$f") in lua.c | luac.c | onelua.c) continue ;; esac
        srcs+=("$f")
    done
    build_objs "$v" "$dir/obj" "-DLUA_USE_POSIX -I$SRC/lua -w" -- "${srcs[@]}" "$ROOT/tests/real/lua_main.c" \
        && link "$v" "$dir/lua" "$dir"/obj/*.o || { fail "lua: build ($v)"; return; }
    local script name
    for script in "$ROOT"/tests/real/lua/*.lua; do
        name=$(basename "$script" .lua)
        LAST_OUT=$dir/$name.out
        run_timed lua "$v" "$dir/lua" "$script" "$LUA_SCALE" \
            || { fail "lua: $name ($v): $(tail -3 "$LAST_OUT.err")"; continue; }
        same_as_reference "lua-$name" "$v" "$LAST_OUT" || fail "lua: $name output differs ($v)"
    done
}

program_sqlite() {
    local v=$1 dir=$OUT/$1/sqlite
    build_objs "$v" "$dir/obj" "-DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=1 -I$SRC/sqlite -w" -- \
        "$SRC/sqlite/sqlite3.c" "$ROOT/tests/real/sqlite_workload.c" \
        && link "$v" "$dir/sqlite_workload" "$dir"/obj/*.o || { fail "sqlite: build ($v)"; return; }
    mkdir -p "$dir/tmp"
    LAST_OUT=$dir/out.txt
    run_timed sqlite "$v" "$dir/sqlite_workload" "$dir/tmp/test.db" "$SQL_ROWS" \
        || { fail "sqlite: run ($v): $(tail -3 "$LAST_OUT.err")"; return; }
    same_as_reference sqlite "$v" "$LAST_OUT" || { fail "sqlite: output differs ($v)"; return; }
    grep -q "integrity_check=ok" "$LAST_OUT" || fail "sqlite: integrity ($v)"
    # Four threads, a connection each, on one WAL database.
    build_objs "$v" "$dir/tobj" "-DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=1 -pthread -I$SRC/sqlite -w" -- \
        "$ROOT/tests/real/sqlite_threads.c" \
        && link "$v" "$dir/sqlite_threads" "$dir/tobj/sqlite_threads.o" "$dir/obj/sqlite3.o" \
        || { fail "sqlite: build threads ($v)"; return; }
    LAST_OUT=$dir/threads.txt
    run_timed sqlite "$v" "$dir/sqlite_threads" "$dir/tmp/threads.db" 4 "$((SQL_ROWS / 10))" \
        || { fail "sqlite: threads ($v): $(tail -3 "$LAST_OUT" "$LAST_OUT.err")"; return; }
    same_as_reference sqlite-threads "$v" "$LAST_OUT" || { fail "sqlite: threads output differs ($v)"; return; }
    grep -q "all rows committed" "$LAST_OUT" || fail "sqlite: threads ($v)"
}

program_zstd() {
    local v=$1 dir=$OUT/$1/zstd z=$SRC/zstd
    # ZSTD_DISABLE_ASM: the amd64 Huffman decoder is an assembly file. The
    # library's register-only inline asm and its weak tracing hooks
    # (undefined here, so null) compile as they are.
    build_objs "$v" "$dir/obj" "-DZSTD_DISABLE_ASM -DZSTD_MULTITHREAD -pthread -I$z -I$z/common -w" -- \
        "$z"/common/*.c "$z"/compress/*.c "$z"/decompress/*.c "$ROOT/tests/real/zstd_roundtrip.c" \
        && link "$v" "$dir/zstd_roundtrip" "$dir"/obj/*.o || { fail "zstd: build ($v)"; return; }
    LAST_OUT=$dir/out.txt
    run_timed zstd "$v" "$dir/zstd_roundtrip" "$ZSTD_BYTES" \
        || { fail "zstd: run ($v): $(tail -3 "$LAST_OUT" "$LAST_OUT.err")"; return; }
    same_as_reference zstd "$v" "$LAST_OUT" || { fail "zstd: output differs ($v)"; return; }
    grep -q "all round trips identical" "$LAST_OUT" || fail "zstd: round trip ($v)"
    if [ "$v" = gimso ]; then
        # Worker threads under the collector's verifier, collecting often
        # (once crashed it: it followed a dead frame's capability left in an
        # argument buffer).
        GIMSO_GC_THRESHOLD=256K GIMSO_GC_VERIFY=1 "$dir/zstd_roundtrip" 600000 >"$dir/verify.txt" 2>&1 \
            && grep -q "all round trips identical" "$dir/verify.txt" \
            || fail "zstd: under GIMSO_GC_VERIFY ($v): $(tail -3 "$dir/verify.txt")"
    fi
}

program_lz4() {
    local v=$1 dir=$OUT/$1/lz4 l=$SRC/lz4 lz
    # LZ4IO_MULTITHREAD: `-T2` compresses with a pool of worker threads.
    build_objs "$v" "$dir/obj" "-DLZ4IO_MULTITHREAD=1 -pthread -I$l/lib -w" -- "$l"/lib/*.c "$l"/programs/*.c \
        && link "$v" "$dir/lz4" "$dir"/obj/*.o || { fail "lz4: build ($v)"; return; }
    lz=$dir/lz4
    mkdir -p "$dir/tmp"
    local input=$DATA/lz4-$SIZE.txt
    if [ ! -e "$input" ]; then
        [ -x "$OUT/clang/zlib/zlib_roundtrip" ] || program_zlib clang
        "$OUT/clang/zlib/zlib_roundtrip" gen "$LZ4_BYTES" "$input" || { fail "lz4: gen"; return; }
    fi
    local lvl
    for lvl in 1 9; do
        LAST_OUT=$dir/tmp/big$lvl.lz4
        run_timed lz4 "$v" "$lz" -"$lvl" -c "$input" || { fail "lz4: compress -$lvl ($v)"; return; }
        same_as_reference "lz4-$lvl" "$v" "$LAST_OUT" || { fail "lz4: -$lvl output differs ($v)"; return; }
    done
    # Two worker threads (jobs are 4 MB chunks, so the input is made to
    # hold several): the same frames as the plain build's.
    local mt_input=$dir/tmp/mt-input
    cat "$input" "$input" "$input" "$input" "$input" >"$mt_input"
    LAST_OUT=$dir/tmp/big-mt.lz4
    run_timed lz4 "$v" "$lz" -1 -T2 -c "$mt_input" || { fail "lz4: compress -1 -T2 ($v)"; return; }
    same_as_reference "lz4-mt" "$v" "$LAST_OUT" || { fail "lz4: -T2 output differs ($v)"; return; }
    rm -f "$mt_input"
    "$lz" -t "$dir/tmp/big9.lz4" 2>"$dir/tmp/test.err" || { fail "lz4: -t ($v)"; return; }
    LAST_OUT=$dir/tmp/big.out
    run_timed lz4 "$v" "$lz" -d -c "$dir/tmp/big9.lz4" || { fail "lz4: decompress ($v)"; return; }
    cmp -s "$LAST_OUT" "$input" || fail "lz4: decompressed file differs ($v)"
    rm -f "$dir/tmp/big.out"
}

program_libdeflate() {
    local v=$1 dir=$OUT/$1/libdeflate d=$SRC/libdeflate gz t
    mkdir -p "$dir/cfg" "$dir/tmp"
    # What the CMake build's configure step finds on Linux.
    printf '#define HAVE_%s 1\n' CLOCK_GETTIME FUTIMENS POSIX_FADVISE POSIX_MADVISE \
        STAT_NANOSECOND_PRECISION >"$dir/cfg/config.h"
    local flags="-DHAVE_CONFIG_H -I$dir/cfg -I$d -I$SRC/zlib -w"
    local tests=(test_checksums test_custom_malloc test_incomplete_codes test_invalid_streams
        test_litrunlen_overflow test_overread test_slow_decompression test_trailing_bytes)
    build_objs "$v" "$dir/obj" "$flags" -- "$d"/lib/*.c "$d"/lib/x86/cpu_features.c \
        && build_objs "$v" "$dir/zobj" "-DHAVE_UNISTD_H -I$SRC/zlib -w" -- \
            "$SRC"/zlib/{adler32,crc32,deflate,inflate,inftrees,inffast,trees,zutil}.c \
        && build_objs "$v" "$dir/pobj" "$flags" -- "$d"/programs/{gzip,prog_util,tgetopt,test_util}.c \
            $(printf "$d/programs/%s.c " "${tests[@]}") \
        && link "$v" "$dir/gzip" "$dir"/obj/*.o "$dir"/pobj/{gzip,prog_util,tgetopt}.o \
        || { fail "libdeflate: build ($v)"; return; }
    for t in "${tests[@]}"; do
        link "$v" "$dir/$t" "$dir"/obj/*.o "$dir"/zobj/*.o "$dir"/pobj/{"$t",test_util,prog_util,tgetopt}.o \
            || { fail "libdeflate: build $t ($v)"; return; }
        "$dir/$t" >"$dir/tmp/$t.out" 2>&1 || { fail "libdeflate: $t ($v): $(tail -3 "$dir/tmp/$t.out")"; return; }
    done
    gz=$dir/gzip
    local input=$DATA/libdeflate-$SIZE.txt
    if [ ! -e "$input" ]; then
        [ -x "$OUT/clang/zlib/zlib_roundtrip" ] || program_zlib clang
        "$OUT/clang/zlib/zlib_roundtrip" gen "$DEFLATE_BYTES" "$input" || { fail "libdeflate: gen"; return; }
    fi
    local lvl
    for lvl in 1 6 12; do
        LAST_OUT=$dir/tmp/big$lvl.gz
        run_timed libdeflate "$v" "$gz" -"$lvl" -c "$input" || { fail "libdeflate: gzip -$lvl ($v)"; return; }
        same_as_reference "libdeflate-$lvl" "$v" "$LAST_OUT" || { fail "libdeflate: -$lvl output differs ($v)"; return; }
    done
    LAST_OUT=$dir/tmp/big.out
    run_timed libdeflate "$v" "$gz" -d -c "$dir/tmp/big12.gz" || { fail "libdeflate: gzip -d ($v)"; return; }
    cmp -s "$LAST_OUT" "$input" || fail "libdeflate: decompressed file differs ($v)"
    rm -f "$dir/tmp/big.out"
}

program_xz() {
    local v=$1 dir=$OUT/$1/xz x=$SRC/xz/xz-5.2 xz t f srcs=()
    mkdir -p "$dir/cfg" "$dir/tmp"
    # lzma-sys's config.h covers the library; the command-line program
    # also needs what xz's configure script would define.
    printf '%s\n' '#define _GNU_SOURCE 1' '#define PACKAGE "xz"' '#define VERSION "5.2"' \
        '#define LOCALEDIR "/usr/share/locale"' '#define ASSUME_RAM 128' \
        '#define PACKAGE_BUGREPORT "lasse.collin@tukaani.org"' '#define PACKAGE_NAME "XZ Utils"' \
        '#define PACKAGE_URL "https://tukaani.org/xz/"' '#define HAVE_DECODERS 1' \
        '#define HAVE_ENCODERS 1' >"$dir/cfg/extra.h"
    local inc="-DHAVE_CONFIG_H=1 -std=gnu99 -pthread -include $dir/cfg/extra.h -I$SRC/xz -I$x/src/common -w"
    for f in api lzma lz check simple delta common rangecoder; do inc+=" -I$x/src/liblzma/$f"; done
    for f in "$x"/src/liblzma/{common,lzma,lz,check,delta,rangecoder,simple}/*.c; do
        case $(basename "$f") in *tablegen.c | *_small.c) continue ;; esac
        srcs+=("$f")
    done
    local tests=(test_check test_stream_flags test_filter_flags test_block_header test_index)
    build_objs "$v" "$dir/obj" "$inc" -- "${srcs[@]}" "$x"/src/common/tuklib_{cpucores,physmem}.c \
        && build_objs "$v" "$dir/xobj" "$inc" -- "$x"/src/xz/*.c \
            "$x"/src/common/tuklib_{exit,mbstr_fw,mbstr_width,open_stdxxx,progname}.c \
        && build_objs "$v" "$dir/tobj" "$inc -I$x/tests" -- $(printf "$x/tests/%s.c " "${tests[@]}") \
        && link "$v" "$dir/xz" "$dir"/xobj/*.o "$dir"/obj/*.o || { fail "xz: build ($v)"; return; }
    for t in "${tests[@]}"; do
        link "$v" "$dir/$t" "$dir/tobj/$t.o" "$dir"/obj/*.o || { fail "xz: build $t ($v)"; return; }
        (cd "$x/tests" && "$dir/$t") >"$dir/tmp/$t.out" 2>&1 \
            || { fail "xz: $t ($v): $(tail -3 "$dir/tmp/$t.out")"; return; }
    done
    xz=$dir/xz
    for f in "$x"/tests/files/good-*.xz; do
        "$xz" -dc "$f" >/dev/null 2>"$dir/tmp/err" || { fail "xz: $(basename "$f") refused ($v): $(head -3 "$dir/tmp/err")"; return; }
    done
    for f in "$x"/tests/files/bad-*.xz; do
        if "$xz" -dc "$f" >/dev/null 2>"$dir/tmp/err"; then fail "xz: $(basename "$f") accepted ($v)"; return; fi
        if grep -q "gimso: " "$dir/tmp/err"; then fail "xz: $(basename "$f") ($v): $(head -3 "$dir/tmp/err")"; return; fi
    done
    local input=$DATA/xz-$SIZE.txt
    if [ ! -e "$input" ]; then
        [ -x "$OUT/clang/zlib/zlib_roundtrip" ] || program_zlib clang
        "$OUT/clang/zlib/zlib_roundtrip" gen "$XZ_BYTES" "$input" || { fail "xz: gen"; return; }
    fi
    local step
    for step in 1 6 lzma mt; do
        LAST_OUT=$dir/tmp/big$step.xz
        case $step in
        lzma) run_timed xz "$v" "$xz" --format=lzma -3 -c "$input" ;;
        # Two encoder threads, one block each at a time (liblzma's own
        # thread pool: mutexes, timed condition waits).
        mt) run_timed xz "$v" "$xz" -T2 -1 --block-size=256KiB -c "$input" ;;
        *) run_timed xz "$v" "$xz" -"$step" -c "$input" ;;
        esac || { fail "xz: compress $step ($v)"; return; }
        same_as_reference "xz-$step" "$v" "$LAST_OUT" || { fail "xz: $step output differs ($v)"; return; }
    done
    LAST_OUT=$dir/tmp/big.out
    run_timed xz "$v" "$xz" -dc "$dir/tmp/big6.xz" || { fail "xz: decompress ($v)"; return; }
    cmp -s "$LAST_OUT" "$input" || fail "xz: decompressed file differs ($v)"
    rm -f "$dir/tmp/big.out"
}

program_onig() {
    local v=$1 dir=$OUT/$1/onig o=$SRC/onig t srcs=() f
    mkdir -p "$dir/cfg" "$dir/tmp"
    # What onig_sys's build script writes for Linux.
    printf '#define %s\n' 'HAVE_PROTOTYPES 1' 'STDC_HEADERS 1' 'HAVE_STRING_H 1' 'HAVE_STDARG_H 1' \
        'HAVE_STDLIB_H 1' 'HAVE_LIMITS_H 1' 'HAVE_INTTYPES_H 1' 'SIZEOF_INT 4' 'SIZEOF_SHORT 2' \
        'SIZEOF_LONG 8' 'SIZEOF_VOIDP 8' 'SIZEOF_LONG_LONG 8' 'HAVE_UNISTD_H 1' \
        'HAVE_SYS_TYPES_H 1' 'HAVE_SYS_TIME_H 1' 'HAVE_ALLOCA_H 1' >"$dir/cfg/config.h"
    local flags="-I$dir/cfg -I$o/src -w"
    for f in regparse regcomp regexec regenc regerror regext regsyntax regtrav regversion st reggnu \
        unicode unicode_unfold_key unicode_fold1_key unicode_fold2_key unicode_fold3_key ascii utf8 \
        utf16_be utf16_le utf32_be utf32_le euc_jp euc_jp_prop sjis sjis_prop iso8859_{1,2,3,4,5,6} \
        iso8859_{7,8,9,10,11,13,14,15,16} euc_tw euc_kr big5 gb18030 koi8_r cp1251 onig_init \
        regposix regposerr; do
        srcs+=("$o/src/$f.c")
    done
    # testp (the POSIX API) is left out: it fails in the plain build too.
    local tests=(test_utf8 test_back test_options test_regset test_syntax testc testu)
    build_objs "$v" "$dir/obj" "$flags" -- "${srcs[@]}" \
        && build_objs "$v" "$dir/tobj" "$flags" -- $(printf "$o/test/%s.c " "${tests[@]}") \
        || { fail "onig: build ($v)"; return; }
    for t in "${tests[@]}"; do
        link "$v" "$dir/$t" "$dir/tobj/$t.o" "$dir"/obj/*.o || { fail "onig: build $t ($v)"; return; }
        LAST_OUT=$dir/tmp/$t.out
        run_timed onig "$v" "$dir/$t" || { fail "onig: $t ($v): $(tail -3 "$LAST_OUT" "$LAST_OUT.err")"; return; }
        grep -q "FAIL: 0,  ERROR: 0" "$LAST_OUT" || { fail "onig: $t ($v): $(tail -1 "$LAST_OUT")"; return; }
        same_as_reference "onig-$t" "$v" "$LAST_OUT" || { fail "onig: $t output differs ($v)"; return; }
    done
}

program_mozjpeg() {
    local v=$1 dir=$OUT/$1/mozjpeg m=$SRC/mozjpeg f srcs=() tool
    mkdir -p "$dir/cfg" "$dir/tmp"
    # The configuration mozjpeg-sys's build script writes (no SIMD).
    printf '#define %s\n' 'JPEG_LIB_VERSION 62' 'LIBJPEG_TURBO_VERSION 0' 'BITS_IN_JSAMPLE 8' \
        'STDC_HEADERS 1' 'HAVE_STDLIB_H 1' 'HAVE_UNSIGNED_CHAR 1' 'HAVE_UNSIGNED_SHORT 1' \
        'MEM_SRCDST_SUPPORTED 1' 'C_ARITH_CODING_SUPPORTED 1' 'D_ARITH_CODING_SUPPORTED 1' \
        >"$dir/cfg/jconfig.h"
    printf '#define %s\n' 'BUILD "gimso"' 'INLINE inline __attribute__((always_inline))' \
        'HIDDEN __attribute__((visibility("hidden")))' 'HAVE_THREAD_LOCAL' 'THREAD_LOCAL __thread' \
        'SIZEOF_SIZE_T 8' 'HAVE_BUILTIN_CTZL 1' 'FALLTHROUGH' 'PACKAGE_NAME "mozjpeg"' \
        'VERSION "4.1.5"' >"$dir/cfg/jconfigint.h"
    printf '#define %s\n' 'JVERSION "4.1.5"' 'JCOPYRIGHT "libjpeg-turbo, Mozilla"' \
        'JCOPYRIGHT_SHORT JCOPYRIGHT' >"$dir/cfg/jversion.h"
    for f in jcapimin jcapistd jccoefct jccolor jcdctmgr jcext jchuff jcinit jcmainct jcmarker \
        jcmaster jcomapi jcparam jcphuff jcprepct jcsample jctrans jdapimin jdapistd jdatadst \
        jdatasrc jdcoefct jdcolor jddctmgr jdhuff jdinput jdmainct jdmarker jdmaster jdmerge \
        jdphuff jdpostct jdsample jdtrans jerror jfdctflt jfdctfst jfdctint jidctflt jidctfst \
        jidctint jidctred jmemmgr jmemnobs jquant1 jquant2 jutils jcicc jdicc jcarith jdarith \
        jaricom jsimd_none; do
        srcs+=("$m/$f.c")
    done
    local flags="-I$dir/cfg -I$m -w -DBMP_SUPPORTED -DGIF_SUPPORTED -DPPM_SUPPORTED -DTARGA_SUPPORTED"
    build_objs "$v" "$dir/obj" "$flags" -- "${srcs[@]}" \
        && build_objs "$v" "$dir/tobj" "$flags" -- "$m"/{cjpeg,djpeg,jpegtran,cdjpeg,rdgif,rdppm}.c \
            "$m"/{rdswitch,rdbmp,rdtarga,rdjpeg,wrgif,wrppm,rdcolmap,wrbmp,wrtarga,transupp}.c \
        && link "$v" "$dir/cjpeg" "$dir"/obj/*.o "$dir"/tobj/{cjpeg,cdjpeg,rdgif,rdppm,rdswitch,rdbmp,rdtarga,rdjpeg}.o \
        && link "$v" "$dir/djpeg" "$dir"/obj/*.o "$dir"/tobj/{djpeg,cdjpeg,wrgif,wrppm,rdcolmap,wrbmp,wrtarga}.o \
        && link "$v" "$dir/jpegtran" "$dir"/obj/*.o "$dir"/tobj/{jpegtran,cdjpeg,rdswitch,transupp}.o \
        || { fail "mozjpeg: build ($v)"; return; }
    local input=$DATA/mozjpeg-$SIZE.ppm
    [ -e "$input" ] || python3 -c '
import math, sys
w, h = (613, 427) if sys.argv[2] == "small" else (2400, 1800)
out = bytearray(b"P6\n%d %d\n255\n" % (w, h))
for y in range(h):
    for x in range(w):
        out += bytes([x * 255 // w, y * 255 // h, int(128 + 127 * math.sin(x * 0.05) * math.cos(y * 0.07)) & 255])
open(sys.argv[1], "wb").write(out)' "$input" "$SIZE" || { fail "mozjpeg: gen"; return; }
    local i=0 opts
    for opts in "-quality 75" "-quality 95 -progressive" "-arithmetic" "-baseline -quality 50 -optimize" \
        "-grayscale" "-sample 1x1 -dct float"; do
        i=$((i + 1))
        LAST_OUT=$dir/tmp/c$i.jpg
        # shellcheck disable=SC2086
        run_timed mozjpeg "$v" "$dir/cjpeg" $opts "$input" || { fail "mozjpeg: cjpeg $opts ($v)"; return; }
        same_as_reference "mozjpeg-c$i" "$v" "$LAST_OUT" || { fail "mozjpeg: cjpeg $opts output differs ($v)"; return; }
    done
    for opts in "-ppm" "-bmp" "-gif -colors 64" "-targa -scale 1/2" "-dct int -nosmooth" "-fast"; do
        for f in 1 2 3; do
            i=$((i + 1))
            LAST_OUT=$dir/tmp/d$i.out
            # shellcheck disable=SC2086
            run_timed mozjpeg "$v" "$dir/djpeg" $opts "$dir/tmp/c$f.jpg" || { fail "mozjpeg: djpeg $opts ($v)"; return; }
            same_as_reference "mozjpeg-d$i" "$v" "$LAST_OUT" || { fail "mozjpeg: djpeg $opts c$f output differs ($v)"; return; }
        done
    done
    for opts in "-rotate 90" "-flip horizontal" "-progressive" "-crop 100x100+10+10" "-transpose" "-arithmetic"; do
        i=$((i + 1))
        LAST_OUT=$dir/tmp/t$i.jpg
        # shellcheck disable=SC2086
        run_timed mozjpeg "$v" "$dir/jpegtran" $opts "$dir/tmp/c1.jpg" || { fail "mozjpeg: jpegtran $opts ($v)"; return; }
        same_as_reference "mozjpeg-t$i" "$v" "$LAST_OUT" || { fail "mozjpeg: jpegtran $opts output differs ($v)"; return; }
    done
    head -c 5000 "$dir/tmp/c1.jpg" >"$dir/tmp/truncated.jpg"
    LAST_OUT=$dir/tmp/truncated.ppm
    local rc=0
    "$dir/djpeg" "$dir/tmp/truncated.jpg" >"$LAST_OUT" 2>"$dir/tmp/truncated.err" || rc=$?
    # djpeg's exit status after a warning is 2.
    [ $rc = 2 ] || { fail "mozjpeg: truncated ($v): status $rc: $(head -3 "$dir/tmp/truncated.err")"; return; }
    grep -q "Premature end of JPEG file" "$dir/tmp/truncated.err" || { fail "mozjpeg: truncated warning ($v)"; return; }
    same_as_reference mozjpeg-truncated "$v" "$LAST_OUT" || fail "mozjpeg: truncated output differs ($v)"
}

program_webp() {
    local v=$1 dir=$OUT/$1/webp w=$SRC/webp d
    # Objects by directory: several directories hold files of one name.
    for d in dec enc dsp utils sharpyuv; do
        local sub=("$w/src/$d"/*.c)
        [ $d = sharpyuv ] && sub=("$w"/sharpyuv/*.c)
        build_objs "$v" "$dir/obj-$d" "-I$w -I$w/src -w" -- "${sub[@]}" || { fail "webp: build ($v)"; return; }
    done
    build_objs "$v" "$dir/obj" "-I$w/src -w" -- "$ROOT/tests/real/webp_roundtrip.c" \
        && link "$v" "$dir/webp_roundtrip" "$dir"/obj/*.o "$dir"/obj-*/*.o || { fail "webp: build ($v)"; return; }
    LAST_OUT=$dir/out.txt
    local scale=1
    [ "$SIZE" = full ] && scale=6
    run_timed webp "$v" "$dir/webp_roundtrip" "$scale" \
        || { fail "webp: run ($v): $(tail -3 "$LAST_OUT" "$LAST_OUT.err")"; return; }
    same_as_reference webp "$v" "$LAST_OUT" || { fail "webp: output differs ($v)"; return; }
    grep -q "all round trips as expected" "$LAST_OUT" || fail "webp: round trip ($v)"
}

program_treesitter() {
    local v=$1 dir=$OUT/$1/treesitter t=$SRC/tree-sitter
    build_objs "$v" "$dir/obj" "-I$t/include -I$t/src -I$SRC/tree-sitter-c -w" -- "$t/src/lib.c" \
        "$SRC/tree-sitter-c/parser.c" "$ROOT/tests/real/treesitter_parse.c" \
        && link "$v" "$dir/treesitter_parse" "$dir"/obj/*.o || { fail "treesitter: build ($v)"; return; }
    local inputs=("$SRC"/zlib/*.c)
    [ "$SIZE" = full ] && inputs+=("$SRC"/lua/*.c "$SRC/sqlite/sqlite3.c")
    LAST_OUT=$dir/out.txt
    run_timed treesitter "$v" "$dir/treesitter_parse" "${inputs[@]}" \
        || { fail "treesitter: run ($v): $(tail -3 "$LAST_OUT" "$LAST_OUT.err")"; return; }
    same_as_reference treesitter "$v" "$LAST_OUT" || { fail "treesitter: output differs ($v)"; return; }
    grep -q "^done" "$LAST_OUT" || fail "treesitter: incomplete ($v)"
    grep -q "restored same 0" "$LAST_OUT" && fail "treesitter: a reparse differs ($v)"
}

program_quickjs() {
    local v=$1 dir=$OUT/$1/quickjs q=$SRC/quickjs f t
    build_objs "$v" "$dir/obj" "-D_GNU_SOURCE -DQJS_BUILD_LIBC -I$q -w" -- \
        "$q"/{dtoa,libregexp,libunicode,quickjs,quickjs-libc,qjs}.c "$q"/gen/{repl,standalone}.c \
        && link "$v" "$dir/qjs" "$dir"/obj/*.o -ldl || { fail "quickjs: build ($v)"; return; }
    # Every variant runs the tests in one copy of them, so that file names
    # in messages are the same.
    local tests=$DATA/quickjs-tests
    if [ "$v" = clang ]; then
        rm -rf "$tests" && cp -r "$q/tests" "$tests" || { fail "quickjs: copy tests"; return; }
    fi
    mkdir -p "$dir/tmp"
    LAST_OUT=$dir/tmp/tests.out
    : >"$LAST_OUT"
    for f in "$tests"/*.js; do
        t=$(basename "$f")
        case $t in microbench.js | test_worker.js) continue ;; esac
        local rc=0
        (cd "$tests" && timeout 120 "$dir/qjs" "$t") >"$dir/tmp/one.out" 2>&1 </dev/null || rc=$?
        # Scripts that recurse until the stack runs out: which frame hits
        # the limit first depends on frame sizes, which differ between
        # compilers, so only the error is compared, not its trace.
        case $t in
        bug775.js | bug776.js) { echo "== $t: $rc"; head -1 "$dir/tmp/one.out"; } >>"$LAST_OUT" ;;
        *) { echo "== $t: $rc"; cat "$dir/tmp/one.out"; } >>"$LAST_OUT" ;;
        esac
    done
    same_as_reference quickjs-tests "$v" "$LAST_OUT" || { fail "quickjs: test scripts differ ($v)"; return; }
    LAST_OUT=$dir/tmp/workload.out
    run_timed quickjs "$v" "$dir/qjs" "$ROOT/tests/real/quickjs/workload.js" "$JS_SCALE" \
        || { fail "quickjs: workload ($v): $(tail -3 "$LAST_OUT" "$LAST_OUT.err")"; return; }
    same_as_reference quickjs-workload "$v" "$LAST_OUT" || { fail "quickjs: workload output differs ($v)"; return; }
    grep -q "^rounds" "$LAST_OUT" || fail "quickjs: workload incomplete ($v)"
}

for prog in "${PROGRAMS[@]}"; do
    for v in $VARIANTS; do
        log "$prog ($v, $SIZE)"
        start=$(date +%s)
        "program_$prog" "$v"
        echo "   $(($(date +%s) - start)) s" >&2
    done
done

if [ "$BENCH" = 1 ]; then
    time_steps
    ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
    echo
    echo "| program | clang $OPT s | $(for v in $VARIANTS; do [ $v = clang ] || printf '%s s | × clang | ' "$v"; done)clang RSS MiB | $(for v in $VARIANTS; do [ $v = clang ] || printf '%s RSS | × clang | ' "$v"; done)"
    echo "|---|---:|$(for v in $VARIANTS; do [ $v = clang ] || printf -- '---:|---:|'; done)---:|$(for v in $VARIANTS; do [ $v = clang ] || printf -- '---:|---:|'; done)"
    declare -A LOGS
    for prog in "${PROGRAMS[@]}"; do
        t0=${TIME[$prog/clang]:-}
        r0=${RSS[$prog/clang]:-}
        row="| $prog | $t0 |"
        for v in $VARIANTS; do
            [ $v = clang ] && continue
            rt=$(ratio "${TIME[$prog/$v]:-}" "$t0")
            row+=" ${TIME[$prog/$v]:-} | $rt |"
            LOGS[time/$v]+=" $rt"
        done
        row+=" $(awk -v k="$r0" 'BEGIN { printf "%.1f", k / 1024 }') |"
        for v in $VARIANTS; do
            [ $v = clang ] && continue
            rr=$(ratio "${RSS[$prog/$v]:-}" "$r0")
            row+=" $(awk -v k="${RSS[$prog/$v]:-0}" 'BEGIN { printf "%.1f", k / 1024 }') | $rr |"
            LOGS[rss/$v]+=" $rr"
        done
        echo "$row"
    done
    geo() { printf '%s\n' $1 | awk '$1 != "-" && $1 > 0 { s += log($1); n++ } END { if (n) printf "%.2f", exp(s / n); else print "-" }'; }
    row="| **geometric mean** | |"
    for v in $VARIANTS; do [ $v = clang ] || row+=" | **$(geo "${LOGS[time/$v]}")** |"; done
    row+=" |"
    for v in $VARIANTS; do [ $v = clang ] || row+=" | **$(geo "${LOGS[rss/$v]}")** |"; done
    echo "$row"
fi

if [ ${#FAILED[@]} -gt 0 ]; then
    echo "real programs: ${#FAILED[@]} failure(s):" >&2
    printf '  %s\n' "${FAILED[@]}" >&2
    exit 1
fi
echo "real programs: ${PROGRAMS[*]} passed under: $VARIANTS ($SIZE)"
