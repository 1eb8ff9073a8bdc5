#!/usr/bin/env bash
# The instruction mix of commands (callgrind --dump-instr=yes, then
# benches/instruction_mix.py): how many of the instructions each executed
# were checks, header loads, spills, pushes and pops, jumps... Only the
# command's own executable counts (gimso-cc links the runtime in; a clang
# build's malloc and stdio in libc are left out). Collections off and no
# address randomisation, as in benches/instructions.sh.
#
# Usage: benches/instruction_mix.sh NAME "COMMAND ARGS..." [NAME "COMMAND..."]...
#   e.g. benches/instruction_mix.sh clang "target/real/instructions/lua-clang/lua tests/real/lua/gc_heavy.lua 1" \
#                                   gimso "target/real/instructions/lua-gimso/lua tests/real/lua/gc_heavy.lua 1"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || {
    echo "instruction_mix.sh: needs valgrind (apt-get install -y valgrind)" >&2
    exit 2
}
[ $# -ge 2 ] && [ $(($# % 2)) -eq 0 ] || {
    sed -n '2,11p' "$0" >&2
    exit 2
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
specs=()
while [ $# -gt 0 ]; do
    name=$1 cmd=$2
    shift 2
    read -r -a argv <<<"$cmd"
    bin=$(command -v "${argv[0]}") || {
        echo "instruction_mix.sh: no such program: ${argv[0]}" >&2
        exit 2
    }
    GIMSO_GC_THRESHOLD=4G setarch -R valgrind --tool=callgrind --dump-instr=yes \
        --callgrind-out-file="$tmp/$name.out" "${argv[@]}" >/dev/null 2>"$tmp/$name.log" || {
        echo "instruction_mix.sh: $cmd failed (see below)" >&2
        tail -5 "$tmp/$name.log" >&2
        exit 1
    }
    specs+=("$name=$tmp/$name.out:$bin")
done
python3 "$ROOT/benches/instruction_mix.py" "${specs[@]}"
