#!/usr/bin/env python3
"""Page times of `agentbox view` (issue 34: every page < 100 ms in a 1M-turn home).

Builds a home of N turns (the deterministic corpus of tools/bench-scale.py,
written as closed episode files in 20 sessions and indexed with `agentbox
reindex`; plus a few notes, a plan, a persona, reminders and a skill so that
every page has something to draw), or reuses one (--home), starts `agentbox
view --format json` on it, takes the cookie the printed URL gives, and times
each page: --rounds requests each on a kept-alive connection, after one
untimed request (the first load warms the page cache), reporting p50, p95 and
max of the whole exchange as the client sees it.

  cargo build --release --bin agentbox
  python3 tools/bench-view.py --turns 1000000 --keep /tmp/view-1m   # builds it (about 3 min)
  python3 tools/bench-view.py --home /tmp/view-1m/.agent            # reuses it
"""

import argparse
import http.client
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-03-01T12:00:00Z"


def scale_module():
    spec = importlib.util.spec_from_file_location("bench_scale", os.path.join(ROOT, "tools", "bench-scale.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(bin_, home, *args, stdin=None):
    env = dict(os.environ, AGENTBOX_NOW=NOW, AGENTBOX_HOME=home)
    return subprocess.run([bin_, *args, "--format", "json"], input=stdin, capture_output=True,
                          text=True, env=env, check=True)


def build(bin_, folder, turns):
    scale = scale_module()
    subprocess.run([bin_, "init", folder, "--format", "json"], check=True, capture_output=True)
    home = os.path.join(folder, ".agent")
    corpus = scale.Corpus(turns)
    t = time.perf_counter()
    scale.write_direct(home, os.path.join(folder, "peer.jsonl"), corpus, corpus.episodes(), {})
    os.remove(os.path.join(folder, "peer.jsonl"))
    print(f"{turns} turns written in {time.perf_counter() - t:.0f} s; reindex", file=sys.stderr)
    run(bin_, home, "reindex")
    for i in range(30):
        run(bin_, home, "knowledge", "add", f"Note {i} about deploys", "--body", f"deploy step {i} uses blue green")
    run(bin_, home, "plan", "create", "Ship the release", "--step", "tag", "--step", "build", "--step", "publish")
    run(bin_, home, "persona", "create", "helper", "--trait", "tone=warm")
    for i in range(20):
        run(bin_, home, "proactive", "add", f"reminder {i}", "--due", f"2026-03-{(i % 27) + 2:02d}T09:00:00Z")
    return home


def start(bin_, home):
    env = dict(os.environ, AGENTBOX_NOW=NOW)
    child = subprocess.Popen([bin_, "view", "--home", home, "--format", "json"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, env=env)
    data = json.loads(child.stdout.readline())["data"]
    return child, data


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "agentbox"))
    ap.add_argument("--home", help="an existing home to measure")
    ap.add_argument("--turns", type=int, default=100_000, help="turns of the home to build")
    ap.add_argument("--keep", metavar="DIR", help="build the home in DIR and leave it")
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--json", metavar="FILE")
    args = ap.parse_args()

    scratch = None
    if args.home:
        home = args.home
    else:
        folder = args.keep or tempfile.mkdtemp(prefix="bench-view-")
        scratch = None if args.keep else folder
        home = build(args.bin, folder, args.turns)
    stats = run(args.bin, home, "track", "stats").stdout
    turns = json.loads(stats)["data"]["turns"]["total"]
    episodes = json.loads(run(args.bin, home, "track", "list", "--limit", "1").stdout)["data"]["episodes"]
    episode = episodes[0]["id"] if episodes else "none"
    child, data = start(args.bin, home)
    try:
        conn = http.client.HTTPConnection(data.get("address", "127.0.0.1"), data["port"], timeout=60)
        conn.request("GET", "/?key=" + data["key"])
        reply = conn.getresponse()
        reply.read()
        cookie = reply.getheader("Set-Cookie").split(";")[0]
        pages = [
            "/", "/memory", "/memory?page=100", f"/memory/episode?id={urllib.parse.quote(episode)}",
            "/memory/search?q=" + urllib.parse.quote("deploy error"), "/memory/search?q=the",
            "/memory/notes", "/memory/profile",
            "/learning", "/skills", "/plans",
        ]
        rows = []
        for page in pages:
            times, status = [], None
            for i in range(args.rounds + 1):
                t = time.perf_counter()
                conn.request("GET", page, headers={"Cookie": cookie})
                reply = conn.getresponse()
                body = reply.read()
                elapsed = (time.perf_counter() - t) * 1000
                status = reply.status
                if i:
                    times.append(elapsed)
            rows.append({"page": page, "status": status, "bytes": len(body), "p50_ms": pct(times, 50),
                         "p95_ms": pct(times, 95), "max_ms": max(times)})
        print(f"home: {home} ({turns} turns); {args.rounds} requests a page, one kept-alive connection")
        print(f"| page | status | bytes | p50 ms | p95 ms | max ms |")
        print(f"|---|---:|---:|---:|---:|---:|")
        for r in rows:
            print(f"| `{r['page'][:60]}` | {r['status']} | {r['bytes']:,} | {r['p50_ms']:.1f} | "
                  f"{r['p95_ms']:.1f} | {r['max_ms']:.1f} |")
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"turns": turns, "rows": rows}, f, indent=1)
    finally:
        child.terminate()
        child.wait()
        if scratch:
            subprocess.run(["rm", "-rf", scratch])


if __name__ == "__main__":
    main()
