#!/usr/bin/env bash
# Builds the C++ standard library gimso-c++ links: LLVM 16's libc++ and
# libc++abi, compiled from source by gimso-c++ itself, so the library's
# own code is as checked as the program's (docs/cxx.md).
#
#   scripts/build-libcxx.sh            build unless the cached one is current
#   scripts/build-libcxx.sh --force    rebuild even if current
#
# Sources: $GIMSO_LLVM_SRC (a directory holding libcxx/ and libcxxabi/), or
# Debian's source package llvm-toolchain-16, fetched once with
# `apt-get source --download-only` (a deb-src entry for the same suite is
# added when missing) and unpacked under target/libcxx-src/ (only libcxx/
# and libcxxabi/ are kept). Output: target/release/gimso-libcxx/
# (include/c++/v1, lib/libc++.a, lib/libc++abi.a, lib/libc++experimental.a,
# STAMP), published by a
# rename, so a compile never sees half a library. Needs gimso-cc built
# (cargo build --release -p gimso -p gimso-pass).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
FORCE=0
[ "${1:-}" = "--force" ] && FORCE=1

CXX="$ROOT/target/release/gimso-c++"
OUT="$ROOT/target/release/gimso-libcxx"
CACHE="$ROOT/target/libcxx-src"
JOBS=${GIMSO_LIBCXX_JOBS:-$(nproc)}

case "$ROOT" in *[[:space:]]*) echo "build-libcxx: the checkout path must not contain white space: $ROOT" >&2; exit 1 ;; esac
[ -x "$CXX" ] || { echo "build-libcxx: $CXX is missing; run cargo build --release -p gimso -p gimso-pass" >&2; exit 1; }

# --- the sources ------------------------------------------------------------
fetch_sources() {
    local dl="$CACHE/download"
    mkdir -p "$dl"
    if ! ls "$dl"/llvm-toolchain-16_*.orig.tar.xz >/dev/null 2>&1; then
        if ! grep -rqs "^Types:.*deb-src" /etc/apt/sources.list.d/ \
            && ! grep -qs "^deb-src" /etc/apt/sources.list; then
            echo "build-libcxx: adding a deb-src entry for bookworm (/etc/apt/sources.list.d/gimso-deb-src.sources)" >&2
            cat > /etc/apt/sources.list.d/gimso-deb-src.sources <<'EOF'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
            apt-get update -qq
        fi
        echo "build-libcxx: downloading Debian's llvm-toolchain-16 sources (about 137 MB)" >&2
        (cd "$dl" && apt-get source --download-only -qq llvm-toolchain-16 >/dev/null 2>&1) \
            || (apt-get update -qq && cd "$dl" && apt-get source --download-only -qq llvm-toolchain-16 >/dev/null)
    fi
    local tarball
    tarball=$(ls "$dl"/llvm-toolchain-16_*.orig.tar.xz | head -1)
    echo "build-libcxx: unpacking libcxx and libcxxabi from $(basename "$tarball")" >&2
    local staged="$CACHE/unpack.$$"
    rm -rf "$staged" && mkdir -p "$staged"
    tar -xJf "$tarball" -C "$staged" --strip-components=1 --wildcards \
        '*/libcxx/include/*' '*/libcxx/src/*' '*/libcxxabi/include/*' '*/libcxxabi/src/*'
    rm -rf "$CACHE/llvm"
    mv "$staged" "$CACHE/llvm"
    rm -f "$dl"/*.orig.tar.xz
}

if [ -n "${GIMSO_LLVM_SRC:-}" ]; then
    SRC="$GIMSO_LLVM_SRC"
else
    SRC="$CACHE/llvm"
    [ -f "$SRC/libcxx/include/__config" ] || fetch_sources
fi
[ -f "$SRC/libcxx/include/__config" ] && [ -f "$SRC/libcxxabi/src/cxa_exception.cpp" ] \
    || { echo "build-libcxx: no libcxx/libcxxabi sources in $SRC" >&2; exit 1; }
LIBCPP_VERSION=$(sed -n 's/^#  *define _LIBCPP_VERSION \([0-9]*\)$/\1/p' "$SRC/libcxx/include/__config" | head -1)
case "$LIBCPP_VERSION" in
    16*) ;;
    *) echo "build-libcxx: $SRC holds libc++ $LIBCPP_VERSION; gimso-c++ uses clang-16 and needs libc++ 16" >&2; exit 1 ;;
esac

# --- what the cached build must match ----------------------------------------
OWN_FILES=(cxx/__config_site cxx/personality.cpp cxx/dso_handle.c include/gimso.h scripts/build-libcxx.sh)
# The compiler itself is part of the stamp: code compiled by another build
# of the pass may not match what this one emits and expects.
COMPILER_HASH=$(sha256sum < "$(readlink -f "$CXX")" | cut -c1-16)
STAMP="libc++ $LIBCPP_VERSION; $("$CXX" --version | head -1); compiler $COMPILER_HASH; $(cat "${OWN_FILES[@]}" | sha256sum | cut -c1-16)"
if [ "$FORCE" = 0 ] && [ -f "$OUT/STAMP" ] && [ "$(cat "$OUT/STAMP")" = "$STAMP" ]; then
    exit 0
fi

# --- the build ----------------------------------------------------------------
ABI_SOURCES=(abort_message.cpp cxa_aux_runtime.cpp cxa_default_handlers.cpp cxa_demangle.cpp
    cxa_exception.cpp cxa_exception_storage.cpp cxa_guard.cpp cxa_handlers.cpp
    cxa_thread_atexit.cpp cxa_vector.cpp cxa_virtual.cpp fallback_malloc.cpp
    private_typeinfo.cpp stdlib_exception.cpp stdlib_new_delete.cpp stdlib_stdexcept.cpp
    stdlib_typeinfo.cpp)
CXX_SOURCES=(algorithm.cpp any.cpp atomic.cpp barrier.cpp bind.cpp charconv.cpp chrono.cpp
    condition_variable.cpp condition_variable_destructor.cpp exception.cpp functional.cpp
    future.cpp hash.cpp ios.cpp ios.instantiations.cpp iostream.cpp legacy_pointer_safety.cpp
    locale.cpp memory.cpp memory_resource.cpp mutex.cpp mutex_destructor.cpp new.cpp
    optional.cpp random.cpp random_shuffle.cpp regex.cpp ryu/d2fixed.cpp ryu/d2s.cpp
    ryu/f2s.cpp shared_mutex.cpp stdexcept.cpp string.cpp strstream.cpp system_error.cpp
    thread.cpp typeinfo.cpp utility.cpp valarray.cpp variant.cpp vector.cpp verbose_abort.cpp
    filesystem/directory_iterator.cpp filesystem/int128_builtins.cpp filesystem/operations.cpp)
# libc++experimental.a, linked under -fexperimental-library as clang does:
# <format>'s error type and the experimental memory resources.
EXP_SOURCES=(format.cpp experimental/memory_resource.cpp)
TOTAL=$(( ${#ABI_SOURCES[@]} + ${#CXX_SOURCES[@]} + ${#EXP_SOURCES[@]} + 2 ))

BUILD="$OUT.build.$$"
trap 'rm -rf "$BUILD"' EXIT
rm -rf "$BUILD"
mkdir -p "$BUILD/include/c++" "$BUILD/lib" "$BUILD/obj/abi" "$BUILD/obj/cxx" "$BUILD/obj/exp" "$BUILD/log"
cp -r "$SRC/libcxx/include" "$BUILD/include/c++/v1"
rm -f "$BUILD/include/c++/v1/CMakeLists.txt" "$BUILD/include/c++/v1/"*.in
cp cxx/__config_site "$BUILD/include/c++/v1/__config_site"
cp "$SRC/libcxxabi/include/cxxabi.h" "$SRC/libcxxabi/include/__cxxabi_config.h" "$BUILD/include/c++/v1/"

COMMON=(-nostdinc++ -isystem "$BUILD/include/c++/v1" -std=c++20 -O2 -DNDEBUG -w
    -D_LIBCPP_BUILDING_LIBRARY -I"$SRC/libcxx/src" -I"$SRC/libcxxabi/include")
ABI_FLAGS=(-D_LIBCXXABI_BUILDING_LIBRARY -I"$SRC/libcxxabi/src" -I"$ROOT/include")
CXX_FLAGS=(-D_LIBCPP_DISABLE_NEW_DELETE_DEFINITIONS -DLIBCXX_BUILDING_LIBCXXABI)
EXP_FLAGS=("${CXX_FLAGS[@]}" -fexperimental-library)

# One job per line: kind, source path, object path.
{
    for f in "${ABI_SOURCES[@]}"; do echo "abi $SRC/libcxxabi/src/$f $BUILD/obj/abi/${f//\//_}.o"; done
    echo "abi $ROOT/cxx/personality.cpp $BUILD/obj/abi/gimso_personality.o"
    echo "c $ROOT/cxx/dso_handle.c $BUILD/obj/abi/gimso_dso_handle.o"
    for f in "${CXX_SOURCES[@]}"; do echo "cxx $SRC/libcxx/src/$f $BUILD/obj/cxx/${f//\//_}.o"; done
    for f in "${EXP_SOURCES[@]}"; do echo "exp $SRC/libcxx/src/$f $BUILD/obj/exp/${f//\//_}.o"; done
} > "$BUILD/jobs"

# The compile of one job, as a script xargs runs $JOBS at a time.
{
    echo 'set -u'
    declare -p CXX BUILD COMMON ABI_FLAGS CXX_FLAGS EXP_FLAGS
    cat <<'JOB'
kind=$1 src=$2 obj=$3
log="$BUILD/log/$(basename "$obj").log"
case $kind in
    abi) "$CXX" "${COMMON[@]}" "${ABI_FLAGS[@]}" -c "$src" -o "$obj" ;;
    cxx) "$CXX" "${COMMON[@]}" "${CXX_FLAGS[@]}" -c "$src" -o "$obj" ;;
    exp) "$CXX" "${COMMON[@]}" "${EXP_FLAGS[@]}" -c "$src" -o "$obj" ;;
    c) "${CXX%-c++}-cc" -O2 -c "$src" -o "$obj" ;;
esac >"$log" 2>&1 && echo "ok $src $log" || echo "FAILED $src $log"
JOB
} > "$BUILD/compile.sh"

echo "build-libcxx: compiling libc++ $LIBCPP_VERSION and libc++abi with gimso-c++ ($TOTAL files, $JOBS jobs; about a minute on 2 cores)" >&2
start=$(date +%s)
n=0
failed=0
while read -r status src log; do
    n=$((n + 1))
    if [ "$status" = ok ]; then
        printf 'build-libcxx: [%d/%d] %s\n' "$n" "$TOTAL" "${src#"$SRC/"}" >&2
    else
        failed=1
        printf 'build-libcxx: [%d/%d] FAILED %s\n' "$n" "$TOTAL" "$src" >&2
        cat "$log" >&2 || true
    fi
done < <(tr ' \n' '\0\0' < "$BUILD/jobs" | xargs -0 -n3 -P "$JOBS" bash "$BUILD/compile.sh")
[ "$failed" = 0 ] || { echo "build-libcxx: the build failed; see the errors above" >&2; exit 1; }

ar rcs "$BUILD/lib/libc++abi.a" "$BUILD"/obj/abi/*.o
ar rcs "$BUILD/lib/libc++.a" "$BUILD"/obj/cxx/*.o
ar rcs "$BUILD/lib/libc++experimental.a" "$BUILD"/obj/exp/*.o
rm -rf "$BUILD/obj" "$BUILD/log" "$BUILD/jobs" "$BUILD/compile.sh"
echo "$STAMP" > "$BUILD/STAMP"
rm -rf "$OUT.old"
[ -d "$OUT" ] && mv "$OUT" "$OUT.old"
mv "$BUILD" "$OUT"
rm -rf "$OUT.old"
trap - EXIT
echo "build-libcxx: done in $(( $(date +%s) - start )) s: $OUT" >&2
