#!/usr/bin/env bash
# The C++ whole-program benchmarks: every benches/cxx-programs/*.cpp built
# with clang++-16 -O2 (the system's libstdc++), clang++-16 -O2
# -fsanitize=address and gimso-c++ -O2 (libc++ compiled by gimso-c++), run
# and compared as benches/programs.sh does for C (same options: N,
# VARIANTS, ...). Needs scripts/build-libcxx.sh to have run.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROG_DIR="$ROOT/benches/cxx-programs" EXT=cpp CLANG=${CLANGXX:-clang++-16} \
    GIMSO_CC=${GIMSO_CXX:-$ROOT/target/release/gimso-c++} BIG_LINES=0 \
    exec "$ROOT/benches/programs.sh" "$@"
