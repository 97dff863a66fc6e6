#!/usr/bin/env python3
"""mem_search cost in instructions, not seconds: repeatable on a noisy machine.

Builds a home of N turns (the generator of bench-memory.py), indexes it with
`agentbox reindex`, then runs `memory_mcp` under `valgrind --tool=callgrind`
twice: once answering Q `mem_search` requests and once answering none. The
difference divided by Q is the instructions one in-server search costs. Give
several binaries to compare them on the same home and queries.

Usage: python3 tools/bench-search-instructions.py [--turns 100000] [--queries 40] BIN [BIN…]
"""

import argparse
import importlib.util
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_memory", os.path.join(HERE, "bench-memory.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)


def frames(queries):
    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
              "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                         "clientInfo": {"name": "bench", "version": "0"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    for i, q in enumerate(queries, 1):
        lines.append({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                      "params": {"name": "mem_search", "arguments": {"query": q, "topK": 5}}})
    return "".join(json.dumps(l) + "\n" for l in lines)


def instructions(binary, home, stdin):
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", binary, "memory_mcp", "--home", home],
        input=stdin, capture_output=True, text=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        sys.exit(f"no callgrind total for {binary}:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=40)
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    rng = random.Random(7)
    pool = bench.NL_QUERIES + bench.KEYWORD_QUERIES
    queries = [rng.choice(pool) for _ in range(args.queries)]
    tmp = tempfile.mkdtemp(prefix="agentbox-cg-")
    try:
        seed = os.path.join(tmp, "seed")
        subprocess.run([args.binaries[0], "init", "--home", seed], stdout=subprocess.DEVNULL, check=True)
        bench.generate(seed, args.turns, random.Random(1))
        for binary in args.binaries:
            home = os.path.join(tmp, "home")
            shutil.rmtree(home, ignore_errors=True)
            shutil.copytree(seed, home, symlinks=True)
            subprocess.run([binary, "reindex", "--home", home], stdout=subprocess.DEVNULL, check=True)
            # One warm search so both runs start from a caught-up index.
            instructions(binary, home, frames(queries[:1]))
            base = instructions(binary, home, frames([]))
            full = instructions(binary, home, frames(queries))
            print(f"{binary}: {(full - base) / len(queries):,.0f} instructions per mem_search "
                  f"({args.turns:,} turns, {len(queries)} queries; server start {base:,})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
