#!/usr/bin/env python3
"""mem_context with and without foresight, in one running memory_mcp.

Builds a home with 100,000 turns (the episode files of tools/bench-memory.py),
indexes it, then times QUERIES `mem_context` calls in one `memory_mcp`
process twice: with no `memory/foresight.jsonl`, and with ITEMS foresight
items (a mix of open, expired, dismissed and snoozed states, several lines per
item as `proactive` appends them). Prints p50/p95 of both: the Foresight
section reads the file once per call, and the issue asks that mem_context
keeps its p50.

Usage: python3 tools/bench-context.py [--turns 100000] [--items 1000] [--queries 200] [--no-build]
"""

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("bench_memory", os.path.join(ROOT, "tools", "bench-memory.py"))
bm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bm)
NOW = "2026-03-01T12:00:00Z"


def foresight(home, items, rng):
    lines = []
    for i in range(items):
        day = 1 + i % 28
        state = {
            "id": f"f-{i:012x}", "text": f"Follow up on {rng.choice(bm.SUBJECTS)} item {i}",
            "valid_from": "2026-02-01T00:00:00Z", "valid_until": f"2026-03-{day:02d}T23:59:59Z",
            "due": f"2026-03-{day:02d}T17:00:00Z", "source": "cli",
            "created": "2026-02-01T00:00:00Z", "updated": "2026-02-01T00:00:00Z", "status": "open",
        }
        lines.append(json.dumps(state))
        if i % 5 == 0:  # a later state: dismissed
            lines.append(json.dumps(dict(state, status="dismissed", updated="2026-02-02T00:00:00Z")))
        elif i % 7 == 0:  # snoozed
            lines.append(json.dumps(dict(state, status="snoozed", snoozed_until="2026-03-05T00:00:00Z",
                                         updated="2026-02-02T00:00:00Z")))
    with open(os.path.join(home, "memory", "foresight.jsonl"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return len(lines)


def measure(binary, home, queries, rng):
    server = bm.Server(binary, home)
    times = []
    for _ in range(queries):
        query = f"{rng.choice(bm.VERBS)} {rng.choice(bm.SUBJECTS)}"
        start = time.perf_counter_ns()
        server.call("tools/call", {"name": "mem_context", "arguments": {"query": query}})
        times.append((time.perf_counter_ns() - start) / 1e6)
    server.close()
    return bm.pct(times, 50), bm.pct(times, 95)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--items", type=int, default=1000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "agentbox"))
    args = ap.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "agentbox"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="bench-context-")
    try:
        env = dict(os.environ, AGENTBOX_NOW=NOW, TZ="UTC")
        os.environ.update(AGENTBOX_NOW=NOW, TZ="UTC")
        subprocess.run([args.bin, "init", tmp], check=True, capture_output=True, env=env)
        home = os.path.join(tmp, ".agent")
        rng = random.Random(11)
        turns = bm.generate(home, args.turns, rng)
        subprocess.run([args.bin, "reindex", "--home", home], check=True, capture_output=True, env=env)
        before = measure(args.bin, home, args.queries, random.Random(3))
        lines = foresight(home, args.items, rng)
        after = measure(args.bin, home, args.queries, random.Random(3))
        print(f"mem_context, {turns} turns, {args.queries} calls in one server:")
        print(f"  no foresight file:                      p50 {before[0]:.2f} ms, p95 {before[1]:.2f} ms")
        print(f"  {args.items} items ({lines} lines) in foresight: p50 {after[0]:.2f} ms, p95 {after[1]:.2f} ms")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
