#!/usr/bin/env python3
"""What kinds of instructions a program executed, from a callgrind profile.

    instruction_mix.py NAME=CALLGRIND_OUT:BINARY [NAME=CALLGRIND_OUT:BINARY ...]

Each profile must come from `valgrind --tool=callgrind --dump-instr=yes`
of BINARY (benches/instruction_mix.sh makes them). Only instructions of
BINARY itself count (gimso-cc links the runtime in; a clang build's libc is
left out, so compare like with like: the totals line says what was counted).
Categories are by mnemonic and operand shape; a gimso-cc build's checks show
up as `header load` (upper and aux words at -16 and -8 from a capability),
`aux shift`, `box test`, `align test` and `pollcheck`, its register pressure
as `spill`/`reload` and `push/pop`. Then, per profile, the functions with the
most spill and push/pop instructions.
"""

import collections
import re
import subprocess
import sys


def category(ins):
    mn = ins.split()[0] if ins else ""
    ops = ins[len(mn) :].strip()
    if mn.startswith("j") and mn != "jmp":
        return "jcc"
    if mn == "jmp":
        return "jmp"
    if mn in ("push", "pop"):
        return "push/pop"
    if mn.startswith(("call", "ret")):
        return "call/ret"
    if re.match(r"testq\s+\$0xf00,", ins):
        return "pollcheck"
    if re.search(r"-0x(10|8)\(%r", ops):
        return "header load"
    if mn.startswith("sar") and ops.startswith("$0x10,"):
        return "aux shift"
    if re.match(r"test[bq]?\s+\$0x1,", ins):
        return "box test"
    if re.match(r"test[bq]?\s+\$0x7,", ins):
        return "align test"
    if mn.startswith("mov") and "(%rsp)" in ops:
        return "spill" if ops.endswith("(%rsp)") else "reload"
    if mn.startswith(("cmp", "test")):
        return "cmp/test"
    if mn.startswith("lea"):
        return "lea"
    if mn.startswith("mov"):
        return "load/store" if "(" in ops else "reg move"
    return "other"


def costs(out, binary):
    """Instructions executed per address of `binary`, from callgrind file
    `out` (positions `instr line`, name compression, relative addresses)."""
    names, cost = {}, collections.Counter()
    addr, skip, ours = 0, False, False
    target = binary.rsplit("/", 1)[-1]
    with open(out) as f:
        for line in f:
            if line.startswith(("ob=", "cob=")):
                m = re.match(r"c?ob=\((\d+)\)(?: (.*))?", line.strip())
                if m and m.group(2):
                    names[m.group(1)] = m.group(2)
                if line.startswith("ob=") and m:
                    ours = names.get(m.group(1), "").rsplit("/", 1)[-1] == target
                continue
            if line.startswith("calls="):
                skip = True  # the next line is the call's inclusive cost
                continue
            if not line or line[0] not in "0123456789+-*":
                continue
            parts = line.split()
            a = parts[0]
            if a.startswith("0x"):
                addr = int(a, 16)
            elif a[0] in "+-":
                addr += int(a)
            if skip:
                skip = False
                continue
            if ours and len(parts) > 2:
                cost[addr] += int(parts[2])
    return cost


def disassembly(binary):
    """(function, instruction text) per address of `binary`."""
    text = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", binary],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    insts, fn = {}, None
    for line in text.split("\n"):
        m = re.match(r"^([0-9a-f]+) <(.*)>:", line)
        if m:
            fn = m.group(2)
            continue
        m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if m and fn:
            insts[int(m.group(1), 16)] = (fn, m.group(2).strip())
    return insts


def profile(spec):
    name, rest = spec.split("=", 1)
    out, binary = rest.rsplit(":", 1)
    cost, insts = costs(out, binary), disassembly(binary)
    cats, per_fn = collections.Counter(), collections.defaultdict(collections.Counter)
    for a, c in cost.items():
        at = insts.get(a)
        if at is None:
            # callgrind gives addresses as objdump does, even for a
            # position-independent executable; anything else is a bug here.
            cats["(not in the disassembly)"] += c
            continue
        k = category(at[1])
        cats[k] += c
        per_fn[at[0]][k] += c
        per_fn[at[0]]["total"] += c
    return name, cats, per_fn


def main(argv):
    if len(argv) < 2 or any("=" not in a or ":" not in a for a in argv[1:]):
        sys.exit(__doc__)
    profiles = [profile(a) for a in argv[1:]]
    order = collections.Counter()
    for _, cats, _ in profiles:
        order.update(cats)
    head = "| category | " + " | ".join(f"{n} (M) | %" for n, _, _ in profiles) + " |"
    print(head)
    print("|---|" + "---:|---:|" * len(profiles))
    for k, _ in order.most_common():
        cells = []
        for _, cats, _ in profiles:
            t = sum(cats.values()) or 1
            cells.append(f"{cats[k] / 1e6:.1f} | {100 * cats[k] / t:.1f}")
        print(f"| {k} | " + " | ".join(cells) + " |")
    totals = " | ".join(f"{sum(c.values()) / 1e6:.1f} | 100" for _, c, _ in profiles)
    print(f"| total | {totals} |")
    for name, _, per_fn in profiles:
        print(f"\n{name}: most spill, reload and push/pop instructions")
        worst = sorted(
            per_fn.items(),
            key=lambda kv: -(kv[1]["spill"] + kv[1]["reload"] + kv[1]["push/pop"]),
        )[:8]
        for fn, c in worst:
            regs = c["spill"] + c["reload"]
            print(
                f"  {regs / 1e6:7.1f}M spill/reload {c['push/pop'] / 1e6:6.1f}M push/pop"
                f" of {c['total'] / 1e6:7.1f}M  {fn[:70]}"
            )


if __name__ == "__main__":
    main(sys.argv)
