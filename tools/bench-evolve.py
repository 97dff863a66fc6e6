#!/usr/bin/env python3
"""Evolve mining benchmark: a home with 10,000 closed episodes.

Writes the episodes directly in the documented `agentbox.turn/v1` format
(docs/tools/track.md), 10-20 turns each, with a mix of repeated tool
sequences, one-off sequences, user corrections, near misses and failures
(with retries), then times

    agentbox evolve run --max-episodes 20000 --format json

three times, each on a fresh copy of the home, and prints the median wall
time and the peak resident memory. With --lib it times the miner alone
instead (examples/evolve_mine.rs: the same episodes fed to
`evolve::mine::Miner`, no run folder, no proposals written).

Usage: python3 tools/bench-evolve.py [--episodes 10000] [--lib] [--no-build] [--runs 3]
Target: <= 2 s for 10,000 episodes, memory bounded (streamed, one episode at
a time; the miner's state is capped).
"""

import argparse
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
NOW = "2026-01-15T09:30:00Z"

TOOLS = [f"tool_{i:02d}" for i in range(60)] + [
    "read_file", "edit_file", "grep", "list_dir", "shell", "git_status", "git_diff", "git_commit",
    "cargo_test", "npm_test", "http_get", "web_search", "python", "kubectl_logs", "docker_build",
]
WORKFLOWS = [random.Random(w).sample(TOOLS, random.Random(w + 1000).randint(3, 6)) for w in range(30)]
CORRECTIONS = [
    "no, use pnpm", "No — use pnpm instead of npm", "don't commit to main", "never force-push",
    "always run the tests first", "I prefer tabs", "please use httpx instead of requests",
    "stop using console.log", "You should always add a changelog entry.", "Do not edit generated files.",
    "I'd prefer British spelling.", "No. Use UTC timestamps everywhere.",
] + [f"don't touch module {m}" for m in range(20)] + [f"always lint package {p} first" for p in range(10)]
NEAR_MISSES = [
    "no, that's fine", "No problem!", "don't worry about it", "I don't know", "should I always run the tests?",
    "never mind", "no thanks", "don't do that", "stop here", "use the staging database",
    "thanks, looks good", "can you explain the diff?", "what does this error mean?",
]
ERRORS = [
    ("cargo_test", "error: could not compile `app{n}` due to {n} previous errors"),
    ("shell", "bash: {w}: command not found"),
    ("python", "Traceback (most recent call last):\n  File \"/srv/{w}.py\", line {n}\nModuleNotFoundError: No module named '{w}'"),
    ("http_get", "Error: connect ETIMEDOUT 10.0.{n}.{n}:443"),
    ("git_commit", "fatal: unable to auto-detect email address (got 'u{n}@host.(none)')"),
    ("read_file", "open /home/me/{w}/file{n}.txt: No such file or directory"),
    ("npm_test", "npm ERR! Test failed. See above for more details.\nexit code {n}"),
    ("kubectl_logs", "error: pods \"web-{hex}\" not found"),
]
WORDS = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "theta"]


def fail(message):
    sys.exit(f"bench-evolve: {message}")


def stamp(t):
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(t))


def rfc3339(t):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def generate(home, episodes, rng):
    """Writes `episodes` closed episode files under home/memory/episodes."""
    base = 1764547200  # 2025-12-01T00:00:00Z
    sessions = [f"bench-{s:02d}" for s in range(20)]
    for s in sessions:
        os.makedirs(os.path.join(home, "memory", "episodes", s), exist_ok=True)
    total_turns = 0
    for i in range(episodes):
        session = sessions[i % len(sessions)]
        t = base + i * 60
        ep = f"ep-{stamp(t)}-{i + 1}"
        turns = []

        def add(role, content="", calls=None, call_id=None):
            seq = len(turns) + 1
            turns.append({
                "schema": "agentbox.turn/v1", "id": f"{ep}#{seq}", "session": session, "episode": ep,
                "seq": seq, "ts": rfc3339(t + seq), "role": role, "content": content,
                "tool_calls": calls or [], "tool_call_id": call_id, "source": "cli",
            })

        def call(name, args, result):
            cid = f"c{len(turns)}"
            add("assistant", "", [{"id": cid, "name": name, "arguments": args}])
            add("tool", result, None, cid)

        add("user", f"Task {i}: {rng.choice(WORDS)} {rng.choice(WORDS)} for ticket {rng.randint(1, 9999)}")
        steps = []
        if rng.random() < 0.5:
            steps += rng.choice(WORKFLOWS)
        while len(steps) < rng.randint(4, 8):
            steps.append(rng.choice(TOOLS))
        for k, name in enumerate(steps):
            call(name, {"step": k, "arg": rng.choice(WORDS)}, f"{name} ok ({rng.randint(1, 500)} lines)")
            if k == 1 and rng.random() < 0.15:
                add("user", rng.choice(CORRECTIONS))
            elif k == 2 and rng.random() < 0.1:
                add("user", rng.choice(NEAR_MISSES))
        if rng.random() < 0.2:
            tool, template = rng.choice(ERRORS)
            text = template.format(n=rng.randint(1, 99), w=rng.choice(WORDS), hex=f"{rng.getrandbits(32):08x}")
            call(tool, {"retry": 0}, text)
            add("assistant", f"That failed; retrying {tool} with a fix.")
            call(tool, {"retry": 1, "fixed": True}, f"{tool} ok")
        add("assistant", "Done.")
        total_turns += len(turns)
        path = os.path.join(home, "memory", "episodes", session, f"{ep}.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for turn in turns:
                f.write(json.dumps(turn, separators=(",", ":"), ensure_ascii=False) + "\n")
    return total_turns


def run_timed(cmd, cwd, env):
    """Wall time (s), peak RSS (KiB) and stdout of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.stdout.read(), proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_maxrss, proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--episodes", type=int, default=10_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--lib", action="store_true", help="time the miner alone (examples/evolve_mine.rs)")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()

    release = os.path.join(ROOT, "target", "release")
    binary = os.path.join(release, "agentbox")
    example = os.path.join(release, "examples", "evolve_mine")
    if not args.no_build:
        print("building: cargo build --release --bin agentbox --example evolve_mine", file=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "--bin", "agentbox", "--example", "evolve_mine"],
                       cwd=ROOT, check=True)
    for path in [binary] + ([example] if args.lib else []):
        if not os.path.exists(path):
            fail(f"{path} is missing (build it, or drop --no-build)")

    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTBOX_")}
    env.update({"AGENTBOX_NOW": NOW, "CI": "true"})
    with tempfile.TemporaryDirectory(prefix="bench-evolve-") as tmp:
        base = os.path.join(tmp, "base")
        os.makedirs(base)
        subprocess.run([binary, "init", "--format", "json"], cwd=base, env=env, check=True, capture_output=True)
        started = time.perf_counter()
        turns = generate(os.path.join(base, ".agent"), args.episodes, random.Random(args.seed))
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(base) for f in fs)
        print(f"generated {args.episodes} episodes, {turns} turns, {size / 1e6:.1f} MB "
              f"in {time.perf_counter() - started:.1f} s", file=sys.stderr)

        walls, rss, last = [], [], None
        for i in range(args.runs):
            copy = os.path.join(tmp, f"run-{i}")
            shutil.copytree(base, copy, symlinks=True)
            if args.lib:
                cmd = [example, os.path.join(copy, ".agent")]
            else:
                cmd = [binary, "evolve", "run", "--max-episodes", "20000", "--format", "json"]
            wall, kib, code, out, err = run_timed(cmd, copy, env)
            shutil.rmtree(copy)
            if code != 0:
                hint = "" if args.lib else " (is `evolve run` wired yet? try --lib)"
                fail(f"{' '.join(cmd[:3])} exited {code}{hint}\n{out}{err}")
            walls.append(wall)
            rss.append(kib)
            last = out.strip().splitlines()[-1] if out.strip() else ""
            print(f"run {i + 1}: {wall:.3f} s, peak RSS {kib / 1024:.1f} MiB", file=sys.stderr)

    median = statistics.median(walls)
    mode = "miner (examples/evolve_mine)" if args.lib else "agentbox evolve run"
    print(f"{mode}: {args.episodes} episodes ({turns} turns): median wall {median:.3f} s over "
          f"{args.runs} runs, peak RSS {max(rss) / 1024:.1f} MiB (target <= 2 s)")
    if last:
        print(f"last output: {last[:600]}")


if __name__ == "__main__":
    main()
