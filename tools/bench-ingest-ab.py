#!/usr/bin/env python3
"""Batched ingest through `memory_mcp`, two builds (and the no-fsync peer) taking turns.

Each round ingests the same `--turns` turns (tools/bench-scale.py's corpus: 100 messages a
`mem_save_turn` call, `--window` calls in flight, every reply checked `saved`) into a fresh
home with build A, then with build B, then (with `--peer`) into tools/jsonl-peer.py, and
prints turns/s with the CPU seconds of each server thread (the request thread, `mcp-stdin`,
`index-writer`) and of this client. On a shared VM wall time drifts: read the pairs of a
round against each other, not rounds against rounds.

    python3 tools/bench-ingest-ab.py --bin OLD --bin-b NEW --rounds 3
    python3 tools/bench-ingest-ab.py --bin target/release/agentbox --peer --turns 100000

docs/PERFORMANCE.md ("Twelfth session") has the figures.
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_scale", os.path.join(HERE, "bench-scale.py"))
bs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bs)


def threads(pid):
    """CPU seconds of each thread of `pid`, by thread name."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for tid in os.listdir(f"/proc/{pid}/task"):
        text = open(f"/proc/{pid}/task/{tid}/stat").read()
        name = text.split("(", 1)[1].rsplit(")", 1)[0]
        fields = text.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def one(label, argv, batches, corpus, window, workdir, binary):
    tmp = tempfile.mkdtemp(dir=workdir)
    try:
        env = dict(os.environ, AGENTBOX_NOW=bs.NOW, TZ="UTC")
        subprocess.run([binary, "init", tmp, "--format", "json"], check=True, capture_output=True, env=env)
        home = os.path.join(tmp, ".agent")
        env["AGENTBOX_HOME"] = home
        peer = argv is None
        if peer:
            log = os.path.join(tmp, "peer.jsonl")
            open(log, "w").close()
            mode = "sdk" if importlib.util.find_spec("mcp") else "raw"
            argv = [sys.executable, os.path.join(HERE, "jsonl-peer.py"), log, "--mode", mode]
        else:
            argv = argv + ["memory_mcp", "--home", home]
        rpc = bs.Rpc(argv, env)
        client = time.process_time()
        count, secs = bs.ingest(rpc, batches, corpus, {}, not peer, window)
        client = time.process_time() - client
        cpu = threads(rpc.proc.pid)
        rpc.proc.stdin.close()
        rpc.proc.wait()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    shown = ", ".join(f"{name} {s:.2f}" for name, s in sorted(cpu.items()))
    print(f"{label:6} {count / secs / 1000:6.1f}k turns/s  wall {secs:.2f} s  "
          f"server CPU s: {shown}  client {client:.2f}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="build A")
    ap.add_argument("--bin-b", help="build B (taking turns with A)")
    ap.add_argument("--peer", action="store_true", help="also the no-fsync plain-JSONL peer")
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--window", type=int, default=8, help="calls in flight (default 8)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workdir", default=None, help="where the fresh homes go (default: the temp folder)")
    args = ap.parse_args()
    corpus = bs.Corpus(args.turns)
    batches = list(bs.batches_of(list(corpus.episodes())))
    sides = [("A", [args.bin])] + ([("B", [args.bin_b])] if args.bin_b else [])
    if args.peer:
        sides.append(("peer", None))
    for r in range(args.rounds):
        print(f"round {r + 1}", flush=True)
        for label, argv in sides:
            one(label, argv, batches, corpus, args.window, args.workdir, args.bin)


if __name__ == "__main__":
    main()
