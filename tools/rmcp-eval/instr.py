#!/usr/bin/env python3
"""Instructions a `mem_search` takes in a running `memory_mcp`, per build, under valgrind's
callgrind (load-independent, unlike wall time on a shared machine): one home of --turns turns
(ingested by the first build), then for each build a server run that only initializes and one
that also answers --queries `mem_search` calls (bench-scale's mixed queries, topK 5); the
difference over the queries is the figure, start-up and shutdown cancelled out.

    python3 tools/rmcp-eval/instr.py --turns 100000 A_BIN B_BIN
"""

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_scale", os.path.join(os.path.dirname(HERE), "bench-scale.py"))
bs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bs)


def instructions(binary, home, env, queries):
    out = tempfile.mktemp(prefix="rmcp-instr-")
    server = bs.Rpc(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary,
                     "memory_mcp", "--home", home], env)
    for q in queries:
        server.tool("mem_search", {"query": q, "topK": 5})
    server.close()
    report = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
    os.remove(out)
    return int(re.search(r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", report)[1].replace(",", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bins", nargs="+")
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=100)
    args = ap.parse_args()
    env = dict(os.environ, AGENTBOX_NOW=bs.NOW, TZ="UTC")
    work = tempfile.mkdtemp(prefix="rmcp-instr-")
    try:
        subprocess.run([args.bins[0], "init", work, "--format", "json"], check=True, capture_output=True, env=env)
        home = os.path.join(work, ".agent")
        env = dict(env, AGENTBOX_HOME=home)
        corpus = bs.Corpus(args.turns)
        server = bs.Rpc([args.bins[0], "memory_mcp", "--home", home], env)
        bs.ingest(server, list(bs.batches_of(corpus.episodes())), corpus, {}, True, 8)
        server.close()
        queries = corpus.queries(args.queries)
        # Untimed: the first server after the ingest does one-time work on
        # the index (millions of instructions) that no measured run should get.
        server = bs.Rpc([args.bins[0], "memory_mcp", "--home", home], env)
        server.tool("mem_search", {"query": queries[0], "topK": 5})
        server.close()
        for binary in args.bins:
            idle = instructions(binary, home, env, queries[:1])
            busy = instructions(binary, home, env, queries)
            print(f"{binary}: {(busy - idle) / (len(queries) - 1):,.0f} instructions a mem_search "
                  f"(server run with 1 query: {idle:,})", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
