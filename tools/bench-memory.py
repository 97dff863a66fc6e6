#!/usr/bin/env python3
"""Memory benchmark: a home with 100,000 turns.

Reports the index build time (`agentbox reindex`), the median wall time of
`track record` and `track search`, `mem_search` p50/p95 over 200 queries
inside one running `memory_mcp` server (natural-language and keyword queries
alike), the server's resident memory, and `grep -r` over the same store as
the comparison.

Usage: python3 tools/bench-memory.py [--turns 100000] [--no-build] [--markdown]
Targets: mem_search p50 <= 5 ms at 100k turns; track record <= 5 ms median;
server RSS <= 50 MB.
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

SUBJECTS = [
    "the build", "the parser", "the login page", "the cache layer", "the CI pipeline", "the docs site",
    "the API client", "the database migration", "the release script", "the test suite", "the CLI flags",
    "the error messages", "the config loader", "the logging setup", "the payment flow", "the search page",
    "the websocket server", "the image resizer", "the billing cron", "the auth middleware",
]
VERBS = [
    "refactored", "reviewed", "fixed a bug in", "added tests for", "profiled", "cleaned up", "documented",
    "renamed files in", "updated dependencies of", "split up", "benchmarked", "rewrote", "deployed",
]
TAILS = [
    "and everything passes now", "but one case still fails", "as discussed yesterday", "before the weekly sync",
    "to make the code easier to read", "after the code review comments", "so the deploy can go out",
    "while waiting on CI", "to reduce flaky tests", "for the new format", "using the staging cluster",
    "with help from the on-call engineer", "behind a feature flag", "to cut p95 latency",
]
NL_QUERIES = [
    "How should I format Go code?", "why is the checkout test flaky", "who approves production deploys?",
    "what did we change in the billing cron", "how do I reproduce the memory leak", "where is terraform state stored?",
    "what port does the lab vpn use", "when does the staging password rotate", "which palette is used for dark mode",
    "what are the payment gateway timeouts",
]
KEYWORD_QUERIES = [
    "gofmt", "websocket reconnect", "billing cron", "auth middleware", "feature flag", "staging cluster",
    "p95 latency", "image resizer", "docs site", "database migration",
]


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def timed(cmd, env=None, cwd=None, ok=(0,)):
    start = time.perf_counter_ns()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if proc.returncode not in ok:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.decode(errors='replace')}")
    return elapsed


def pct(values, p):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def generate(home, turns, rng):
    """Writes episode files in the documented format (docs/tools/track.md)."""
    per_episode = 200
    episodes = turns // per_episode
    base = 1767225600  # 2026-01-01T00:00:00Z
    written = 0
    for e in range(episodes):
        session = f"s{e % 50:02d}"
        t0 = base + e * 3600
        episode = time.strftime("ep-%Y%m%dT%H%M%SZ", time.gmtime(t0)) + f"-{e}"
        folder = os.path.join(home, "memory", "episodes", session)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, episode + ".jsonl"), "w") as f:
            for seq in range(1, per_episode + 1):
                role = "user" if seq % 2 else "assistant"
                text = f"I {rng.choice(VERBS)} {rng.choice(SUBJECTS)} {rng.choice(TAILS)}."
                if rng.random() < 0.01:
                    text += " The payment gateway timeouts are 8 seconds connect and 30 seconds read."
                ts = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0 + seq * 5))
                f.write(json.dumps({
                    "schema": "agentbox.turn/v1", "id": f"{episode}#{seq}", "session": session,
                    "episode": episode, "seq": seq, "ts": ts, "role": role, "content": text,
                    "tool_calls": [], "tool_call_id": None, "source": "import",
                }) + "\n")
                written += 1
    return written


class Server:
    def __init__(self, binary, home):
        self.proc = subprocess.Popen([binary, "memory_mcp", "--home", home], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.next_id = 0
        self.call("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                 "clientInfo": {"name": "bench", "version": "0"}})
        self.notify("notifications/initialized")

    def notify(self, method):
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")

    def call(self, method, params):
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                          "params": params}) + "\n")
        reply = json.loads(self.proc.stdout.readline())
        if "error" in reply or reply.get("result", {}).get("isError"):
            sys.exit(f"mcp error: {reply}")
        return reply

    def rss_kb(self):
        fields = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                fields[key] = value.strip()
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--turns", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "agentbox"))
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    binary = args.bin
    rng = random.Random(7)
    tmp = tempfile.mkdtemp(prefix="agentbox-bench-")
    try:
        sh([binary, "init", tmp, "--format", "json"])
        home = os.path.join(tmp, ".agent")
        env = dict(os.environ, AGENTBOX_HOME=home)
        env.pop("AGENTBOX_FORMAT", None)

        t = time.perf_counter()
        written = generate(home, args.turns, rng)
        gen_s = time.perf_counter() - t

        t = time.perf_counter()
        out = sh([binary, "reindex", "--format", "json"], env=env)
        reindex_s = time.perf_counter() - t
        indexed = json.loads(out.stdout)["data"]["turns"]
        db_mb = os.path.getsize(os.path.join(home, "index", "search.db")) / 1e6

        record = [timed([binary, "track", "record", "--session", "bench", "--role", "user",
                         "--content", f"benchmark turn {i} about {rng.choice(SUBJECTS)}", "--format", "json"],
                        env=env) for i in range(200)]
        queries = NL_QUERIES + KEYWORD_QUERIES
        track_search = [timed([binary, "track", "search", q, "--format", "json"], env=env) for q in queries * 3]

        server = Server(binary, home)
        nl, kw = [], []
        for i in range(args.queries):
            q = queries[i % len(queries)]
            start = time.perf_counter_ns()
            server.call("tools/call", {"name": "mem_search", "arguments": {"query": q, "topK": 5}})
            ms = (time.perf_counter_ns() - start) / 1e6
            (nl if q in NL_QUERIES else kw).append(ms)
        rss_kb, hwm_kb = server.rss_kb()
        server.close()

        grep = [timed(["grep", "-ril", q.split()[0], os.path.join(home, "memory", "episodes")], cwd=tmp,
                      ok=(0, 1))
                for q in KEYWORD_QUERIES]
        all_q = nl + kw
        rows = [
            ("turns generated / indexed", f"{written:,} / {indexed:,}", ""),
            ("generate episode files", f"{gen_s:.1f} s", ""),
            ("`agentbox reindex` (index build)", f"{reindex_s:.1f} s", f"index {db_mb:.0f} MB"),
            ("`track record` median (200 runs)", f"{statistics.median(record):.2f} ms", "target ≤ 5 ms"),
            ("`track search` CLI median (60 runs)", f"{statistics.median(track_search):.2f} ms", ""),
            ("`mem_search` p50 / p95, all queries", f"{pct(all_q, 50):.2f} / {pct(all_q, 95):.2f} ms", "target p50 ≤ 5 ms"),
            ("`mem_search` p50, natural-language", f"{pct(nl, 50):.2f} ms", ""),
            ("`mem_search` p50, keyword", f"{pct(kw, 50):.2f} ms", ""),
            ("server RSS now / peak", f"{rss_kb / 1024:.1f} / {hwm_kb / 1024:.1f} MB", "target ≤ 50 MB"),
            ("`grep -ril WORD episodes/` median", f"{statistics.median(grep):.1f} ms", "comparison"),
        ]
        if args.markdown:
            print("| measure | value | note |\n|---|---:|---|")
            for name, value, note in rows:
                print(f"| {name} | {value} | {note} |")
        else:
            for name, value, note in rows:
                print(f"{name:42} {value:>22}  {note}")
        met = pct(all_q, 50) <= 5 and statistics.median(record) <= 5 and hwm_kb / 1024 <= 50
        print(f"\ntargets met: {'yes' if met else 'NO'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
