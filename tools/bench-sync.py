#!/usr/bin/env python3
"""sync over a file:// remote with 100,000 turns in the home.

Builds home A with TURNS turns (the episode files of tools/bench-memory.py),
a bare git remote (`git init --bare`), runs `sync init --remote` and a first
`sync now`, then measures:

  * `sync status` (no network: local commits, the last fetch, dirty files);
  * a no-change `sync now` (fetch, nothing to merge, nothing to push);
  * 1,000 new episodes (10 turns each) written into A, `sync now` on A (the
    push) and `sync now` on home B, which already holds the first 100k turns
    (the pull, with the search index brought up to date).

Prints medians over RUNS calls of the first two and the times of the last.
Targets (issue 10): status <= 50 ms, no-change now <= 200 ms, push + pull of
1,000 episodes <= 2 s.

Usage: python3 tools/bench-sync.py [--turns 100000] [--runs 20] [--episodes 1000] [--no-build]
"""

import argparse
import importlib.util
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("bench_memory", os.path.join(ROOT, "tools", "bench-memory.py"))
bm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bm)
NOW = "2026-03-01T12:00:00Z"


def run(binary, home, *args, env):
    start = time.perf_counter()
    proc = subprocess.run([binary, *args, "--home", home, "--format", "json"], capture_output=True,
                          text=True, env=env)
    took = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({proc.returncode}): {proc.stdout}{proc.stderr}")
    return took, json.loads(proc.stdout)


def median_of(binary, home, args, runs, env):
    return statistics.median(run(binary, home, *args, env=env)[0] for _ in range(runs))


def new_episodes(home, count, rng):
    folder = os.path.join(home, "memory", "episodes", "bench-new")
    os.makedirs(folder, exist_ok=True)
    base = 1772000000
    for e in range(count):
        episode = time.strftime("ep-%Y%m%dT%H%M%SZ", time.gmtime(base + e * 60)) + f"-bench00-{e + 1}"
        with open(os.path.join(folder, episode + ".jsonl"), "w") as f:
            for seq in range(1, 11):
                ts = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(base + e * 60 + seq))
                f.write(json.dumps({
                    "schema": "agentbox.turn/v1", "id": f"{episode}#{seq}", "session": "bench-new",
                    "episode": episode, "seq": seq, "ts": ts, "role": "user" if seq % 2 else "assistant",
                    "content": f"I {rng.choice(bm.VERBS)} {rng.choice(bm.SUBJECTS)} {rng.choice(bm.TAILS)}.",
                    "tool_calls": [], "tool_call_id": None, "source": "import",
                }) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--episodes", type=int, default=1000)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the homes; stop before the push and the pull (to profile them)")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "agentbox"))
    args = ap.parse_args()
    if shutil.which("git") is None:
        sys.exit("needs git (for `git init --bare`)")
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet", "--bin", "agentbox"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="bench-sync-")
    try:
        env = dict(os.environ, AGENTBOX_NOW=NOW, TZ="UTC", HOME=tmp)
        remote = os.path.join(tmp, "remote.git")
        subprocess.run(["git", "init", "--bare", "-q", "-b", "main", remote], check=True)
        url = "file://" + remote
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        for project in (a, b):
            subprocess.run([args.bin, "init", project], check=True, capture_output=True, env=env)
        home_a, home_b = os.path.join(a, ".agent"), os.path.join(b, ".agent")
        turns = bm.generate(home_a, args.turns, random.Random(11))
        subprocess.run([args.bin, "reindex", "--home", home_a], check=True, capture_output=True, env=env)
        first, _ = run(args.bin, home_a, "sync", "init", "--remote", url, env=env)
        first_now, _ = run(args.bin, home_a, "sync", "now", env=env)
        clone, _ = run(args.bin, home_b, "sync", "init", "--remote", url, env=env)

        status = median_of(args.bin, home_a, ["sync", "status"], args.runs, env)
        idle = median_of(args.bin, home_a, ["sync", "now"], args.runs, env)

        new_episodes(home_a, args.episodes, random.Random(5))
        if args.keep:
            print(f"kept {tmp}; the push, then the pull:")
            for home in (home_a, home_b):
                print(f"  HOME={tmp} AGENTBOX_NOW={NOW} {args.bin} sync now --home {home}")
            return
        push, _ = run(args.bin, home_a, "sync", "now", env=env)
        pull, reply = run(args.bin, home_b, "sync", "now", env=env)

        print(f"sync over file://, {turns} turns in the home ({args.runs} runs for medians):")
        print(f"  sync init + first push of the home:     {first + first_now:8.0f} ms")
        print(f"  sync init of a second home (clone):     {clone:8.0f} ms")
        print(f"  sync status, median:                    {status:8.1f} ms   (target <= 50)")
        print(f"  sync now with nothing to do, median:    {idle:8.1f} ms   (target <= 200)")
        print(f"  {args.episodes} new episodes: push (A) {push:.0f} ms + pull (B) {pull:.0f} ms"
              f" = {push + pull:.0f} ms   (target <= 2000)")
        print(f"  (B's pull reported {len(reply['data'].get('pull', {}).get('files', []))} files)")
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
