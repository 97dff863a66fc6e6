#!/usr/bin/env python3
"""Ingest through `memory_mcp` alone: the batches of tools/bench-scale.py (100 messages a
`mem_save_turn` call, `--window` calls in flight) into a fresh home or a kept one, with the
server's CPU time per turn (and each of its threads': the request thread, `mcp-stdin`,
`index-writer`), or, under `--callgrind`, the instructions it executes per turn. Instruction
counts repeat whatever the load of the machine; wall time on a shared VM does not.

With `--bin-b` and/or `--peer`, builds A and B (and tools/jsonl-peer.py, the no-fsync peer)
take turns, `--rounds` times, each into a fresh home: read the pairs of a round against each
other, not rounds against rounds.

    python3 tools/bench-ingest.py --bin target/release/agentbox --turns 100000
    python3 tools/bench-ingest.py --bin target/release/agentbox --turns 30000 --callgrind
    python3 tools/bench-ingest.py --bin target/release/agentbox --turns 20000 --callgrind \\
        --home /tmp/bench-scale-1000000-xxxx/.agent --seed 7   # a kept 1M home (bench-scale --keep)
    python3 tools/bench-ingest.py --bin OLD --bin-b NEW --peer --rounds 3

docs/PERFORMANCE.md ("Fourth session", "Twelfth session") has the figures.
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


def thread_seconds(pid):
    """CPU seconds of each thread of `pid`, by thread name."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        text = open(f"/proc/{pid}/task/{tid}/stat").read()
        name = text.split("(", 1)[1].rsplit(")", 1)[0]
        fields = text.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0) + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def run(binary, side, args, batches, corpus):
    """One ingest of `batches` by `side` (an agentbox binary, or None for the peer); the
    result line."""
    tmp = None
    home = args.home
    if home is None:
        tmp = tempfile.mkdtemp(prefix="bench-ingest-")
        subprocess.run([binary, "init", tmp, "--format", "json"], check=True, capture_output=True)
        home = os.path.join(tmp, ".agent")
    env = dict(os.environ, AGENTBOX_HOME=home)
    out = os.path.join(tempfile.gettempdir(), f"bench-ingest-{os.getpid()}.callgrind")
    if side is None:
        log = os.path.join(tmp, "peer.jsonl")
        open(log, "w").close()
        mode = "sdk" if importlib.util.find_spec("mcp") else "raw"
        argv = [sys.executable, os.path.join(HERE, "jsonl-peer.py"), log, "--mode", mode]
    else:
        argv = [side, "memory_mcp", "--home", home]
    if args.callgrind:
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv
    server = bs.Rpc(argv, env)
    before = cpu_seconds(server.proc.pid)
    count, secs = bs.ingest(server, batches, corpus, {}, side is not None, args.window)
    used = cpu_seconds(server.proc.pid) - before
    threads = thread_seconds(server.proc.pid)
    server.close()
    line = f"{count} turns in {secs:.2f} s = {count / secs:,.0f} turns/s; server CPU {used / count * 1e6:.1f} µs a turn"
    if args.callgrind:
        report = subprocess.run(["callgrind_annotate", out], capture_output=True, text=True).stdout
        total = re.search(r"([\d,]+) \(100.0%\)\s+PROGRAM TOTALS", report)
        os.remove(out)
        if total:
            line += f"; {int(total[1].replace(',', '')) / count / 1e3:.1f}k instructions a turn (whole server run)"
    else:
        line += " (threads: " + ", ".join(f"{n} {t:.2f} s" for n, t in sorted(threads.items())) + ")"
    if tmp:
        shutil.rmtree(tmp, ignore_errors=True)
    return line


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the agentbox binary")
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--window", type=int, default=8, help="calls in flight (default 8)")
    ap.add_argument("--home", help="ingest into this home (default: a fresh one, deleted after)")
    ap.add_argument("--seed", type=int, default=11, help="corpus seed (another seed: other sessions' text)")
    ap.add_argument("--callgrind", action="store_true", help="run the server under valgrind's callgrind")
    ap.add_argument("--bin-b", help="build B, taking turns with --bin (fresh homes only)")
    ap.add_argument("--peer", action="store_true", help="also the no-fsync peer, tools/jsonl-peer.py")
    ap.add_argument("--rounds", type=int, default=1, help="rounds of A (B, peer) in turn (default 1)")
    args = ap.parse_args()
    if args.callgrind and not shutil.which("valgrind"):
        sys.exit("--callgrind needs valgrind")
    sides = [("A", args.bin)] + ([("B", args.bin_b)] if args.bin_b else []) + ([("peer", None)] if args.peer else [])
    if len(sides) > 1 and (args.home or args.callgrind):
        sys.exit("--bin-b and --peer take fresh homes, without --callgrind")
    corpus = bs.Corpus(args.turns, seed=args.seed)
    batches = list(bs.batches_of(corpus.episodes()))
    for r in range(args.rounds):
        for label, side in sides:
            line = run(args.bin, side, args, batches, corpus)
            print(line if len(sides) == 1 and args.rounds == 1 else f"round {r + 1} {label}: {line}", flush=True)

if __name__ == "__main__":
    main()
