#!/usr/bin/env python3
"""Wall-time benchmark of the `plan` tool's per-call latency (python3 stdlib only).

Builds the release binary (unless --no-build), makes a throwaway project with
`agentbox init`, creates a 20-step plan and times N calls of each of:

  true   /bin/true                                    (process-spawn baseline)
  show   .agent/tools/plan show bench --format json    (read path)
  step   .agent/tools/plan step bench K --status done|pending --format json
         (write path; the status alternates, so every call is a real mutation:
          lock, read, validate, bump version, temp+fsync+rename, dir fsync)

Each command is timed with two launchers:
  spawn  os.posix_spawn + os.waitpid   (least Python overhead; the one the
                                         targets are judged on)
  run    subprocess.run(stdout=DEVNULL) (what a typical Python caller pays)

The three commands are run round-robin (true, show, step, true, …) so that
drift in machine load affects all of them alike. Stdout and stderr go to
/dev/null; every exit status is checked and any failure aborts with exit 1.

Targets: `plan show` median <= 2 ms, `plan step` median <= 4 ms (whole call,
spawn included, measured with posix_spawn).

Usage: python3 tools/bench-plan.py [--runs 300] [--warmup 20] [--no-build]
                                   [--bin PATH] [--markdown] [--check]
"""

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PLAN_ID = "bench"
STEPS = 20
STEP_K = 10
TARGETS_MS = {"show": 2.0, "step": 4.0}


def fail(message):
    # The script that runs (bench-startup.py reuses these helpers).
    print(f"{Path(sys.argv[0]).stem}: {message}", file=sys.stderr)
    sys.exit(1)


def clean_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTBOX_")}
    env.pop("NO_COLOR", None)
    env["CI"] = "true"
    return env


def build():
    print("building: cargo build --release", file=sys.stderr)
    result = subprocess.run(["cargo", "build", "--release"], cwd=ROOT)
    if result.returncode != 0:
        fail("cargo build --release failed")


def release_binary():
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    return target / "release" / "agentbox"


def run_checked(argv, cwd, env, stdin=None):
    """Runs a setup command; returns its parsed JSON envelope or aborts."""
    result = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True, text=True)
    try:
        envelope = json.loads(result.stdout)
    except ValueError:
        envelope = None
    if result.returncode != 0 or not envelope or envelope.get("ok") is not True:
        fail(
            f"{' '.join(map(str, argv))} failed (exit {result.returncode}):\n"
            f"{result.stdout}{result.stderr}"
        )
    return envelope


def spawn_launcher(env):
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0),
    ]

    def launch(argv, cwd):
        # posix_spawn has no cwd argument; every command here uses absolute
        # paths and finds its home through the link, so the cwd is set once.
        del cwd
        start = time.perf_counter_ns()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        elapsed = time.perf_counter_ns() - start
        return elapsed, os.waitstatus_to_exitcode(status)

    return launch


def run_launcher(env):
    def launch(argv, cwd):
        start = time.perf_counter_ns()
        result = subprocess.run(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        elapsed = time.perf_counter_ns() - start
        return elapsed, result.returncode

    return launch


def percentile(sorted_values, fraction):
    """Nearest-rank percentile of an already sorted list."""
    rank = math.ceil(fraction * len(sorted_values))
    return sorted_values[max(0, min(len(sorted_values), rank) - 1)]


def summarize(samples_ns):
    values = sorted(ns / 1e6 for ns in samples_ns)
    return {
        "median": statistics.median(values),
        "p95": percentile(values, 0.95),
        "min": values[0],
        "n": len(values),
    }


def measure(launch, commands, project, env, runs, warmup):
    """Round-robin over commands; returns {name: [ns, …]} for the timed runs."""
    samples = {name: [] for name, _ in commands}
    for i in range(warmup + runs):
        for name, make_argv in commands:
            argv = make_argv(i)
            elapsed, code = launch(argv, project)
            if code != 0:
                detail = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True)
                fail(
                    f"`{' '.join(argv)}` exited {code}:\n{detail.stdout}{detail.stderr}"
                )
            if i >= warmup:
                samples[name].append(elapsed)
    return samples


def machine():
    rustc = shutil.which("rustc")
    rustc_version = (
        subprocess.run([rustc, "--version"], capture_output=True, text=True).stdout.strip()
        if rustc
        else "unknown"
    )
    uname = platform.uname()
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "uname": f"{uname.system} {uname.release} {uname.machine}",
        "cpu": cpu,
        "rustc": rustc_version,
        "python": platform.python_version(),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=300, help="timed runs per command (default 300)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed runs first (default 20)")
    parser.add_argument("--no-build", action="store_true", help="skip cargo build --release")
    parser.add_argument("--bin", type=Path, help="agentbox binary (default: target/release/agentbox)")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table for the docs")
    parser.add_argument("--check", action="store_true", help="exit 2 when a target is missed")
    args = parser.parse_args()
    if args.runs < 1 or args.warmup < 0:
        fail("--runs must be >= 1 and --warmup >= 0")

    if args.bin is None and not args.no_build:
        build()
    binary = (args.bin or release_binary()).resolve()
    if not os.access(binary, os.X_OK):
        fail(f"{binary} is not an executable (build it, or pass --bin)")
    true_bin = shutil.which("true") if not os.path.exists("/bin/true") else "/bin/true"

    env = clean_env()
    results = {}
    with tempfile.TemporaryDirectory(prefix="agentbox-bench-") as tmp:
        project = Path(tmp).resolve()
        run_checked([str(binary), "init", str(project)], project, env)
        link = project / ".agent" / "tools" / "plan"
        steps = []
        for n in range(1, STEPS + 1):
            steps += ["--step", f"step {n}: a realistic line of work to do"]
        run_checked(
            [str(link), "create", "Benchmark plan", "--id", PLAN_ID, *steps, "--format", "json"],
            project,
            env,
        )
        statuses = ("done", "pending")
        commands = [
            ("true", lambda i: [true_bin]),
            ("show", lambda i: [str(link), "show", PLAN_ID, "--format", "json"]),
            (
                "step",
                lambda i: [
                    str(link), "step", PLAN_ID, str(STEP_K),
                    "--status", statuses[i % 2], "--format", "json",
                ],
            ),
        ]
        os.chdir(project)
        for launcher_name, factory in (("spawn", spawn_launcher), ("run", run_launcher)):
            samples = measure(factory(env), commands, project, env, args.runs, args.warmup)
            results[launcher_name] = {name: summarize(ns) for name, ns in samples.items()}

        # Every `step` call must have been a real mutation.
        final = run_checked([str(link), "show", PLAN_ID, "--format", "json"], project, env)
        expected = 1 + 2 * (args.warmup + args.runs)
        if final["data"]["version"] != expected:
            fail(f"plan is at version {final['data']['version']}, expected {expected}")
        os.chdir(ROOT)

    info = machine()
    verdicts = {}
    for name, target in TARGETS_MS.items():
        median = results["spawn"][name]["median"]
        verdicts[name] = (median <= target, median, target)

    labels = {
        "true": "`/bin/true` (baseline)",
        "show": "`plan show ID --format json`",
        "step": "`plan step ID K --status …` (mutation)",
    }
    if args.markdown:
        print(f"{args.runs} timed runs per row after {args.warmup} warm-up runs; times in ms.\n")
        print("| command | launcher | median | p95 | min | median − true | target | met |")
        print("|---|---|---:|---:|---:|---:|---:|:---:|")
        for launcher_name in ("spawn", "run"):
            launcher_label = "posix_spawn" if launcher_name == "spawn" else "subprocess.run"
            base = results[launcher_name]["true"]["median"]
            for name in ("true", "show", "step"):
                r = results[launcher_name][name]
                delta = "—" if name == "true" else f"{r['median'] - base:.3f}"
                target = TARGETS_MS.get(name)
                target_cell = f"≤ {target:g}" if target else "—"
                met = "—"
                if target and launcher_name == "spawn":
                    met = "yes" if r["median"] <= target else "**no**"
                print(
                    f"| {labels[name]} | {launcher_label} | {r['median']:.3f} | {r['p95']:.3f} "
                    f"| {r['min']:.3f} | {delta} | {target_cell} | {met} |"
                )
        print()
        print(
            f"Machine: {info['nproc']} CPUs ({info['cpu'] or 'unknown CPU'}), {info['uname']}, "
            f"{info['rustc']}, Python {info['python']}."
        )
    else:
        print(f"machine: nproc={info['nproc']}  {info['uname']}  {info['cpu']}")
        print(f"         {info['rustc']}  python {info['python']}")
        print(f"binary:  {binary}")
        print(f"runs:    {args.runs} timed + {args.warmup} warm-up per command, round-robin\n")
        for launcher_name in ("spawn", "run"):
            base = results[launcher_name]["true"]["median"]
            title = "os.posix_spawn + waitpid" if launcher_name == "spawn" else "subprocess.run"
            print(f"[{title}]  (ms)")
            print(f"  {'command':<8} {'median':>8} {'p95':>8} {'min':>8} {'med-true':>9}")
            for name in ("true", "show", "step"):
                r = results[launcher_name][name]
                delta = "" if name == "true" else f"{r['median'] - base:9.3f}"
                print(f"  {name:<8} {r['median']:8.3f} {r['p95']:8.3f} {r['min']:8.3f} {delta}")
            print()
        for name, (met, median, target) in verdicts.items():
            state = "met" if met else "MISSED"
            print(f"target plan {name}: median {median:.3f} ms <= {target:g} ms (posix_spawn): {state}")

    if args.check and not all(met for met, _, _ in verdicts.values()):
        sys.exit(2)


if __name__ == "__main__":
    main()
