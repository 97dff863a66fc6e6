#!/usr/bin/env python3
"""Whole-process CLI search, two builds (or two homes) taking turns.

The scale benchmark's 30 CLI queries (tools/bench-scale.py, the same seeded
corpus), each run as a whole process (`posix_spawn`, output to /dev/null)
by build A and build B one after the other, the order swapped every round
so that load drift hits both alike. Prints each side's median and min, and
on how many of the 30 queries (per-query medians) B was faster than A.

Usage:
  python3 tools/bench-cli-ab.py --home HOME --a OLD_BIN --b NEW_BIN [--rounds 8]
  python3 tools/bench-cli-ab.py --home HOME --a BIN --b BIN --home-b OTHER_HOME
  [--verb "track search"]   (run through HOME/tools/track; default: agentbox search)

HOME is a `.agent` folder, e.g. one left by `tools/bench-scale.py --keep`.
Copy freshly built binaries before timing them: a file the linker has just
written costs more to start (docs/PERFORMANCE.md, "Start-up: plain calls").
"""

import argparse
import importlib.util
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def queries():
    spec = importlib.util.spec_from_file_location("bench_scale", os.path.join(ROOT, "tools", "bench-scale.py"))
    scale = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scale)
    return scale.Corpus(1_000_000).queries(200)[:30], scale.NOW


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--home", required=True)
    ap.add_argument("--home-b", default=None, help="B's home (default: --home)")
    ap.add_argument("--a", required=True, help="build A (the baseline)")
    ap.add_argument("--b", required=True, help="build B")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--verb", default="search", choices=["search", "track search"])
    args = ap.parse_args()
    qs, now = queries()
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]
    sides = []
    links = tempfile.TemporaryDirectory(prefix="bench-cli-ab-")
    for label, binary, home in (("A", args.a, args.home), ("B", args.b, args.home_b or args.home)):
        env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTBOX_")}
        env.update(AGENTBOX_NOW=now, TZ="UTC", AGENTBOX_HOME=home)
        if args.verb == "search":
            argv = [binary, "search"]
        else:
            # The link's name selects the tool, as `.agent/tools/track` does;
            # each side has its own link to its own build.
            os.mkdir(os.path.join(links.name, label))
            link = os.path.join(links.name, label, "track")
            os.symlink(os.path.abspath(binary), link)
            argv = [link, "search"]
        sides.append((label, argv, env))
    times = {label: [[] for _ in qs] for label, _, _ in sides}
    for r in range(args.rounds):
        for i, q in enumerate(qs):
            for label, argv, env in (sides if r % 2 == 0 else sides[::-1]):
                full = argv + [q, "--format", "json", "--limit", "5"]
                start = time.perf_counter_ns()
                pid = os.posix_spawn(full[0], full, env, file_actions=actions)
                _, status = os.waitpid(pid, 0)
                elapsed = (time.perf_counter_ns() - start) / 1e6
                if os.waitstatus_to_exitcode(status) != 0:
                    sys.exit(f"{label}: exit {os.waitstatus_to_exitcode(status)}: {' '.join(full)}")
                times[label][i].append(elapsed)
    links.cleanup()
    medians = {label: [statistics.median(t) for t in per] for label, per in times.items()}
    for label, per in times.items():
        every = [t for query in per for t in query]
        print(f"{label}: median {statistics.median(every):.3f} ms, min {min(every):.3f} ms "
              f"({len(every)} runs)")
    faster = sum(1 for a, b in zip(medians["A"], medians["B"]) if b < a)
    print(f"B faster on {faster} of {len(qs)} queries (per-query medians)")


if __name__ == "__main__":
    main()
