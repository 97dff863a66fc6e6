#!/usr/bin/env python3
"""Whole-process `agentbox search` in a home of many session folders.

A search checks the session folders for files a crashed writer left
unindexed. This builds a home of SESSIONS folders of TURNS turns each (one
closed episode file per folder, then `agentbox reindex`), one copy per build
(a build of another index schema would rebuild the other's), and times
`agentbox search` over 10 two-word queries as whole processes, the builds
taking turns. Prints each build's median and min, the time of the one
search a minute that compares every folder (`meta.nested_full` set back),
and of `track record` starting an episode in a new session (its id must be
unique across the home).

Usage:
  python3 tools/bench-sessions.py --bin BIN [--bin-b OTHER] [--sessions 5000]
      [--turns 20] [--rounds 10] [--workdir DIR]
"""

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import tempfile
import time

NOW = "2026-03-01T12:00:00Z"
WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
         "sigma tau upsilon phi chi psi omega").split()


def build_home(binary, folder, sessions, turns, env):
    subprocess.run([binary, "init", folder, "--format", "json"], check=True, capture_output=True, env=env)
    home = os.path.join(folder, ".agent")
    for s in range(sessions):
        session = f"conv-{s:05d}"
        episode = f"ep-20260101T000000Z-{s}"
        lines = []
        for seq in range(1, turns + 1):
            a, b = WORDS[(s + seq) % len(WORDS)], WORDS[(s * seq + 7) % len(WORDS)]
            lines.append(json.dumps({
                "schema": "agentbox.turn/v1", "id": f"{episode}#{seq}", "session": session,
                "episode": episode, "seq": seq, "ts": "2026-01-01T00:00:00Z", "role": "user",
                "content": f"{a} {b} turn {seq} of conversation {s}", "tool_calls": [],
                "tool_call_id": None, "source": "import"}))
        path = os.path.join(home, "memory", "episodes", session)
        os.makedirs(path)
        with open(os.path.join(path, episode + ".jsonl"), "w") as f:
            f.write("\n".join(lines) + "\n")
        # settled long ago, as the folders of past conversations are
        past = 1_735_689_600 + s * 60
        os.utime(path, (past, past))
    subprocess.run([binary, "reindex", "--format", "json"], check=True, capture_output=True,
                   env=dict(env, AGENTBOX_HOME=home))
    return home


NULL = [(os.POSIX_SPAWN_OPEN, fd, "/dev/null", os.O_RDONLY if fd == 0 else os.O_WRONLY, 0)
        for fd in (0, 1, 2)]


def run_ms(binary, home, args, env):
    """One whole `agentbox ARGS` process (posix_spawn, output to /dev/null), in ms."""
    env = dict(env, AGENTBOX_HOME=home)
    t = time.perf_counter()
    pid = os.posix_spawn(binary, [binary] + args, env, file_actions=NULL)
    _, status = os.waitpid(pid, 0)
    ms = (time.perf_counter() - t) * 1000
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{binary} {' '.join(args)} failed")
    return ms


def search_ms(binary, home, query, env):
    return run_ms(binary, home, ["search", query], env)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--bin-b", default=None)
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--workdir", default=None)
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTBOX_")}
    env.update(AGENTBOX_NOW=NOW, TZ="UTC")
    work = tempfile.mkdtemp(prefix="bench-sessions-", dir=args.workdir)
    builds = [("A", os.path.abspath(args.bin))]
    if args.bin_b:
        builds.append(("B", os.path.abspath(args.bin_b)))
    homes = {}
    for label, binary in builds:
        homes[label] = build_home(binary, os.path.join(work, label), args.sessions, args.turns, env)
    queries = [f"{WORDS[i]} {WORDS[(3 * i + 5) % len(WORDS)]}" for i in range(10)]
    # A folder's stamp is recorded once it has been still for 2 s: until
    # then every search lists `memory/episodes/` (the steady state is timed).
    time.sleep(2.5)
    for label, binary in builds:  # warm: the first call after a reindex records the folders
        for _ in range(2):
            search_ms(binary, homes[label], queries[0], env)
    times = {label: [] for label, _ in builds}
    for r in range(args.rounds):
        order = builds if r % 2 == 0 else builds[::-1]
        for q in queries:
            for label, binary in order:
                times[label].append(search_ms(binary, homes[label], q, env))
    print(f"{args.sessions:,} session folders x {args.turns} turns; {len(queries)} queries x {args.rounds} rounds")
    for label, binary in builds:
        t = times[label]
        full = []
        for q in queries[:5]:
            db = sqlite3.connect(os.path.join(homes[label], "index", "search.db"))
            with db:
                db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('nested_full', '0')")
            db.close()
            full.append(search_ms(binary, homes[label], q, env))
        # `track record` into a new session: a new episode, whose id is unique across the home
        record = [run_ms(binary, homes[label], ["track", "record", "--session", f"new-{i}", "--content", "hi"], env)
                  for i in range(10)]
        print(f"{label} {binary}: median {statistics.median(t):.2f} ms, min {min(t):.2f} ms; "
              f"a search that compares every folder: median {statistics.median(full):.2f} ms; "
              f"`track record` starting an episode in a new session: median {statistics.median(record):.2f} ms")
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
