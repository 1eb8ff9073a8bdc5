#!/usr/bin/env bash
# Whole-program benchmarks (docs/testing.md, "Benchmarks"): every benches/programs/*.c built with
#   clang-16 -O2, clang-16 -O2 -fsanitize=address and gimso-cc -O2,
# run with its default size; the three outputs must be identical. Prints
# markdown tables: best-of-N wall time and peak RSS with ratios to clang -O2
# and geometric means, then compile times (gimso-cc -O2 vs clang-16 -O2) per
# program and for a generated C file holding one function of 50 000 lines.
#
# Usage: benches/programs.sh [program ...]     (names without .c; default all)
# Environment:
#   N=3            runs per variant (best time is reported)
#   COMPILE_N=N    compilations per program for the compile-time table
#   BIG_N=1        compilations of the generated file
#   BIG_LINES=50000  lines in the generated function (0 skips it)
#   GIMSO_CC       gimso-cc (default target/release/gimso-cc)
#   PROG_DIR, EXT  the programs and their extension (benches/programs, c;
#                  benches/cxx-programs.sh sets benches/cxx-programs, cpp)
#   GIMSO_BASE_CC  another gimso-cc (an older build, say) measured as the
#                  variant "base" in the same run, for before/after ratios
#   CLANG=clang-16
#   VARIANTS="clang asan gimso"   which builds to measure (add "base" with
#                  GIMSO_BASE_CC)
#   COMPILE_TIMEOUT=900  RUN_TIMEOUT=300   seconds before a build or run is
#                  given up (and reported as failed)
#   WORK           scratch directory (default: a new mktemp -d, removed at the end)
# A program whose build or run fails, or whose output differs from clang's,
# is reported as failed for that variant; the script carries on.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROG_DIR=${PROG_DIR:-$ROOT/benches/programs}
# The programs' extension: c, or cpp for benches/cxx-programs.sh.
EXT=${EXT:-c}
N=${N:-3}
COMPILE_N=${COMPILE_N:-$N}
BIG_N=${BIG_N:-1}
BIG_LINES=${BIG_LINES:-50000}
CLANG=${CLANG:-clang-16}
GIMSO_CC=${GIMSO_CC:-$ROOT/target/release/gimso-cc}
VARIANTS=${VARIANTS:-clang asan gimso}
COMPILE_TIMEOUT=${COMPILE_TIMEOUT:-900}
RUN_TIMEOUT=${RUN_TIMEOUT:-300}
TIME_BIN=/usr/bin/time
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

if [ ! -x "$TIME_BIN" ]; then
    echo "programs.sh: $TIME_BIN is missing (apt-get install -y time)" >&2
    exit 2
fi
if [ -n "${WORK:-}" ]; then
    mkdir -p "$WORK"
else
    WORK=$(mktemp -d "${TMPDIR:-/tmp}/gimso-bench.XXXXXX")
    trap 'rm -rf "$WORK"' EXIT
fi

log() { echo "$*" >&2; }

# now: seconds since the epoch with nanoseconds.
now() { date +%s.%N; }
# elapsed START END
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# min A B
fmin() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b + 0 < a + 0) ? b : a }'; }
# ratio A B -> A/B with two decimals, or "-" when either is missing
ratio() {
    if [ -z "$1" ] || [ -z "$2" ] || [ "$1" = "-" ] || [ "$2" = "-" ]; then
        echo "-"
    else
        awk -v a="$1" -v b="$2" 'BEGIN { if (b + 0 == 0) print "-"; else printf "%.2f", a / b }'
    fi
}
# geomean X... (ignores "-")
geomean() {
    printf '%s\n' "$@" | awk '$1 != "-" && $1 > 0 { s += log($1); n++ }
        END { if (n) printf "%.2f", exp(s / n); else print "-" }'
}
mib() { [ -z "$1" ] || [ "$1" = "-" ] && echo "-" || awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

# compiler VARIANT -> the command line prefix for that build
compiler() {
    case "$1" in
    clang) echo "$CLANG -O2" ;;
    asan) echo "$CLANG -O2 -fsanitize=address" ;;
    gimso) echo "$GIMSO_CC -O2" ;;
    base) echo "$GIMSO_BASE_CC -O2" ;;
    esac
}

# compile VARIANT SRC EXE REPEAT -> sets CTIME (best seconds); returns status
compile() {
    local variant=$1 src=$2 exe=$3 repeat=$4 cmd t0 t1 best="" i
    cmd=$(compiler "$variant")
    if [ "$variant" = gimso ] && [ ! -x "$GIMSO_CC" ]; then
        echo "gimso-cc not found at $GIMSO_CC" > "$exe.cc.log"
        return 1
    fi
    if [ "$variant" = base ] && [ ! -x "${GIMSO_BASE_CC:-}" ]; then
        echo "GIMSO_BASE_CC (for the base variant) not found: '${GIMSO_BASE_CC:-}'" > "$exe.cc.log"
        return 1
    fi
    for ((i = 0; i < repeat; i++)); do
        rm -f "$exe"
        t0=$(now)
        # shellcheck disable=SC2086
        timeout "$COMPILE_TIMEOUT" $cmd "$src" -o "$exe" > "$exe.cc.log" 2>&1
        local rc=$?
        if [ "$rc" -eq 124 ]; then
            echo "timed out after ${COMPILE_TIMEOUT}s" >> "$exe.cc.log"
        fi
        if [ "$rc" -ne 0 ]; then
            return 1
        fi
        t1=$(now)
        best=$(fmin "$best" "$(elapsed "$t0" "$t1")")
    done
    CTIME=$best
    [ -x "$exe" ]
}

# run EXE OUT -> sets RTIME (best wall seconds) and RSS (max KiB); returns status
run() {
    local exe=$1 out=$2 t0 t1 best="" rss=0 r i
    for ((i = 0; i < N; i++)); do
        t0=$(now)
        "$TIME_BIN" -f %M -o "$exe.rss" timeout "$RUN_TIMEOUT" "$exe" > "$out.$i" 2> "$exe.err" < /dev/null
        local rc=$?
        if [ "$rc" -ne 0 ]; then
            if [ "$rc" -eq 124 ]; then
                echo "timed out after ${RUN_TIMEOUT}s" >> "$exe.err"
            else
                echo "exit status $rc" >> "$exe.err"
            fi
            return 1
        fi
        t1=$(now)
        best=$(fmin "$best" "$(elapsed "$t0" "$t1")")
        r=$(tail -n 1 "$exe.rss")
        [ "$r" -gt "$rss" ] && rss=$r
        if [ "$i" -gt 0 ] && ! cmp -s "$out.0" "$out.$i"; then
            echo "output differs between runs" >> "$exe.err"
            return 1
        fi
    done
    cp "$out.0" "$out"
    RTIME=$best
    RSS=$rss
}

if [ $# -gt 0 ]; then
    PROGRAMS=("$@")
else
    PROGRAMS=()
    for f in "$PROG_DIR"/*."$EXT"; do
        PROGRAMS+=("$(basename "$f" ".$EXT")")
    done
fi

declare -A T M C STATUS
FAILED=()

for p in "${PROGRAMS[@]}"; do
    src="$PROG_DIR/$p.$EXT"
    if [ ! -f "$src" ]; then
        log "no such program: $src"
        FAILED+=("$p (missing)")
        continue
    fi
    for v in $VARIANTS; do
        exe="$WORK/$p.$v"
        log "== $p [$v]: compiling"
        reps=1
        if [ "$v" = clang ] || [ "$v" = gimso ]; then reps=$COMPILE_N; fi
        if ! compile "$v" "$src" "$exe" "$reps"; then
            STATUS[$p:$v]="compile failed"
            FAILED+=("$p [$v]: compile failed: $(tail -n 3 "$exe.cc.log" | tr '\n' ' ')")
            log "   compile failed (see $exe.cc.log)"
            continue
        fi
        C[$p:$v]=$CTIME
        log "== $p [$v]: running ${N}x"
        if ! run "$exe" "$WORK/$p.$v.out"; then
            STATUS[$p:$v]="run failed"
            FAILED+=("$p [$v]: run failed: $(tail -n 3 "$exe.err" | tr '\n' ' ')")
            log "   run failed"
            continue
        fi
        if [ "$v" != clang ] && [ -f "$WORK/$p.clang.out" ] &&
            ! cmp -s "$WORK/$p.clang.out" "$WORK/$p.$v.out"; then
            STATUS[$p:$v]="wrong output"
            FAILED+=("$p [$v]: output differs from clang -O2")
            log "   output differs from clang -O2"
            continue
        fi
        T[$p:$v]=$RTIME
        M[$p:$v]=$RSS
        STATUS[$p:$v]=ok
        log "   ${RTIME}s, $(mib "$RSS") MiB"
    done
done

has() { [[ " $VARIANTS " == *" $1 "* ]]; }
variant_name() {
    case "$1" in
    asan) echo "ASan" ;;
    base) echo "gimso-cc (base)" ;;
    *) echo "gimso-cc" ;;
    esac
}
cell() { # cell VARIANT PROGRAM ARRAY -> value or status
    local key="$2:$1"
    if [ "${STATUS[$key]:-}" = ok ]; then
        if [ "$3" = T ]; then echo "${T[$key]}"; else mib "${M[$key]}"; fi
    else
        echo "${STATUS[$key]:-n/a}"
    fi
}

echo
echo "## Run time (best of $N, seconds) and peak RSS (MiB)"
echo
header="| program | clang -O2 |"
sep="|---|---:|"
for v in asan base gimso; do
    has "$v" || continue
    name=$(variant_name "$v")
    header+=" $name | × clang |"
    sep+="---:|---:|"
done
header+=" clang RSS |"
sep+="---:|"
for v in asan base gimso; do
    has "$v" || continue
    name=$(variant_name "$v")
    header+=" $name RSS | × clang |"
    sep+="---:|---:|"
done
echo "$header"
echo "$sep"
declare -A TR MR
for p in "${PROGRAMS[@]}"; do
    row="| $p | $(cell clang "$p" T) |"
    for v in asan base gimso; do
        has "$v" || continue
        r=$(ratio "${T[$p:$v]:-}" "${T[$p:clang]:-}")
        TR[$v]+=" $r"
        row+=" $(cell "$v" "$p" T) | $r |"
    done
    row+=" $(cell clang "$p" M) |"
    for v in asan base gimso; do
        has "$v" || continue
        r=$(ratio "${M[$p:$v]:-}" "${M[$p:clang]:-}")
        MR[$v]+=" $r"
        row+=" $(cell "$v" "$p" M) | $r |"
    done
    echo "$row"
done
row="| **geometric mean** | |"
for v in asan base gimso; do
    has "$v" || continue
    # shellcheck disable=SC2086
    row+=" | **$(geomean ${TR[$v]})** |"
done
row+=" |"
for v in asan base gimso; do
    has "$v" || continue
    # shellcheck disable=SC2086
    row+=" | **$(geomean ${MR[$v]})** |"
done
echo "$row"

# The generated compile-time stress file: one function of BIG_LINES lines
# of straight-line code with data-dependent selects, loads and stores.
gen_big() {
    awk -v L="$1" 'BEGIN {
        print "/* Generated by benches/programs.sh: one function of " L " lines. */";
        print "#include <stdio.h>";
        print "__attribute__((noinline)) static unsigned big(unsigned *a, unsigned n) {";
        print "    unsigned x = n, y = 1, z = 2;";
        for (i = 0; i < L - 13; i++) {
            m = i % 5;
            if (m == 0) printf "    x = x * 31u + (y >> %d);\n", i % 29 + 1;
            else if (m == 1) printf "    y ^= x + %du;\n", (i * 2654435761) % 4294967291;
            else if (m == 2) printf "    if (x & %du) y += %du;\n", (i * 7) % 1024 + 1, i;
            else if (m == 3) printf "    z += a[%d] ^ x;\n", i % 64;
            else printf "    a[%d] = z + y;\n", (i * 5) % 64;
        }
        print "    return x ^ y ^ z;";
        print "}";
        print "int main(void) {";
        print "    unsigned a[64];";
        print "    for (unsigned i = 0; i < 64; i++)";
        print "        a[i] = i * 2654435761u;";
        print "    printf(\"%u\\n\", big(a, 7));";
        print "    return 0;";
        print "}";
    }'
}

echo
echo "## Compile time (best of $COMPILE_N, seconds)"
echo
echo "| program | clang-16 -O2 | gimso-cc -O2 | × clang |"
echo "|---|---:|---:|---:|"
CR=""
for p in "${PROGRAMS[@]}"; do
    c=${C[$p:clang]:-}
    g=${C[$p:gimso]:-}
    r=$(ratio "$g" "$c")
    CR+=" $r"
    echo "| $p | ${c:--} | ${g:-${STATUS[$p:gimso]:-n/a}} | $r |"
done
if [ "$BIG_LINES" -gt 0 ]; then
    big="$WORK/big_function.c"
    gen_big "$BIG_LINES" > "$big"
    lines=$(wc -l < "$big")
    bc="" bg="" bstatus=""
    log "== generated $lines-line file: compiling with clang (${BIG_N}x)"
    if compile clang "$big" "$WORK/big.clang" "$BIG_N"; then
        bc=$CTIME
        "$WORK/big.clang" > "$WORK/big.clang.out" 2>&1 || true
    else
        bstatus="clang failed"
    fi
    if has gimso; then
        log "== generated $lines-line file: compiling with gimso-cc (${BIG_N}x)"
        if compile gimso "$big" "$WORK/big.gimso" "$BIG_N"; then
            bg=$CTIME
            if ! "$WORK/big.gimso" > "$WORK/big.gimso.out" 2>&1 ||
                ! cmp -s "$WORK/big.clang.out" "$WORK/big.gimso.out"; then
                FAILED+=("big_function [gimso]: output differs from clang -O2")
            fi
        else
            bstatus="compile failed"
            FAILED+=("big_function [gimso]: compile failed: $(tail -n 3 "$WORK/big.gimso.cc.log" | tr '\n' ' ')")
        fi
    fi
    echo "| generated function, $lines lines (best of $BIG_N) | ${bc:--} | ${bg:-${bstatus:-n/a}} | $(ratio "$bg" "$bc") |"
fi
# shellcheck disable=SC2086
echo "| **geometric mean** (programs) | | | **$(geomean $CR)** |"

echo
if [ ${#FAILED[@]} -gt 0 ]; then
    echo "Failed:"
    for f in "${FAILED[@]}"; do
        echo "- $f"
    done
    exit 1
fi
echo "All outputs identical across variants."
