#!/usr/bin/env bash
# Fetches the C sources of the real programs gimso is tested on
# with cargo, from the crates that ship them, and links them under
# target/c-sources/: zlib (libz-sys), bzip2 (bzip2-sys), lua (lua-src,
# Lua 5.4), sqlite (libsqlite3-sys's bundled amalgamation), zstd
# (zstd-sys's library sources) and lz4 (lz4-sys ships the whole lz4
# repository, its command-line program included) and libdeflate
# (libdeflate-sys ships the library, its gzip program and its tests) and
# xz 5.2 (lzma-sys ships the whole xz repository and a config.h) and
# Oniguruma 6.9.10 (onig_sys ships its repository, tests included) and
# mozjpeg 4.1 (mozjpeg-sys ships libjpeg-turbo's sources and tools) and
# libwebp 1.5 (libwebp-sys ships its library sources) and tree-sitter
# 0.27 with its C grammar (tree-sitter and tree-sitter-c ship both) and
# QuickJS (rquickjs-sys ships quickjs-ng with its qjs shell and tests).
# Nothing is committed:
# the sources stay in cargo's registry.
#   scripts/fetch-c-sources.sh          prints the fourteen directories
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$ROOT/target/c-sources-fetch
OUT=$ROOT/target/c-sources
mkdir -p "$WORK/src" "$OUT"
cat > "$WORK/Cargo.toml" <<'TOML'
[package]
name = "gimso-c-sources-fetch"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
lua-src = "=547.1.0"
libz-sys = { version = "=1.1.31", features = ["static"] }
bzip2-sys = "=0.1.13"
libsqlite3-sys = { version = "=0.30.1", features = ["bundled"] }
zstd-sys = "=2.1.3"
lz4-sys = "=1.11.1"
libdeflate-sys = "=1.26.1"
lzma-sys = { version = "=0.1.20", features = ["static"] }
onig_sys = { version = "=69.9.3", default-features = false }
mozjpeg-sys = { version = "=2.2.3", default-features = false }
libwebp-sys = { version = "=0.14.4", default-features = false }
tree-sitter = { version = "=0.27.1", default-features = false }
tree-sitter-c = "=0.24.2"
rquickjs-sys = { version = "=0.14.0", default-features = false }
TOML
echo 'fn main() {}' > "$WORK/src/main.rs"
cargo fetch --quiet --manifest-path "$WORK/Cargo.toml"
REGISTRY=$(dirname "$(cargo metadata --quiet --format-version 1 --manifest-path "$WORK/Cargo.toml" \
    | python3 -c 'import json,sys; m=json.load(sys.stdin); print(next(p["manifest_path"] for p in m["packages"] if p["name"]=="lua-src"))')")/..
link() { ln -sfn "$1" "$OUT/$2"; echo "$2: $OUT/$2 -> $1"; }
link "$(cd "$REGISTRY"/libz-sys-1.1.31/src/zlib && pwd)" zlib
link "$(cd "$REGISTRY"/bzip2-sys-0.1.13+1.0.8/bzip2-1.0.8 && pwd)" bzip2
link "$(cd "$REGISTRY"/lua-src-547.1.0/lua-5.4.7 && pwd)" lua
link "$(cd "$REGISTRY"/libsqlite3-sys-0.30.1/sqlite3 && pwd)" sqlite
link "$(cd "$REGISTRY"/zstd-sys-2.1.3+zstd.1.5.7/zstd/lib && pwd)" zstd
link "$(cd "$REGISTRY"/lz4-sys-1.11.1+lz4-1.10.0/liblz4 && pwd)" lz4
link "$(cd "$REGISTRY"/libdeflate-sys-1.26.1/libdeflate && pwd)" libdeflate
link "$(cd "$REGISTRY"/lzma-sys-0.1.20 && pwd)" xz
link "$(cd "$REGISTRY"/onig_sys-69.9.3/oniguruma && pwd)" onig
link "$(cd "$REGISTRY"/mozjpeg-sys-2.2.3/vendor && pwd)" mozjpeg
link "$(cd "$REGISTRY"/libwebp-sys-0.14.4/vendor && pwd)" webp
link "$(cd "$REGISTRY"/tree-sitter-0.27.1 && pwd)" tree-sitter
link "$(cd "$REGISTRY"/tree-sitter-c-0.24.2/src && pwd)" tree-sitter-c
link "$(cd "$REGISTRY"/rquickjs-sys-0.14.0/quickjs && pwd)" quickjs
