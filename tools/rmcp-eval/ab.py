#!/usr/bin/env python3
"""A/B of two agentbox binaries as `memory_mcp` servers on identical homes: agentbox's own
protocol layer (A) against the rmcp prototype (B), or any two builds.

Per size, one base home is made once (sizes above --slice: the first N - slice turns written as
closed episode files and indexed with A's `agentbox reindex`, as tools/bench-scale.py does), then
each round copies it for A and for B (the two taking turns, the order swapped every round) and
measures on the copy, with tools/bench-scale.py's corpus, batches and client:

  ingest    the last --slice turns through batched `mem_save_turn` (100 messages a call,
            `flush: true` closing each episode, --window calls in flight), turns/s; the
            server's CPU seconds a turn and its VmHWM
  search    a fresh server: 200 `mem_search` then 200 `mem_context` (topK 5), p50 / p95 ms
            (bench-scale's mixed queries); its VmHWM after
  ready     spawn -> initialize -> first `mem_search` answered, median of 10

    python3 tools/rmcp-eval/ab.py --a A_BIN --b B_BIN --sizes 100000,1000000 --rounds 3
"""

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.dirname(HERE)
spec = importlib.util.spec_from_file_location("bench_scale", os.path.join(TOOLS, "bench-scale.py"))
bs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bs)


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def base_home(a_bin, n, slice_, work, env):
    """The home every round starts from, and the batches to ingest into it."""
    corpus = bs.Corpus(n)
    base = os.path.join(work, f"base-{n}")
    os.makedirs(base)
    subprocess.run([a_bin, "init", base, "--format", "json"], check=True, capture_output=True, env=env)
    home = os.path.join(base, ".agent")
    if n <= slice_:
        sliced = list(corpus.episodes())
    else:
        sliced, written = [], 0

        def split():
            nonlocal written
            for session, turns in corpus.episodes():
                if written < n - slice_:
                    written += len(turns)
                    yield session, turns
                else:
                    sliced.append((session, turns))

        peer = os.path.join(work, "peer.jsonl")
        bs.write_direct(home, peer, corpus, split(), {})
        os.remove(peer)
        bs.log(f"{n}: {written} turns written as files; reindex")
        subprocess.run([a_bin, "reindex", "--home", home, "--format", "json"], check=True,
                       capture_output=True, env=dict(env, AGENTBOX_HOME=home))
    return corpus, base, list(bs.batches_of(sliced))


def measure(binary, corpus, base, batches, work, env, label, queries, window):
    copy = os.path.join(work, f"run-{label}")
    shutil.copytree(base, copy, symlinks=True)
    home = os.path.join(copy, ".agent")
    env = dict(env, AGENTBOX_HOME=home)
    r = {}
    bs.flush_disk()
    server = bs.Rpc([binary, "memory_mcp", "--home", home], env)
    before = cpu_seconds(server.proc.pid)
    count, secs = bs.ingest(server, batches, corpus, {}, True, window)
    r["ingest_per_s"] = count / secs
    r["ingest_cpu_us"] = (cpu_seconds(server.proc.pid) - before) / count * 1e6
    r["ingest_rss_mb"] = server.hwm_mb()
    server.close()
    bs.flush_disk()
    server = bs.Rpc([binary, "memory_mcp", "--home", home], env)
    for name in ("mem_search", "mem_context"):
        times = []
        for q in queries:
            t = time.perf_counter_ns()
            server.tool(name, {"query": q, "topK": 5})
            times.append((time.perf_counter_ns() - t) / 1e6)
        r[f"{name}_ms"] = (bs.pct(times, 50), bs.pct(times, 95))
    r["server_rss_mb"] = server.hwm_mb()
    server.close()
    ready = []
    for q in queries[:10]:
        t = time.perf_counter_ns()
        s = bs.Rpc([binary, "memory_mcp", "--home", home], env)
        s.tool("mem_search", {"query": q, "topK": 5})
        ready.append((time.perf_counter_ns() - t) / 1e6)
        s.close()
    r["ready_ms"] = statistics.median(ready)
    shutil.rmtree(copy, ignore_errors=True)
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="build A (also makes the base homes)")
    ap.add_argument("--b", required=True, help="build B")
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--slice", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--window", type=int, default=8)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--json", help="append one JSON line per measurement to this file")
    args = ap.parse_args()
    env = dict(os.environ, AGENTBOX_NOW=bs.NOW, TZ="UTC")
    work = tempfile.mkdtemp(prefix="rmcp-ab-", dir=args.workdir)
    try:
        for n in [int(s) for s in args.sizes.split(",")]:
            corpus, base, batches = base_home(args.a, n, args.slice, work, env)
            queries = corpus.queries(args.queries)
            rows = {"A": [], "B": []}
            for rnd in range(args.rounds):
                sides = [("A", args.a), ("B", args.b)]
                for label, binary in sides if rnd % 2 == 0 else sides[::-1]:
                    bs.log(f"{n}: round {rnd + 1} {label}")
                    r = measure(binary, corpus, base, batches, work, env, label, queries, args.window)
                    r.update(size=n, round=rnd + 1, side=label, at=time.strftime("%H:%M:%S"))
                    rows[label].append(r)
                    print(json.dumps(r), flush=True)
                    if args.json:
                        with open(args.json, "a") as f:
                            f.write(json.dumps(r) + "\n")
            for label in ("A", "B"):
                rs = rows[label]
                med = lambda key, i=None: statistics.median(x[key] if i is None else x[key][i] for x in rs)
                rng = lambda key, i=None: (min(x[key] if i is None else x[key][i] for x in rs),
                                           max(x[key] if i is None else x[key][i] for x in rs))
                print(f"{n} {label}: ingest {med('ingest_per_s'):,.0f} turns/s {rng('ingest_per_s')} "
                      f"cpu {med('ingest_cpu_us'):.1f} us/turn; mem_search p50 {med('mem_search_ms', 0):.3f} "
                      f"p95 {med('mem_search_ms', 1):.3f} ms; mem_context p50 {med('mem_context_ms', 0):.3f} "
                      f"p95 {med('mem_context_ms', 1):.3f}; ready {med('ready_ms'):.1f} ms {rng('ready_ms')}; "
                      f"RSS ingest {med('ingest_rss_mb'):.1f} MB, search {med('server_rss_mb'):.1f} MB",
                      flush=True)
            shutil.rmtree(base, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
