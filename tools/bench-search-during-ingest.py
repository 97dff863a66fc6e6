#!/usr/bin/env python3
"""`agentbox search` beside a running ingest: how long a search waits while `memory_mcp`
writes the index without pause.

Ingests `--turns` turns (tools/bench-scale.py's corpus, 100 messages a `mem_save_turn` call,
`--window` calls in flight) into a fresh home while another thread runs `agentbox search Q`
as whole processes, one after another, until the ingest ends; prints the ingest's turns/s and
how many searches finished during it, with their median, p90 and slowest latency. A search
that finds an open episode behind the index catches it up, which needs the index's write lock.
With `--check`, the index is then compared with the episode files: every turn in them must be
in the index once (exit 1 otherwise) — the searches' catch-ups race the server's index writer.

    python3 tools/bench-search-during-ingest.py --bin target/release/agentbox --turns 300000
    python3 tools/bench-search-during-ingest.py --bin target/release/agentbox --turns 100000 --check

docs/PERFORMANCE.md ("Twelfth session", "A search beside a long ingest") has the figures.
"""

import argparse
import glob
import importlib.util
import json
import os
import sqlite3
import shutil
import statistics
import subprocess
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_scale", os.path.join(HERE, "bench-scale.py"))
bs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the agentbox binary")
    ap.add_argument("--turns", type=int, default=300_000)
    ap.add_argument("--window", type=int, default=8, help="calls in flight (default 8)")
    ap.add_argument("--query", default="deploy key")
    ap.add_argument("--workdir", default=None, help="where the fresh home goes (default: the temp folder)")
    ap.add_argument("--check", action="store_true", help="then check that the index holds every turn")
    args = ap.parse_args()
    corpus = bs.Corpus(args.turns)
    batches = list(bs.batches_of(list(corpus.episodes())))
    tmp = tempfile.mkdtemp(dir=args.workdir)
    try:
        env = dict(os.environ, AGENTBOX_NOW=bs.NOW, TZ="UTC")
        subprocess.run([args.bin, "init", tmp, "--format", "json"], check=True, capture_output=True, env=env)
        home = os.path.join(tmp, ".agent")
        env["AGENTBOX_HOME"] = home
        rpc = bs.Rpc([args.bin, "memory_mcp", "--home", home], env)
        done = threading.Event()
        latencies, failures = [], []

        def searcher():
            while not done.is_set():
                start = time.perf_counter()
                out = subprocess.run([args.bin, "search", args.query, "--format", "json"],
                                     env=env, capture_output=True)
                if out.returncode != 0:
                    failures.append(out.stderr.decode(errors="replace")[:200])
                    continue
                latencies.append((time.perf_counter() - start) * 1000)

        thread = threading.Thread(target=searcher)
        thread.start()
        count, secs = bs.ingest(rpc, batches, corpus, {}, True, args.window)
        done.set()
        thread.join()
        rpc.proc.stdin.close()
        rpc.proc.wait()
        problem = check(home) if args.check else None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    latencies.sort()
    if failures:
        print(f"{len(failures)} searches failed, e.g. {failures[0]}")
    print(f"ingest {count / secs / 1000:.1f}k turns/s in {secs:.2f} s; {len(latencies)} searches during it",
          end="")
    if latencies:
        p90 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.9))]
        print(f": median {statistics.median(latencies):.1f} ms, p90 {p90:.1f} ms, slowest {latencies[-1]:.1f} ms")
    else:
        print()
    if problem:
        raise SystemExit(f"index check: {problem}")
    if args.check:
        print("index check: every turn of the episode files is in the index once")


def check(home):
    """What is wrong with the index against the episode files, or None."""
    in_files = set()
    for path in glob.glob(os.path.join(home, "memory", "episodes", "*", "*.jsonl")):
        with open(path) as f:
            in_files.update(json.loads(line)["id"] for line in f)
    db = sqlite3.connect(os.path.join(home, "index", "search.db"))
    indexed = [row[0] for row in db.execute("SELECT id FROM docs WHERE kind = 'turn'")]
    db.close()
    missing = in_files - set(indexed)
    extra = set(indexed) - in_files
    if missing or extra or len(indexed) != len(set(indexed)):
        return (f"{len(in_files)} turns in the files, {len(indexed)} in the index: "
                f"{len(missing)} missing (e.g. {sorted(missing)[:3]}), {len(extra)} not in the files")
    return None


if __name__ == "__main__":
    main()
