#!/usr/bin/env bash
# LevelDB 1.22 (with snappy 1.1.7) under gimso-c++: its sources come from the
# crate that bundles them (leveldb-sys 2.0.9, deps/), fetched with cargo into
# cargo's registry and never committed. LevelDB's CMake build is replaced by
# the source lists of its CMakeLists.txt and a port_config.h written here, so
# that each variant is built by one compiler and nothing else:
#   clang   clang++-16 -O2 (the reference)
#   gimso   gimso-c++ -O2 (db/c_test.c with gimso-cc)
#   asan    clang++-16 -O2 -fsanitize=address (benchmark comparison only)
# Then:
#   tests   LevelDB's own tests (its own test harness: util/testharness.cc,
#           not gtest), each built with clang and gimso and run; a table of
#           both results. A test that passes with clang must pass with gimso.
#   bench   db_bench (fillseq, fillrandom, readrandom, readseq), each
#           benchmark its own process under /usr/bin/time so that each gets
#           its own time and peak RSS, best of RUNS with the variants
#           interleaved; ratios against clang++ -O2. The same four also run
#           through tests/real/leveldb_bench.cc (db_bench's work through the
#           public API, without its harness).
#
# Usage: scripts/leveldb.sh [--quick] [--num=N] [--runs=N] [--clean]
#                           [--no-tests] [--no-bench] [--no-snappy]
#   --quick      the fast tests only (db_test, corruption_test,
#                fault_injection_test and the like are left out), --num=20000
#                and --runs=1
#   --num=N      db_bench's --num (default 100000)
#   --runs=N     timed runs of each benchmark, best kept (default 3)
#   --clean      rebuild every object (the build times printed are then those
#                of a clean build; otherwise objects newer than their source,
#                the configuration and the compiler are kept)
#   --no-snappy  LevelDB without snappy (its blocks are then stored raw)
# Environment:
#   GIMSO_CXX    gimso-c++ (default target/release/gimso-c++; gimso-cc is
#                taken from beside it)
#   CLANGXX      clang++-16    CLANG   clang-16
#   OUT          target/leveldb (build and scratch directory)
#   JOBS         parallel compiles (default 2)
#   TEST_TIMEOUT seconds for one test program (default 900)
# Run time on this 2-core machine with --clean (other jobs running): --quick
# about 6 minutes, the default about 8 (3.5 of them the builds), the
# benchmarks at --num=1000000 about 9 more; figures in docs/leveldb.md.
# Exit status 0 only if every variant built, every test that passes with
# clang passed with gimso, and both benchmark programs ran under every variant.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
GIMSO_CXX=${GIMSO_CXX:-$ROOT/target/release/gimso-c++}
GIMSO_CC=${GIMSO_CC:-$(dirname "$GIMSO_CXX")/gimso-cc}
CLANGXX=${CLANGXX:-clang++-16}
CLANG=${CLANG:-clang-16}
OUT=${OUT:-$ROOT/target/leveldb}
JOBS=${JOBS:-2}
TEST_TIMEOUT=${TEST_TIMEOUT:-900}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

QUICK=0 NUM=100000 RUNS=3 CLEAN=0 TESTS=1 BENCH=1 SNAPPY=1 NUM_SET=0 RUNS_SET=0
for arg in "$@"; do
    case "$arg" in
    --quick) QUICK=1 ;;
    --num=*) NUM=${arg#--num=} NUM_SET=1 ;;
    --runs=*) RUNS=${arg#--runs=} RUNS_SET=1 ;;
    --clean) CLEAN=1 ;;
    --no-tests) TESTS=0 ;;
    --no-bench) BENCH=0 ;;
    --no-snappy) SNAPPY=0 ;;
    *) echo "leveldb.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done
if [ $QUICK = 1 ]; then
    [ $NUM_SET = 1 ] || NUM=20000
    [ $RUNS_SET = 1 ] || RUNS=1
fi
for tool in /usr/bin/time "$GIMSO_CXX" "$GIMSO_CC"; do
    if [ ! -x "$tool" ]; then
        echo "leveldb.sh: $tool not found (GIMSO_CXX=..., apt-get install -y time)" >&2
        exit 2
    fi
done

log() { echo "== $*" >&2; }
FAILED=()
fail() {
    echo "FAILED: $*" >&2
    FAILED+=("$*")
}

# --- sources -------------------------------------------------------------
fetch() {
    local work=$ROOT/target/leveldb-fetch manifest
    mkdir -p "$work/src"
    cat >"$work/Cargo.toml" <<'TOML'
[package]
name = "gimso-leveldb-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
leveldb-sys = "=2.0.9"
TOML
    echo 'fn main() {}' >"$work/src/main.rs"
    cargo fetch --quiet --manifest-path "$work/Cargo.toml" || return 1
    manifest=$(cargo metadata --quiet --format-version 1 --manifest-path "$work/Cargo.toml" |
        python3 -c 'import json,sys; m=json.load(sys.stdin); print(next(p["manifest_path"] for p in m["packages"] if p["name"]=="leveldb-sys"))') || return 1
    echo "$(dirname "$manifest")/deps"
}
DEPS=$(fetch) || { echo "leveldb.sh: fetching leveldb-sys failed" >&2; exit 2; }
L=$DEPS/leveldb-1.22
S=$DEPS/snappy-1.1.7
[ -e "$L/db/db_impl.cc" ] && [ -e "$S/snappy.cc" ] || { echo "leveldb.sh: no LevelDB 1.22 in $DEPS" >&2; exit 2; }
log "sources: $DEPS"

# What LevelDB's and snappy's CMake configuration finds on Linux/x86-64.
GEN=$OUT/gen
mkdir -p "$GEN/port"
write_if_changed() {
    local file=$1 tmp
    tmp=$(mktemp)
    cat >"$tmp"
    if cmp -s "$tmp" "$file"; then rm -f "$tmp"; else mv "$tmp" "$file"; fi
}
write_if_changed "$GEN/port/port_config.h" <<EOF
#ifndef STORAGE_LEVELDB_PORT_PORT_CONFIG_H_
#define STORAGE_LEVELDB_PORT_PORT_CONFIG_H_
#define HAVE_FDATASYNC 1
#define HAVE_FULLFSYNC 0
#define HAVE_CRC32C 0
#define HAVE_SNAPPY $SNAPPY
#define LEVELDB_IS_BIG_ENDIAN 0
#endif
EOF
write_if_changed "$GEN/config.h" <<'EOF'
#ifndef THIRD_PARTY_SNAPPY_OPENSOURCE_CMAKE_CONFIG_H_
#define THIRD_PARTY_SNAPPY_OPENSOURCE_CMAKE_CONFIG_H_
#define HAVE_BUILTIN_CTZ 1
#define HAVE_BUILTIN_EXPECT 1
#define HAVE_BYTESWAP_H 1
#define HAVE_FUNC_MMAP 1
#define HAVE_FUNC_SYSCONF 1
#define HAVE_STDDEF_H 1
#define HAVE_STDINT_H 1
#define HAVE_SYS_MMAN_H 1
#define HAVE_SYS_RESOURCE_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_UIO_H 1
#define HAVE_UNISTD_H 1
#endif
EOF
sed -e 's/\${HAVE_STDINT_H_01}/1/; s/\${HAVE_STDDEF_H_01}/1/; s/\${HAVE_SYS_UIO_H_01}/1/' \
    -e 's/\${SNAPPY_MAJOR}/1/; s/\${SNAPPY_MINOR}/1/; s/\${SNAPPY_PATCHLEVEL}/7/' \
    "$S/snappy-stubs-public.h.in" | write_if_changed "$GEN/snappy-stubs-public.h"

# The source lists of LevelDB's CMakeLists.txt (POSIX, static library).
LIB_SRCS=(db/builder.cc db/c.cc db/db_impl.cc db/db_iter.cc db/dbformat.cc
    db/dumpfile.cc db/filename.cc db/log_reader.cc db/log_writer.cc
    db/memtable.cc db/repair.cc db/table_cache.cc db/version_edit.cc
    db/version_set.cc db/write_batch.cc table/block_builder.cc table/block.cc
    table/filter_block.cc table/format.cc table/iterator.cc table/merger.cc
    table/table_builder.cc table/table.cc table/two_level_iterator.cc
    util/arena.cc util/bloom.cc util/cache.cc util/coding.cc
    util/comparator.cc util/crc32c.cc util/env.cc util/filter_policy.cc
    util/hash.cc util/logging.cc util/options.cc util/status.cc
    util/env_posix.cc helpers/memenv/memenv.cc)
SNAPPY_SRCS=(snappy.cc snappy-sinksource.cc snappy-stubs-internal.cc snappy-c.cc)
# Every leveldb_test() of CMakeLists.txt, slowest last.
FAST_TESTS=(util/status_test util/no_destructor_test db/dbformat_test
    db/filename_test db/log_test db/skiplist_test db/version_edit_test
    db/version_set_test db/write_batch_test helpers/memenv/memenv_test
    table/filter_block_test util/arena_test util/bloom_test util/cache_test
    util/coding_test util/crc32c_test util/hash_test util/logging_test
    util/env_test util/env_posix_test issues/issue178_test
    issues/issue200_test issues/issue320_test db/c_test)
SLOW_TESTS=(db/recovery_test table/table_test db/autocompact_test
    db/fault_injection_test db/corruption_test db/db_test)
TESTS_LIST=("${FAST_TESTS[@]}")
[ $QUICK = 1 ] || TESTS_LIST+=("${SLOW_TESTS[@]}")

VARIANTS=(clang gimso asan)
cxx() {
    case "$1" in
    clang) echo "$CLANGXX" ;;
    gimso) echo "$GIMSO_CXX" ;;
    asan) echo "$CLANGXX -fsanitize=address" ;;
    esac
}
cc() {
    case "$1" in
    clang) echo "$CLANG" ;;
    gimso) echo "$GIMSO_CC" ;;
    asan) echo "$CLANG -fsanitize=address" ;;
    esac
}
# What a variant's objects and programs depend on besides their sources.
compiler_files() {
    case "$1" in
    gimso) echo "$GIMSO_CXX $(dirname "$GIMSO_CXX")/libgimso.a" ;;
    *) command -v "$CLANGXX" ;;
    esac
}

# write_makefile VARIANT: a Makefile for the library, the tests and db_bench.
write_makefile() {
    local v=$1 b=$OUT/$1 t objs=() snappy_objs=()
    local defs="-DLEVELDB_PLATFORM_POSIX=1 -DLEVELDB_HAS_PORT_CONFIG_H=1"
    [ $SNAPPY = 1 ] && defs+=" -DHAVE_CONFIG_H=1"
    for t in "${LIB_SRCS[@]}"; do objs+=("\$(B)/obj/${t%.cc}.o"); done
    if [ $SNAPPY = 1 ]; then
        for t in "${SNAPPY_SRCS[@]}"; do snappy_objs+=("\$(B)/snappy/${t%.cc}.o"); done
    fi
    {
        echo "B := $b"
        echo "L := $L"
        echo "S := $S"
        echo "CXX := $(cxx "$v")"
        echo "CC := $(cc "$v")"
        echo "CXXFLAGS := -O2 -std=c++11 $defs -I$GEN -I\$(L) -I\$(L)/include -I\$(S)"
        echo "CFLAGS := -O2 -std=c11 -I\$(L)/include"
        echo "DEPS := $(compiler_files "$v") $GEN/port/port_config.h $b/Makefile"
        echo "OBJS := ${objs[*]} ${snappy_objs[*]}"
        echo "HARNESS := \$(B)/obj/util/testharness.o \$(B)/obj/util/testutil.o"
        echo ".SECONDARY:"
        echo ".DELETE_ON_ERROR:"
        echo "\$(B)/obj/%.o: \$(L)/%.cc \$(DEPS)"
        printf '\t@mkdir -p $(@D)\n\t$(CXX) $(CXXFLAGS) -c $< -o $@\n'
        echo "\$(B)/obj/%.o: \$(L)/%.c \$(DEPS)"
        printf '\t@mkdir -p $(@D)\n\t$(CC) $(CFLAGS) -c $< -o $@\n'
        echo "\$(B)/snappy/%.o: \$(S)/%.cc \$(DEPS) $GEN/config.h"
        printf '\t@mkdir -p $(@D)\n\t$(CXX) $(CXXFLAGS) -c $< -o $@\n'
        echo "\$(B)/libleveldb.a: \$(OBJS)"
        printf '\trm -f $@\n\tar rcs $@ $^\n'
        echo "\$(B)/bin/%: \$(B)/obj/%.o \$(HARNESS) \$(B)/libleveldb.a"
        printf '\t@mkdir -p $(@D)\n\t$(CXX) $^ -o $@ -lpthread\n'
        echo "\$(B)/bin/db_bench: \$(B)/obj/db/db_bench.o \$(B)/obj/util/histogram.o \$(HARNESS) \$(B)/libleveldb.a"
        printf '\t@mkdir -p $(@D)\n\t$(CXX) $^ -o $@ -lpthread\n'
        echo "lib: \$(B)/libleveldb.a"
        printf 'tests-fast:'
        for t in "${FAST_TESTS[@]}"; do printf ' $(B)/bin/%s' "$t"; done
        printf '\ntests-slow:'
        for t in "${SLOW_TESTS[@]}"; do printf ' $(B)/bin/%s' "$t"; done
        echo
        echo "\$(B)/obj/leveldb_bench.o: $ROOT/tests/real/leveldb_bench.cc \$(DEPS)"
        printf '\t@mkdir -p $(@D)\n\t$(CXX) $(CXXFLAGS) -c $< -o $@\n'
        echo "\$(B)/bin/leveldb_bench: \$(B)/obj/leveldb_bench.o \$(HARNESS) \$(B)/libleveldb.a"
        printf '\t@mkdir -p $(@D)\n\t$(CXX) $^ -o $@ -lpthread\n'
        echo "bench: \$(B)/bin/db_bench \$(B)/bin/leveldb_bench"
    } | write_if_changed "$b/Makefile"
}

# --- build -----------------------------------------------------------------
declare -A BUILD_TIME
build() {
    local v=$1 targets=$2 b=$OUT/$1 start rc
    mkdir -p "$b"
    [ $CLEAN = 1 ] && rm -rf "$b/obj" "$b/snappy" "$b/bin" "$b/libleveldb.a"
    write_makefile "$v"
    log "build $v: $targets"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    make -s -f "$b/Makefile" -j"$JOBS" -k $targets >"$b/build.log" 2>&1
    rc=$?
    BUILD_TIME[$v]=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
    if [ $rc != 0 ]; then
        grep -E "error|Error" "$b/build.log" | head -20 >&2
        fail "build $v (see $b/build.log)"
    fi
    echo "   $v: ${BUILD_TIME[$v]} s" >&2
}

targets=lib
if [ $TESTS = 1 ]; then
    targets+=" tests-fast"
    [ $QUICK = 1 ] || targets+=" tests-slow"
fi
[ $BENCH = 1 ] && targets+=" bench"
build clang "$targets"
build gimso "$targets"
[ $BENCH = 1 ] && build asan "lib bench"

# --- tests -----------------------------------------------------------------
# run_test VARIANT TEST: PASS, FAIL(status) or TIMEOUT, with the seconds.
run_test() {
    local v=$1 t=$2 b=$OUT/$1 name start rc dir
    name=$(basename "$t")
    [ -x "$b/bin/$t" ] || { echo "NOT BUILT"; return; }
    dir=$b/tmp/$name
    rm -rf "$dir" && mkdir -p "$dir" "$b/logs"
    start=$(date +%s.%N)
    (cd "$dir" && TEST_TMPDIR=$dir timeout "$TEST_TIMEOUT" "$b/bin/$t") >"$b/logs/$name.log" 2>&1
    rc=$?
    local secs
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    rm -rf "$dir"
    case $rc in
    0) echo "PASS ${secs}s" ;;
    124) echo "TIMEOUT ${secs}s" ;;
    *) echo "FAIL($rc) ${secs}s" ;;
    esac
}

if [ $TESTS = 1 ]; then
    log "tests (${#TESTS_LIST[@]})"
    echo
    echo "| test | clang++ -O2 | gimso-c++ -O2 |"
    echo "|---|---|---|"
    npass=0 nfail=0
    for t in "${TESTS_LIST[@]}"; do
        rc=$(run_test clang "$t")
        rg=$(run_test gimso "$t")
        # Some tests sleep a fixed 100 ms and then assert that a background
        # thread has run (env_test's RunImmediately): on a loaded machine
        # they fail now and then under any compiler. A second run tells such
        # a flake from a failure, and the table shows both.
        if [ "${rc%% *}" = PASS ] && [ "${rg%% *}" != PASS ] && [ "$rg" != "NOT BUILT" ]; then
            cp "$OUT/gimso/logs/$(basename "$t").log" "$OUT/gimso/logs/$(basename "$t").first.log"
            rg="$(run_test gimso "$t") (first run: $rg)"
        fi
        echo "| $(basename "$t") | $rc | $rg |"
        # A variant that did not build is one failure already.
        if [ "${rc%% *}" = PASS ] && [ "${rg%% *}" != PASS ] && [ "$rg" != "NOT BUILT" ]; then
            fail "$(basename "$t"): passes with clang, $rg with gimso (see $OUT/gimso/logs/)"
            nfail=$((nfail + 1))
        elif [ "${rg%% *}" = PASS ]; then
            npass=$((npass + 1))
        fi
    done
    echo
    echo "leveldb tests: $npass passed, $nfail failed"
fi

# --- db_bench --------------------------------------------------------------
BENCHMARKS=(fillseq fillrandom readrandom readseq)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "-"; else printf "%.2f", a / b }'; }
geo() { printf '%s\n' $1 | awk '$1 != "-" && $1 > 0 { s += log($1); n++ } END { if (n) printf "%.2f", exp(s / n); else print "-" }'; }
mib() { awk -v k="${1:-}" 'BEGIN { if (k == "") print "-"; else printf "%.1f", k / 1024 }'; }
# bench PROGRAM: each benchmark in its own process, best of RUNS with the
# variants interleaved (the machine drifts over minutes), then a table.
bench() {
    local prog=$1 r v k order exe db existing line t us log
    declare -A BEST RSS MICROS BROKEN
    log "$prog --num=$NUM, best of $RUNS, variants interleaved"
    for ((r = 0; r < RUNS; r++)); do
        order=("${VARIANTS[@]}")
        [ $((r % 2)) = 1 ] && order=(asan gimso clang)
        for v in "${order[@]}"; do
            exe=$OUT/$v/bin/$prog
            [ -x "$exe" ] && [ -z "${BROKEN[$v]:-}" ] || continue
            db=$OUT/$v/benchdb
            for k in "${BENCHMARKS[@]}"; do
                # The reads run on the database fillrandom left.
                existing=0
                case $k in read*) existing=1 ;; esac
                log=$OUT/$v/$prog-$k.log
                if ! /usr/bin/time -f '%e %M' -o "$OUT/time.txt" "$exe" --benchmarks="$k" \
                    --num="$NUM" --db="$db" --use_existing_db=$existing >"$log" 2>&1; then
                    fail "$prog $k ($v): $(grep -m1 -A4 'safety error' "$log" || tail -3 "$log")"
                    BROKEN[$v]=1
                    break
                fi
                line=$(tail -1 "$OUT/time.txt")
                t=${line% *}
                BEST[$k/$v]=$(awk -v a="${BEST[$k/$v]:-}" -v b="$t" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
                [ "${line#* }" -gt "${RSS[$k/$v]:-0}" ] && RSS[$k/$v]=${line#* }
                us=$(awk -v k="$k" '$1 == k { print $3 }' "$log")
                MICROS[$k/$v]=$(awk -v a="${MICROS[$k/$v]:-}" -v b="$us" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }')
            done
            rm -rf "$db"
        done
    done
    echo
    echo "$prog --num=$NUM, best of $RUNS (s: the process's wall time; µs/op: the program's own figure; RSS: peak, MiB)"
    echo
    echo "| benchmark | clang s | µs/op | RSS | gimso s | × clang | µs/op | RSS | × clang | asan s | × clang | µs/op | RSS | × clang |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    declare -A G
    for k in "${BENCHMARKS[@]}"; do
        row="| $k | ${BEST[$k/clang]:--} | ${MICROS[$k/clang]:--} | $(mib "${RSS[$k/clang]:-}") |"
        for v in gimso asan; do
            rt=$(ratio "${BEST[$k/$v]:-}" "${BEST[$k/clang]:-}")
            rr=$(ratio "${RSS[$k/$v]:-}" "${RSS[$k/clang]:-}")
            G[t/$v]+=" $rt" G[r/$v]+=" $rr"
            row+=" ${BEST[$k/$v]:--} | $rt | ${MICROS[$k/$v]:--} | $(mib "${RSS[$k/$v]:-}") | $rr |"
        done
        echo "$row"
    done
    echo "| **geometric mean** | | | | | **$(geo "${G[t/gimso]}")** | | | **$(geo "${G[r/gimso]}")** | | **$(geo "${G[t/asan]}")** | | | **$(geo "${G[r/asan]}")** |"
}
if [ $BENCH = 1 ]; then
    bench db_bench
    bench leveldb_bench
fi

echo
echo "build times (s; --clean for a clean build): clang ${BUILD_TIME[clang]:-} gimso ${BUILD_TIME[gimso]:-} asan ${BUILD_TIME[asan]:--}"
if [ ${#FAILED[@]} -gt 0 ]; then
    echo "leveldb: ${#FAILED[@]} failure(s):" >&2
    printf '  %s\n' "${FAILED[@]}" >&2
    exit 1
fi
echo "leveldb: all builds ran; every test that passes with clang passes with gimso"
