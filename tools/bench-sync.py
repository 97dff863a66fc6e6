#!/usr/bin/env python3
"""sync over a file:// remote with 100,000 turns in the home.

Builds a home with TURNS turns (the episode files of tools/bench-memory.py),
sets up sync against a bare file:// remote and pushes it, then times:

- `sync status` (median of RUNS): the issue asks <= 50 ms;
- a no-change `sync now` (median of RUNS): <= 200 ms;
- NEW new episodes (PER_EPISODE turns each) written in home A, pushed by A's `sync now`, then pulled
  by a second home B (`sync pull`): <= 2 s for both together.

Usage: python3 tools/bench-sync.py [--turns 100000] [--new 1000] [--per-episode 10] [--runs 15] [--no-build] [--keep]
"""

import argparse
import importlib.util
import json
import os
import random
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("bench_memory", os.path.join(ROOT, "tools", "bench-memory.py"))
bm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bm)
NOW = "2026-03-01T12:00:00Z"


def new_episodes(home, count, rng, per=10):
    """COUNT new closed episodes of PER turns each, in the documented format."""
    base = 1772366400  # 2026-03-01T12:00:00Z
    for e in range(count):
        session = f"new{e % 20:02d}"
        t0 = base + e
        episode = time.strftime("ep-%Y%m%dT%H%M%SZ", time.gmtime(t0)) + f"-b{e}"
        folder = os.path.join(home, "memory", "episodes", session)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, episode + ".jsonl"), "w") as f:
            for seq in range(1, per + 1):
                text = f"I {rng.choice(bm.VERBS)} {rng.choice(bm.SUBJECTS)} {rng.choice(bm.TAILS)}."
                f.write(json.dumps({
                    "schema": "agentbox.turn/v1", "id": f"{episode}#{seq}", "session": session,
                    "episode": episode, "seq": seq,
                    "ts": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0)),
                    "role": "user" if seq % 2 else "assistant", "content": text,
                    "tool_calls": [], "tool_call_id": None, "source": "import",
                }) + "\n")


def median(binary, args, home, runs, env):
    times = [bm.timed([binary, *args, "--home", home, "--format", "json"], env=env) for _ in range(runs)]
    return bm.pct(times, 50)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--new", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--per-episode", type=int, default=10, help="turns in each new episode")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the temp homes (their path is printed)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "agentbox"))
    args = ap.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "agentbox"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="bench-sync-")
    try:
        # git's own configuration stays out (no credential helper, no identity).
        env = dict(os.environ, AGENTBOX_NOW=NOW, TZ="UTC", HOME=tmp, GIT_CONFIG_NOSYSTEM="1")
        remote = os.path.join(tmp, "remote.git")
        subprocess.run(["git", "init", "-q", "--bare", remote], check=True, env=env)
        url = "file://" + remote
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        for project in (a, b):
            os.makedirs(project)
            subprocess.run([args.bin, "init", project], check=True, capture_output=True, env=env)
        home_a, home_b = os.path.join(a, ".agent"), os.path.join(b, ".agent")
        rng = random.Random(11)
        turns = bm.generate(home_a, args.turns, rng)
        start = time.perf_counter()
        bm.sh([args.bin, "sync", "init", "--remote", url, "--home", home_a], env=env)
        bm.sh([args.bin, "sync", "now", "--home", home_a], env=env)
        first = time.perf_counter() - start
        start = time.perf_counter()
        bm.sh([args.bin, "sync", "init", "--remote", url, "--home", home_b], env=env)
        clone = time.perf_counter() - start

        status = median(args.bin, ["sync", "status"], home_a, args.runs, env)
        now = median(args.bin, ["sync", "now"], home_a, args.runs, env)

        new_episodes(home_a, args.new, rng, args.per_episode)
        if os.environ.get("BENCH_SYNC_STOP_BEFORE_PUSH"):
            print(f"  stopped before the push: {tmp}")
            return
        push = bm.timed([args.bin, "sync", "now", "--home", home_a], env=env)
        pull = bm.timed([args.bin, "sync", "pull", "--home", home_b], env=env)
        missing = [
            rel for rel in os.listdir(os.path.join(home_a, "memory", "episodes"))
            if not os.path.isdir(os.path.join(home_b, "memory", "episodes", rel))
        ]
        if missing:
            raise SystemExit(f"home B lacks sessions {missing}")

        print(f"sync over file://, {turns} turns in the home:")
        print(f"  first commit + push of the home: {first:.2f} s; a second home's init (takes it all): {clone:.2f} s")
        print(f"  sync status (median of {args.runs}):         {status:.1f} ms  (target <= 50 ms)")
        print(f"  no-change sync now (median of {args.runs}):  {now:.1f} ms  (target <= 200 ms)")
        print(f"  {args.new} new episodes: push (A sync now) {push:.0f} ms + pull (B sync pull) {pull:.0f} ms"
              f" = {push + pull:.0f} ms  (target <= 2000 ms)")
    finally:
        if args.keep:
            print(f"  kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
