#!/usr/bin/env python3
"""Redactor benchmark driver (python3 stdlib only; valgrind for instruction counts).

Builds `benches/redact.rs` (a `harness = false` bench, no criterion) in the
bench profile and reports, per case:

  instructions  `valgrind --tool=callgrind` instruction count of ONE run of the
                case: the count of `--iters 1` minus the count of `--iters 0`
                (both build the same input, so program start and input
                generation cancel out). Deterministic: the figure to compare
                across commits.
  wall clock    median of --runs timed runs inside one process (after one
                warm-up run), with throughput in MiB/s.

Cases:
  prose-1mib / prose-4mib   prose without any trigger (the prefilter's path)
  mixed-1mib / mixed-4mib   transcript-like text with secrets every few lines
  pairs-1mib / pairs-4mib   `password=x ` repeated: a mask every 11 bytes
  compile                   Redactor::new with 8 user patterns ("redactor compile")
  shape-*-128kib/-512kib    units that would make a naive matcher rescan

Linear time is checked by counting work, not seconds: for every shape, the
instruction count at 4x the size must stay under 4.5x (a quadratic pass
would be ~16x). `--check` exits with status 2 when a ratio is over.

Usage: python3 tools/bench-redact.py [--runs 15] [--no-build] [--no-callgrind]
                                     [--markdown] [--check]
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_RATIO = 4.5
PAIRS = [("prose-1mib", "prose-4mib"), ("mixed-1mib", "mixed-4mib"), ("pairs-1mib", "pairs-4mib")]


def fail(message):
    print(f"bench-redact: {message}", file=sys.stderr)
    sys.exit(1)


def build():
    out = subprocess.run(
        ["cargo", "bench", "--bench", "redact", "--no-run", "--message-format=json"],
        cwd=ROOT, stdout=subprocess.PIPE, check=False, text=True,
    )
    if out.returncode != 0:
        fail("cargo bench --no-run failed")
    exe = None
    for line in out.stdout.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "redact" \
                and "bench" in msg["target"]["kind"] and msg.get("executable"):
            exe = msg["executable"]
    if not exe:
        fail("no bench executable in cargo's output")
    return exe


def instructions(exe, case, iters):
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             exe, "--case", case, "--iters", str(iters)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False,
        )
    if out.returncode != 0:
        fail(f"callgrind run of {case} failed:\n{out.stderr}")
    m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if not m:
        fail(f"no instruction count for {case}:\n{out.stderr}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--no-build", action="store_true", help="use the last built bench binary")
    ap.add_argument("--bin", help="bench executable (implies --no-build)")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()

    exe = args.bin or (None if args.no_build else build())
    if exe is None:
        found = sorted((ROOT / "target" / "release" / "deps").glob("redact-*"),
                       key=lambda p: p.stat().st_mtime)
        found = [p for p in found if os.access(p, os.X_OK) and p.suffix == ""]
        if not found:
            fail("no built bench binary; run without --no-build")
        exe = str(found[-1])

    out = subprocess.run([exe, "--runs", str(args.runs)], stdout=subprocess.PIPE,
                         text=True, check=True)
    wall = {r["case"]: r for r in map(json.loads, out.stdout.splitlines())}

    counts = {}
    if not args.no_callgrind:
        if not shutil.which("valgrind"):
            fail("valgrind not found (use --no-callgrind for wall clock only)")
        for case in wall:
            counts[case] = instructions(exe, case, 1) - instructions(exe, case, 0)

    rows = []
    for case, r in wall.items():
        ms = r["median_ns"] / 1e6
        mibs = (r["bytes"] / (1 << 20)) / (r["median_ns"] / 1e9) if r["bytes"] else None
        rows.append((case, r["bytes"], counts.get(case), ms, mibs))

    over = []
    ratios = []
    if counts:
        pairs = PAIRS + [(c, c.replace("-128kib", "-512kib")) for c in wall if c.endswith("-128kib")]
        for small, large in pairs:
            ratio = counts[large] / max(counts[small], 1)
            ratios.append((small, large, ratio))
            if ratio > MAX_RATIO:
                over.append((small, large, ratio))

    if args.markdown:
        print("| case | input | instructions | Ir/byte | wall median (ms) | MiB/s |")
        print("|---|---:|---:|---:|---:|---:|")
        for case, size, ir, ms, mibs in rows:
            if case.startswith("shape-"):
                continue
            irs = f"{ir:,}" if ir is not None else "—"
            per = f"{ir / size:.1f}" if ir is not None and size else "—"
            print(f"| `{case}` | {size:,} B | {irs} | {per} | {ms:.3f} | {f'{mibs:.0f}' if mibs else '—'} |")
        if ratios:
            print()
            print("| shape | Ir at 1x | Ir at 4x | ratio |")
            print("|---|---:|---:|---:|")
            for small, large, ratio in ratios:
                name = small.rsplit("-", 1)[0]
                print(f"| `{name}` | {counts[small]:,} | {counts[large]:,} | {ratio:.2f} |")
    else:
        for case, size, ir, ms, mibs in rows:
            irs = f"{ir:>14,}" if ir is not None else f"{'-':>14}"
            rate = f"{mibs:8.0f} MiB/s" if mibs else ""
            print(f"{case:28} {size:>9} B  Ir {irs}  median {ms:9.3f} ms {rate}")
        for small, large, ratio in ratios:
            print(f"ratio {large} / {small}: {ratio:.2f}")
    if over:
        for small, large, ratio in over:
            print(f"bench-redact: {large} costs {ratio:.2f}x {small} (limit {MAX_RATIO})",
                  file=sys.stderr)
        if args.check:
            sys.exit(2)


if __name__ == "__main__":
    main()
