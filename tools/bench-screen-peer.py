#!/usr/bin/env python3
"""Runs a peer scanner (cisco-ai-skill-scanner, static analyzers only, no
network, no LLM) over the labelled corpus and prints recall, false fails and
wall time, for docs/PERFORMANCE.md "Skill screening".

Usage:
  python3 -m venv /tmp/peer && /tmp/peer/bin/pip install cisco-ai-skill-scanner
  python3 tools/bench-screen-peer.py --scanner /tmp/peer/bin/skill-scanner

A skill counts as `fail` when the scanner reports it unsafe (`is_safe:
false`, i.e. a HIGH or CRITICAL finding), the closest match to our `fail`.
"""
import argparse
import json
import pathlib
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent / "tests/fixtures/skills"


def scan(scanner: str, label: str):
    start = time.perf_counter()
    out = subprocess.run(
        [scanner, "scan-all", str(ROOT / label), "--format", "json"],
        capture_output=True, text=True, check=False,
    )
    elapsed = time.perf_counter() - start
    doc = json.loads(out.stdout)
    results = doc.get("results", doc) if isinstance(doc, dict) else doc
    unsafe = {pathlib.Path(r["skill_path"]).name for r in results if not r.get("is_safe", True)}
    names = sorted(p.name for p in (ROOT / label).iterdir() if p.is_dir())
    return names, unsafe, elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scanner", default="skill-scanner")
    args = ap.parse_args()
    mal, mal_unsafe, t1 = scan(args.scanner, "malicious")
    ben, ben_unsafe, t2 = scan(args.scanner, "benign")
    caught = [n for n in mal if n in mal_unsafe]
    missed = [n for n in mal if n not in mal_unsafe]
    false = [n for n in ben if n in ben_unsafe]
    print(f"recall {len(caught)}/{len(mal)} = {100 * len(caught) / len(mal):.1f} %")
    print(f"false fails {len(false)}/{len(ben)}: {false}")
    print(f"missed: {missed}")
    print(f"wall time: malicious {t1:.1f} s, benign {t2:.1f} s, total {t1 + t2:.1f} s")


if __name__ == "__main__":
    main()
