#!/usr/bin/env python3
"""Filtered searches in a big home: `agentbox search Q --session/--kind/--since/--until/--tag`
as whole processes, for one build or two taking turns (A/B).

    python3 tools/bench-filters.py --bin target/release/agentbox --home HOME
    python3 tools/bench-filters.py --bin OLD --home HOME_OLD --bin-b NEW --home-b HOME_NEW

Each build needs a home of its own when their index schemas differ (an
older build rebuilds a newer index). The queries come from the home's own
index: the stop words "the and" (in nearly every turn), and words at three
document frequencies (about 20 %, 1 % and 0.05 % of the documents). The
filters: the largest, the median and the smallest session, a kind with no
documents and the kind of every document, a date bound passing the newest
fifth and one passing the oldest fifth, and a tag nobody uses. Prints the
median wall time of each query (`--rounds` runs, builds alternating) and,
with two builds, how many of the ten hits they share.
"""

import argparse
import json
import sqlite3
import statistics
import subprocess
import time


def index_facts(home):
    """Sessions by size, words at three document frequencies, date bounds."""
    db = sqlite3.connect(f"file:{home}/.agent/index/search.db?mode=ro", uri=True)
    sessions = [s for (s,) in db.execute(
        "SELECT session FROM docs WHERE session IS NOT NULL"
        " GROUP BY session ORDER BY count(*) DESC")]
    total = db.execute("SELECT count(*) FROM docs").fetchone()[0]
    db.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, fts, row)")
    words = {}
    for name, share in (("common", 0.2), ("medium", 0.01), ("rare", 0.0005)):
        row = db.execute(
            "SELECT term FROM temp.vocab WHERE term GLOB '[a-z][a-z][a-z]*'"
            " ORDER BY abs(doc - ?1) LIMIT 2", (share * total,)).fetchall()
        words[name] = [r[0] for r in row]
    dates = [d for (d,) in db.execute(
        "SELECT date FROM docs WHERE rowid % 97 = 0 ORDER BY date")]
    since = dates[int(len(dates) * 0.8)][:10]
    until = dates[int(len(dates) * 0.2)][:10]
    return sessions, words, since, until


def searches(home):
    sessions, words, since, until = index_facts(home)
    texts = [
        "the and",
        f"{words['common'][0]} {words['common'][1]}",
        f"{words['common'][0]} {words['medium'][0]}",
        f"{words['medium'][0]} {words['rare'][0]}",
    ]
    filters = [
        ["--session", sessions[0]],
        ["--session", sessions[len(sessions) // 2]],
        ["--session", sessions[-1]],
        ["--kind", "note"],
        ["--kind", "turn"],
        ["--since", since],
        ["--until", until],
        ["--tag", "nosuchtag"],
    ]
    return [(t, f) for f in filters for t in texts]


def run(binary, home, text, flags):
    start = time.perf_counter()
    out = subprocess.run(
        [binary, "--home", home, "search", *text.split(), *flags, "--format", "json"],
        capture_output=True, text=True, check=True)
    took = time.perf_counter() - start
    return took, [h["id"] for h in json.loads(out.stdout)["data"]["hits"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--home", required=True)
    ap.add_argument("--bin-b")
    ap.add_argument("--home-b")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    builds = [(args.bin, args.home)]
    if args.bin_b:
        builds.append((args.bin_b, args.home_b or args.home))
    queries = searches(args.home)
    # One pass first: pages read from the disk are not what is measured.
    for text, flags in queries:
        for binary, home in builds:
            run(binary, home, text, flags)
    header = f"{'query':28} {'filter':26} " + " ".join(f"{b[0][-14:]:>14}" for b in builds)
    print(header + ("  shared" if len(builds) == 2 else ""))
    totals = [[] for _ in builds]
    for text, flags in queries:
        times = [[] for _ in builds]
        hits = [None for _ in builds]
        for _ in range(args.rounds):
            for k, (binary, home) in enumerate(builds):
                took, hits[k] = run(binary, home, text, flags)
                times[k].append(took)
        medians = [statistics.median(t) * 1000 for t in times]
        for k, m in enumerate(medians):
            totals[k].append(m)
        line = f"{text[:28]:28} {' '.join(flags)[:26]:26} " + " ".join(
            f"{m:11.2f} ms" for m in medians)
        if len(builds) == 2:
            line += f"  {len(set(hits[0]) & set(hits[1]))}/{max(len(hits[0]), len(hits[1]))}"
        print(line, flush=True)
    print("median of the medians: " + ", ".join(
        f"{statistics.median(t):.2f} ms" for t in totals)
        + "; slowest: " + ", ".join(f"{max(t):.2f} ms" for t in totals))


if __name__ == "__main__":
    main()
