#!/usr/bin/env bash
# Installs what gimso needs on a fresh Debian 12 machine (run as root):
# clang-16 and llvm-16-dev from the distribution, and checks for cargo.
set -euo pipefail
if ! command -v clang-16 >/dev/null 2>&1 || [ ! -x /usr/lib/llvm-16/bin/llvm-config ]; then
    echo "setup: installing clang-16 llvm-16-dev" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq clang-16 llvm-16-dev >/dev/null
fi
# Random test programs for the differential test against clang.
if ! command -v csmith >/dev/null 2>&1 || [ ! -f /usr/include/csmith/csmith.h ]; then
    echo "setup: installing csmith libcsmith-dev" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq csmith libcsmith-dev >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq csmith libcsmith-dev >/dev/null; }
fi
# Optional: gimso-cc links faster with lld (it falls back to gold or BFD).
if ! command -v ld.lld-16 >/dev/null 2>&1; then
    echo "setup: installing lld-16 (optional)" >&2
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq lld-16 >/dev/null 2>&1 \
        || { apt-get update -qq && apt-get install -y -qq lld-16 >/dev/null; }; } \
        || echo "setup: lld-16 unavailable; gimso-cc uses another linker" >&2
fi
if ! command -v cargo >/dev/null 2>&1; then
    if [ -x "$HOME/.cargo/bin/cargo" ]; then
        export PATH="$HOME/.cargo/bin:$PATH"
    else
        echo "setup: cargo not found; install Rust (rustup) first" >&2
        exit 1
    fi
fi
