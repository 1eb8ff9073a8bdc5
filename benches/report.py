#!/usr/bin/env python3
"""Turns criterion's estimates (target/criterion/**/new/) into the ratio
tables of BENCHMARKS.md.

Usage: cargo bench -p gimso-benches && python3 benches/report.py

Benchmark ids are <group>/<variant>: alloc_free/16/{gimso,glibc,...},
pointer/store/{gimso,raw}, ... Each table row is one group; each ratio is
gimso's mean time over the baseline's mean time, both from the same run.
"""
import json
import pathlib
import sys

root = pathlib.Path(__file__).resolve().parent.parent / "target" / "criterion"
means = {}
for bench in root.glob("**/new/benchmark.json"):
    info = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    means[info["full_id"]] = est["mean"]["point_estimate"]

if not means:
    sys.exit("no criterion results: run `cargo bench -p gimso-benches` first")

groups = {}
for full_id, ns in means.items():
    group, variant = full_id.rsplit("/", 1)
    groups.setdefault(group, {})[variant] = ns


def fmt(ns):
    return f"{ns:.2f} ns" if ns < 1000 else f"{ns / 1000:.2f} µs"


baselines = ["glibc", "mimalloc", "glibc_calloc", "mimalloc_zeroed", "raw"]
print("| benchmark | gimso | " + " | ".join(f"vs {b}" for b in baselines) + " |")
print("|---|---|" + "---|" * len(baselines))
for group in sorted(groups, key=lambda g: (g.split("/")[0], int(g.split("/")[1]) if g.split("/")[-1].isdigit() else 0, g)):
    v = groups[group]
    if "gimso" not in v:
        continue
    cells = []
    for b in baselines:
        cells.append(f"{v['gimso'] / v[b]:.2f}× ({fmt(v[b])})" if b in v else "")
    print(f"| {group} | {fmt(v['gimso'])} | " + " | ".join(cells) + " |")
