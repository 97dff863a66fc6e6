#!/usr/bin/env python3
"""Start-up cost of plain agentbox calls against /bin/true (python3 stdlib only).

Builds the release binary (unless --no-build or --bin), makes a fresh project
with `agentbox init` and a small one with a few recorded turns, then times N
runs of each of:

  true      /bin/true                                 (process-spawn baseline)
  version   agentbox --version                        (parse and print, no home)
  list      agentbox plan list                        (fresh home, found from the cwd)
  link      .agent/tools/plan list                    (the same through the link)
  search    agentbox track search foo                 (small home: 200 turns)

The binary is timed from a copy in the temp folder (--in-place times it
where it is): a file the linker has just written is held in the page cache
differently (in smaller pages, it seems), and a call of it takes ~0.15 ms (~10 %) longer than a call of
the same bytes copied, installed, or read back from disk (docs/PERFORMANCE.md).

The commands run round-robin (true, version, list, link, search, true, …) so
that drift in machine load affects all of them alike; each call is launched
with os.posix_spawn + os.waitpid, stdin/stdout/stderr on /dev/null, and every
exit status is checked. Reports median, p95 (nearest rank) and min in ms and
each median as a multiple of the /bin/true median.

Target (issue 11): `plan list` median <= 2x the /bin/true median.

Usage: python3 tools/bench-startup.py [--runs 300] [--warmup 20] [--no-build]
                                      [--bin PATH] [--in-place] [--markdown] [--check]
"""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Shared with the plan benchmark: environment, build, statistics, machine.
_spec = importlib.util.spec_from_file_location("bench_plan", ROOT / "tools" / "bench-plan.py")
bench_plan = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_plan)
clean_env, build, release_binary = bench_plan.clean_env, bench_plan.build, bench_plan.release_binary
percentile, summarize = bench_plan.percentile, bench_plan.summarize
fail, run_checked = bench_plan.fail, bench_plan.run_checked


def machine():
    facts = bench_plan.machine()
    try:
        facts["load"] = os.getloadavg()[0]
    except OSError:
        facts["load"] = float("nan")
    return facts
TURNS = 200
TARGET_RATIO = 2.0
ORDER = ("true", "version", "list", "link", "search")
LABELS = {
    "true": "`/bin/true` (baseline)",
    "version": "`agentbox --version`",
    "list": "`agentbox plan list` (fresh home)",
    "link": "`.agent/tools/plan list` (link)",
    "search": f"`agentbox track search foo` ({TURNS} turns)",
}


def measure(launch, commands, env, runs, warmup):
    """Round-robin over commands; returns {name: [ns, …]} for the timed runs."""
    samples = {name: [] for name, _, _ in commands}
    for i in range(warmup + runs):
        for name, argv, cwd in commands:
            # posix_spawn has no cwd argument: the child inherits ours.
            os.chdir(cwd)
            elapsed, code = launch(argv, cwd)
            if code != 0:
                detail = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
                fail(f"`{' '.join(argv)}` exited {code}:\n{detail.stdout}{detail.stderr}")
            if i >= warmup:
                samples[name].append(elapsed)
    os.chdir(ROOT)
    return samples


def small_home(binary, project, env):
    """A project whose home holds TURNS recorded turns over a few sessions."""
    run_checked([str(binary), "init", str(project)], project, env)
    words = "alpha beta gamma delta foo bar baz qux format code build test".split()
    for session in range(4):
        messages = []
        for n in range(TURNS // 4):
            text = " ".join(words[(n * 7 + k + session) % len(words)] for k in range(8))
            role = "user" if n % 2 == 0 else "assistant"
            messages.append({"role": role, "content": f"turn {n}: {text}"})
        payload = json.dumps({"sessionKey": f"s{session}", "messages": messages})
        run_checked(
            [str(binary), "track", "record", "--messages", "-", "--flush"],
            project,
            env,
            stdin=payload,
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300, help="timed runs per command (default 300)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed runs first (default 20)")
    parser.add_argument("--no-build", action="store_true", help="skip cargo build --release")
    parser.add_argument("--bin", type=Path, help="agentbox binary (default: target/release/agentbox)")
    parser.add_argument("--in-place", action="store_true",
                        help="time the binary where it is, not a copy (see above)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table for the docs")
    parser.add_argument("--check", action="store_true", help="exit 2 when the target is missed")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        fail("--runs must be >= 1 and --warmup >= 0")

    if args.bin is None and not args.no_build:
        build()
    binary = (args.bin or release_binary()).resolve()
    if not os.access(binary, os.X_OK):
        fail(f"{binary} is not an executable (build it, or pass --bin)")
    true_bin = "/bin/true" if os.path.exists("/bin/true") else shutil.which("true")

    env = clean_env()
    with tempfile.TemporaryDirectory(prefix="agentbox-bench-startup-") as tmp:
        source = binary
        if not args.in_place:
            copy = Path(tmp).resolve() / "agentbox"
            shutil.copy2(binary, copy)
            binary = copy
        fresh = Path(tmp).resolve() / "fresh"
        small = Path(tmp).resolve() / "small"
        fresh.mkdir()
        small.mkdir()
        run_checked([str(binary), "init", str(fresh)], fresh, env)
        small_home(binary, small, env)
        hits = run_checked([str(binary), "track", "search", "foo"], small, env)
        if not hits.get("data"):
            fail("`track search foo` found nothing in the small home")
        link = fresh / ".agent" / "tools" / "plan"
        commands = [
            ("true", [true_bin], fresh),
            ("version", [str(binary), "--version"], fresh),
            ("list", [str(binary), "plan", "list"], fresh),
            ("link", [str(link), "list"], fresh),
            ("search", [str(binary), "track", "search", "foo"], small),
        ]
        samples = measure(bench_plan.spawn_launcher(env), commands, env, args.runs, args.warmup)
    results = {name: summarize(ns) for name, ns in samples.items()}

    info = machine()
    base = results["true"]["median"]
    ratio = {name: results[name]["median"] / base for name in ORDER}
    met = ratio["list"] <= TARGET_RATIO

    if args.markdown:
        print(f"{args.runs} timed runs per row after {args.warmup} warm-up runs, round-robin, "
              "posix_spawn; times in ms.\n")
        print("| command | median | p95 | min | median ÷ true |")
        print("|---|---:|---:|---:|---:|")
        for name in ORDER:
            r = results[name]
            print(f"| {LABELS[name]} | {r['median']:.3f} | {r['p95']:.3f} | {r['min']:.3f} "
                  f"| {ratio[name]:.2f}× |")
        print()
        print(f"Machine: {info['nproc']} CPUs ({info['cpu'] or 'unknown CPU'}), {info['uname']}, "
              f"{info['rustc']}, Python {info['python']}, load average {info['load']:.2f}.")
    else:
        print(f"machine: nproc={info['nproc']}  {info['uname']}  {info['cpu']}  "
              f"load {info['load']:.2f}")
        print(f"         {info['rustc']}  python {info['python']}")
        print(f"binary:  {source}" + ("" if args.in_place else "  (timed from a copy)"))
        print(f"runs:    {args.runs} timed + {args.warmup} warm-up per command, round-robin\n")
        print(f"  {'command':<8} {'median':>8} {'p95':>8} {'min':>8} {'÷ true':>8}   (ms)")
        for name in ORDER:
            r = results[name]
            print(f"  {name:<8} {r['median']:8.3f} {r['p95']:8.3f} {r['min']:8.3f} "
                  f"{ratio[name]:7.2f}x")
        print()
        state = "met" if met else "MISSED"
        print(f"target: plan list median {ratio['list']:.2f}x /bin/true <= {TARGET_RATIO:g}x: {state}")

    if args.check and not met:
        sys.exit(2)


if __name__ == "__main__":
    main()
