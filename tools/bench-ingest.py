#!/usr/bin/env python3
"""Ingest through `memory_mcp` alone: the batches of tools/bench-scale.py (100 messages a
`mem_save_turn` call, `--window` calls in flight) into a fresh home or a kept one, with the
server's CPU time per turn, or, under `--callgrind`, the instructions it executes per turn.
Instruction counts repeat whatever the load of the machine; wall time on a shared VM does not.

    python3 tools/bench-ingest.py --bin target/release/agentbox --turns 100000
    python3 tools/bench-ingest.py --bin target/release/agentbox --turns 30000 --callgrind
    python3 tools/bench-ingest.py --bin target/release/agentbox --turns 20000 --callgrind \\
        --home /tmp/bench-scale-1000000-xxxx/.agent --seed 7   # a kept 1M home (bench-scale --keep)

docs/PERFORMANCE.md ("Fourth session") has the figures.
"""

import argparse
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_scale", os.path.join(HERE, "bench-scale.py"))
bs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bs)


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the agentbox binary")
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--window", type=int, default=8, help="calls in flight (default 8)")
    ap.add_argument("--home", help="ingest into this home (default: a fresh one, deleted after)")
    ap.add_argument("--seed", type=int, default=11, help="corpus seed (another seed: other sessions' text)")
    ap.add_argument("--callgrind", action="store_true", help="run the server under valgrind's callgrind")
    args = ap.parse_args()

    tmp = None
    home = args.home
    if home is None:
        tmp = tempfile.mkdtemp(prefix="bench-ingest-")
        subprocess.run([args.bin, "init", tmp, "--format", "json"], check=True, capture_output=True)
        home = os.path.join(tmp, ".agent")
    env = dict(os.environ, AGENTBOX_HOME=home)
    corpus = bs.Corpus(args.turns, seed=args.seed)
    batches = list(bs.batches_of(corpus.episodes()))
    out = os.path.join(tempfile.gettempdir(), f"bench-ingest-{os.getpid()}.callgrind")
    argv = [args.bin, "memory_mcp", "--home", home]
    if args.callgrind:
        if not shutil.which("valgrind"):
            sys.exit("--callgrind needs valgrind")
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv
    server = bs.Rpc(argv, env)
    before = cpu_seconds(server.proc.pid)
    count, secs = bs.ingest(server, batches, corpus, {}, True, args.window)
    used = cpu_seconds(server.proc.pid) - before
    server.close()
    line = f"{count} turns in {secs:.2f} s = {count / secs:,.0f} turns/s; server CPU {used / count * 1e6:.1f} µs a turn"
    if args.callgrind:
        report = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
        total = re.search(r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", report)
        os.remove(out)
        if total:
            line += f"; {int(total[1].replace(',', '')) / count / 1e3:.1f}k instructions a turn (whole server run)"
    print(line)
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
