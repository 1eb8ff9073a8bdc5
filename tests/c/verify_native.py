#!/usr/bin/env python3
"""Checks the tests/c programs against native clang-16 (no gimso involved).

run programs:   compiled with clang-16 -O0 and -O2; exit code and stdout
                must match the header (unless `native: differs`).
error programs: compiled with clang-16 -g -fsanitize=address at -O0 and -O2;
                reports whether ASan sees a bug and at which line.

Usage: tests/c/verify_native.py [--fix-lines] [NAME.c ...]
  --fix-lines  replace `line: BUG` in headers by the line of the `/* BUG */`
               marker (the marker comment stays in the source).
"""
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
CC = os.environ.get("NATIVE_CC", "clang-16")
EXTRA = os.environ.get("NATIVE_FLAGS", "").split()


def parse(path):
    text = open(path).read()
    if not text.startswith("/* gimso-test"):
        raise ValueError("no gimso-test header")
    header = text[: text.index("*/")]
    h = {"stdout": None, "exit": None, "line": None, "native": "", "stderr": None, "flags": "", "env": ""}
    in_stdout = False
    for raw in header.splitlines()[1:]:
        line = raw.strip()
        if line.startswith("*"):
            line = line[1:]
        if line.startswith(" "):
            line = line[1:]
        if line.startswith("|"):
            if not in_stdout:
                raise ValueError("| line outside stdout:")
            h["stdout"].append(line[2:] if line.startswith("| ") else line[1:])
            continue
        in_stdout = False
        if not line.strip():
            continue
        key, _, val = line.partition(":")
        val = val.strip()
        if key == "stdout":
            h["stdout"] = []
            in_stdout = True
        elif key in ("expect", "exit", "line", "native", "stderr", "flags", "env"):
            h[key] = val
        else:
            raise ValueError("unknown key " + key)
    return h, text


def fix_lines(path):
    text = open(path).read()
    if "line: BUG" not in text:
        return
    lines = text.splitlines()
    marks = [i + 1 for i, l in enumerate(lines) if "/* BUG */" in l]
    if len(marks) != 1:
        print(f"{path}: expected one BUG marker, found {marks}")
        return
    text = text.replace("line: BUG", f"line: {marks[0]}", 1)
    open(path, "w").write(text)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=120, **kw)


def status(p):
    return p.returncode if p.returncode >= 0 else 128 - p.returncode


def check(path):
    name = os.path.basename(path)
    out = []
    try:
        h, _ = parse(path)
    except Exception as e:  # noqa
        return [f"{name}: bad header: {e}"]
    expect = h["expect"] or ""
    # The header's `env:` variables, as the gimso run gets them.
    header_env = dict(kv.split("=", 1) for kv in h["env"].split() if "=" in kv)
    with tempfile.TemporaryDirectory() as tmp:
        if expect == "run":
            want_out = "".join(l + "\n" for l in (h["stdout"] or []))
            want_exit = int(h["exit"] or 0)
            for opt in ("-O0", "-O2"):
                exe = os.path.join(tmp, "a" + opt)
                c = run([CC, opt, *EXTRA, *[f for f in h["flags"].split() if not f.startswith(("-fgimso", "-fno-gimso"))], "-g", "-w", path, "-o", exe])
                if c.returncode:
                    out.append(f"{name} {opt}: compile failed: {c.stderr.decode()[:500]}")
                    continue
                p = run([exe], stdin=subprocess.DEVNULL, env=dict(os.environ, **header_env))
                got = p.stdout.decode(errors="replace")
                problems = []
                if status(p) != want_exit:
                    problems.append(f"exit {status(p)} want {want_exit}")
                if got != want_out:
                    problems.append(f"stdout differs:\n--- got\n{got}--- want\n{want_out}")
                if h["stderr"] and h["stderr"] not in p.stderr.decode(errors="replace"):
                    problems.append(f"stderr lacks {h['stderr']!r}")
                if problems:
                    tag = "EXPECTED-DIFF" if h["native"].startswith("differs") else "FAIL"
                    out.append(f"{tag} {name} {opt}: " + "; ".join(problems))
                else:
                    if h["native"].startswith("differs"):
                        out.append(f"NOTE {name} {opt}: native matches although marked differs")
        elif expect.startswith("error "):
            for opt in ("-O0", "-O2"):
                exe = os.path.join(tmp, "a" + opt)
                c = run([CC, opt, *EXTRA, *[f for f in h["flags"].split() if not f.startswith(("-fgimso", "-fno-gimso"))], "-g", "-w", "-fsanitize=address", path, "-o", exe])
                if c.returncode:
                    out.append(f"{name} {opt}: ASan compile failed: {c.stderr.decode()[:500]}")
                    continue
                env = dict(os.environ, **header_env, ASAN_OPTIONS="detect_leaks=0")
                p = run([exe], stdin=subprocess.DEVNULL, env=env)
                err = p.stderr.decode(errors="replace")
                m = re.search(r"ERROR: AddressSanitizer: ([\w-]+)", err)
                kind = m.group(1) if m else None
                line_ok = ""
                if h["line"]:
                    frames = re.findall(re.escape(name) + r":(\d+)", err)
                    line_ok = ("line-ok" if h["line"] in frames else f"line-MISMATCH {frames[:3]}")
                want_out = h["stdout"]
                out_ok = ""
                if want_out is not None:
                    got = p.stdout.decode(errors="replace")
                    want = "".join(l + "\n" for l in want_out)
                    if got == want:
                        out_ok = "stdout-ok"
                    elif not kind and got.startswith(want):
                        out_ok = "stdout-prefix-ok"
                    else:
                        out_ok = f"stdout-DIFF got {got!r}"
                if kind:
                    out.append(f"ASAN {name} {opt}: {kind} {line_ok} {out_ok}")
                else:
                    tag = "ASAN-BLIND" if "no-asan" in h["native"] else "ASAN-MISS"
                    out.append(f"{tag} {name} {opt}: exit {status(p)} {out_ok} {err.strip()[:200]!r}")
        else:
            out.append(f"{name}: bad expect {expect!r}")
    return out


def main():
    args = sys.argv[1:]
    fix = "--fix-lines" in args
    args = [a for a in args if a != "--fix-lines"]
    files = [os.path.join(HERE, a) if not os.path.isabs(a) else a for a in args]
    if not files:
        files = sorted(
            os.path.join(d, f)
            for d, _, names in os.walk(HERE)
            for f in names
            if f.endswith(".c")
        )
    if fix:
        for f in files:
            fix_lines(f)
    with ThreadPoolExecutor(2) as ex:
        for res in ex.map(check, files):
            for l in res:
                print(l, flush=True)


if __name__ == "__main__":
    main()
