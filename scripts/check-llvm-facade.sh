#!/bin/sh
# The pass talks to LLVM's C API only through pass/src/llvm/ (its module
# docs say why). Lists every other Rust file of the pass that names
# `llvm_sys` and fails if there is one.
cd "$(dirname "$0")/.." || exit 2
found=$(grep -rl 'llvm_sys' pass/src pass/tests pass/benches 2>/dev/null | grep -v '^pass/src/llvm/' | sort)
if [ -n "$found" ]; then
    echo "llvm_sys used outside pass/src/llvm/:" >&2
    echo "$found" | sed 's/^/  /' >&2
    exit 1
fi
echo "llvm façade: llvm_sys used only in pass/src/llvm/"
