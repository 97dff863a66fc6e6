#!/usr/bin/env python3
"""Skill screener benchmark, side by side with a peer (issue #29).

Python 3 standard library only. Screens every skill of a corpus with
`agentbox skill_forge screen DIR --format json` (verdict in `data.verdict`,
findings in `data.findings[]`) and, with --peer, with cisco-ai-skill-scanner
2.3.2 in its default static mode, then prints a table of every skill and the
recall / false-fail lines of both tools. Optionally times our screener over
the project's own corpus (--speed) and on a synthetic skill of N files (--big).

Corpora:
  own    tests/fixtures/skills/{malicious,benign}/*   (label = folder)
  cisco  ../shared/corpora/cisco-skill-evals          (vendor's eval skills)
         label: `_expected.json` `expected_safe` (false = unsafe) or
         `is_malicious`; the folders without it by their parent folder
         (test_skills/malicious/* unsafe, test_skills/safe/* safe).
         Each skill is copied to a temp folder WITHOUT `_expected.json`
         before either tool sees it (that file names the attack in prose).
         Categories are "intent" (malicious intent: exfiltration, backdoor,
         obfuscated payload, prompt injection, ASCII smuggling, jailbreak,
         CVE stubs) or "vulnerable" (a bug, not an attack: SQL injection,
         path traversal, infinite loop, eval of user input); figures are
         given for "intent only" and for "all unsafe". The three
         `*-cve-*` stubs are scored but flagged (plain text naming the CVE:
         a string match would "catch" them). `eicar-test` is left out of
         recall: its asset is random bytes meant for an online antivirus
         lookup, which cannot be judged offline.

Peer verdict mapping (from its JSON report, `max_severity`):
  CRITICAL, HIGH -> fail   (the same skills it reports `is_safe: false`)
  MEDIUM         -> warn
  LOW, INFO, SAFE, none -> pass
  no JSON / non-zero exit -> error

Our screener runs from inside a throwaway agent home (`agentbox init` in a
temp folder, used as the working directory), so the script works whether or
not `screen DIR` needs a home.

Timing: every call is a separate process timed with perf_counter around
spawn..wait (os.wait4 also gives the child's max RSS). Raw wall time per
call is reported, not a baseline-subtracted figure; `agentbox --version`'s
median is printed beside it only as context. The in-process time is reported
if the JSON envelope carries one (the peer's does: `duration_ms`).

Usage:
  python3 -m pip install --user cisco-ai-skill-scanner==2.3.2   # the peer
  python3 tools/bench-screen.py                                # own corpus, ours only
  python3 tools/bench-screen.py --peer --corpus all --speed
  python3 tools/bench-screen.py --bin target/debug/agentbox --corpus none --big 100000
  python3 tools/bench-screen.py --peer --corpus cisco --json > screen.json

Options: --bin PATH (default target/release/agentbox), --peer, --peer-cmd CMD
(default `skill-scanner` on PATH or ~/.local/bin), --peer-args "ARGS" (extra
peer arguments, e.g. "--use-behavioral" or "--rule-packs atr"), --corpus
own|cisco|all|none, --cisco-dir DIR, --speed [--runs 3], --big [N] [--big-timeout
S], --json. Exit 1 when the cisco corpus is absent and `--corpus cisco` was
asked, or when our screener gave no verdict for some skill.
"""

import argparse
import json
import os
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OWN_DIR = ROOT / "tests" / "fixtures" / "skills"
CISCO_REL = Path("shared") / "corpora" / "cisco-skill-evals"


def cisco_default():
    """../shared/corpora/cisco-skill-evals beside the repository; from a git
    worktree elsewhere, beside the main checkout."""
    here = ROOT.parent / CISCO_REL
    if here.is_dir():
        return here
    try:
        common = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--path-format=absolute",
                                 "--git-common-dir"], capture_output=True, text=True).stdout.strip()
    except OSError:
        common = ""
    if common:
        main = Path(common).parent.parent / CISCO_REL
        if main.is_dir():
            return main
    return here

# cisco corpus: category -> kind. "intent" owes `fail`; "vulnerable" (a bug
# in honest code, not an attack) owes at most `warn`.
CATEGORY_KIND = {
    "backdoor": "intent",
    "behavioral-analysis": "intent",      # multi-file exfiltration
    "data-exfiltration": "intent",
    "obfuscation": "intent",              # base64 payload fetched and run
    "prompt-injection": "intent",         # incl. jailbreak-override
    "ascii-smuggling": "intent",
    "cve-stub": "intent",                 # exploit text naming a CVE (flagged)
    "command-injection": "vulnerable",    # eval/exec of user input in a calculator
    "path-traversal": "vulnerable",
    "resource-exhaustion": "vulnerable",  # infinite loop / memory bomb
    "sql-injection": "vulnerable",
    "eicar": "excluded",
    "safe": "-",
}
# test_skills/* have no category folder: name -> category.
TEST_SKILL_CATEGORY = {
    "ascii-smuggling": "ascii-smuggling",
    "exfiltrator": "data-exfiltration",
    "prompt-injection": "prompt-injection",
    "eicar-test": "eicar",
}
EICAR_WHY = ("eicar-test: left out of recall: its asset is random bytes meant "
             "for an online antivirus (VirusTotal) lookup, not judgeable offline")
CVE_WHY = ("cve stubs: no front matter, the text names its CVE and the peer's "
           "ATR rule id; a string match on 'CVE-' would 'catch' all three")

PEER_MAP = {"CRITICAL": "fail", "HIGH": "fail", "MEDIUM": "warn",
            "LOW": "pass", "INFO": "pass", "SAFE": "pass", "NONE": "pass"}
# Environment variables the peer could use to reach a network service.
PEER_ENV_DROP = ("API_KEY", "OPENAI", "ANTHROPIC", "VIRUSTOTAL", "AIDEFENSE",
                 "AI_DEFENSE", "SKILL_SCANNER_LLM", "AWS_", "AZURE", "GEMINI")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- processes

def timed_run(argv, cwd=None, env=None, timeout=None):
    """Run argv; return dict(rc, out, err, ms, maxrss_kb, timed_out)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, start_new_session=True)
        timed_out = False
        while True:
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if timeout is not None and time.perf_counter() - t0 > timeout:
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, ru = os.wait4(proc.pid, 0)
                timed_out = True
                break
            time.sleep(0.002)
        ms = (time.perf_counter() - t0) * 1000.0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return {"rc": proc.returncode, "out": out.read().decode("utf-8", "replace"),
                "err": err.read().decode("utf-8", "replace"), "ms": ms,
                "maxrss_kb": ru.ru_maxrss, "timed_out": timed_out}


def ours_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTBOX_")}
    env.pop("NO_COLOR", None)
    return env


def peer_env():
    return {k: v for k, v in os.environ.items()
            if not any(s in k.upper() for s in PEER_ENV_DROP)}


def make_home(binary, tmp):
    proj = Path(tmp) / "home"
    proj.mkdir()
    r = timed_run([binary, "init", str(proj), "--format", "json"], cwd=proj, env=ours_env())
    if r["rc"] != 0:
        log(f"warning: `agentbox init` failed (rc {r['rc']}): {r['out'][:300]} {r['err'][:300]}")
    return proj


def in_process_ms(doc):
    """An in-process duration from our envelope, if it carries one."""
    for where in (doc.get("meta") or {}, doc.get("data") or {}):
        for key in ("elapsed_ms", "duration_ms", "took_ms", "screen_ms", "ms"):
            if isinstance(where.get(key), (int, float)):
                return float(where[key])
    return None


def screen_ours(binary, home, skill_dir, timeout=None):
    r = timed_run([binary, "skill_forge", "screen", str(skill_dir), "--format", "json"],
                  cwd=home, env=ours_env(), timeout=timeout)
    res = {"verdict": "error", "rules": [], "ms": r["ms"], "inproc_ms": None,
           "maxrss_kb": r["maxrss_kb"], "error": None}
    if r["timed_out"]:
        res["verdict"] = "timeout"
        res["error"] = f"killed after {timeout} s"
        return res
    try:
        doc = json.loads(r["out"])
    except ValueError:
        res["error"] = f"rc {r['rc']}, no JSON: {(r['out'] + r['err'])[:300]!r}"
        return res
    if not doc.get("ok"):
        res["error"] = json.dumps(doc.get("error"))[:300]
        return res
    data = doc.get("data") or {}
    res["verdict"] = data.get("verdict", "error")
    res["rules"] = sorted({f.get("rule", "?") for f in data.get("findings") or []})
    res["findings"] = len(data.get("findings") or [])
    res["inproc_ms"] = in_process_ms(doc)
    return res


def screen_peer(peer_cmd, peer_args, skill_dir, cwd):
    r = timed_run(peer_cmd + ["scan", str(skill_dir), "--format", "json", "--compact"]
                  + peer_args, cwd=cwd, env=peer_env())
    res = {"verdict": "error", "rules": [], "ms": r["ms"], "inproc_ms": None,
           "maxrss_kb": r["maxrss_kb"], "error": None, "max_severity": None,
           "is_safe": None}
    try:
        doc = json.loads(r["out"])
    except ValueError:
        res["error"] = f"rc {r['rc']}, no JSON: {(r['out'] + r['err'])[-300:]!r}"
        return res
    sev = str(doc.get("max_severity") or "NONE").upper()
    res["max_severity"] = sev
    res["is_safe"] = doc.get("is_safe")
    res["verdict"] = PEER_MAP.get(sev, "pass")
    res["rules"] = sorted({f.get("rule_id", "?") for f in doc.get("findings") or []
                           if str(f.get("severity", "")).upper() in ("CRITICAL", "HIGH", "MEDIUM")})
    if isinstance(doc.get("duration_ms"), (int, float)):
        res["inproc_ms"] = float(doc["duration_ms"])
    return res


def screen_peer_batch(peer_cmd, peer_args, skills, dest, cwd):
    """One `scan-all` over copies of every skill (the peer's start-up is ~10 s
    of CPU a call, so one process per skill takes ~20 s each): the verdicts of
    `screen_peer`, and the batch's wall time spread evenly as `ms`."""
    dest.mkdir(parents=True)
    for i, s in enumerate(skills):
        shutil.copytree(s.get("scan_path", s["path"]), dest / f"s{i:04d}",
                        ignore=shutil.ignore_patterns("_expected.json"), symlinks=True)
    r = timed_run(peer_cmd + ["scan-all", str(dest), "--format", "json"] + peer_args,
                  cwd=cwd, env=peer_env())
    out = {}
    try:
        doc = json.loads(r["out"])
    except ValueError:
        doc = {}
    results = doc.get("results", doc) if isinstance(doc, dict) else doc
    for res in results or []:
        name = Path(res.get("skill_path", "")).name
        sev = str(res.get("max_severity") or "NONE").upper()
        out[name] = {"verdict": PEER_MAP.get(sev, "pass"), "max_severity": sev,
                     "is_safe": res.get("is_safe"), "ms": r["ms"] / max(len(skills), 1),
                     "inproc_ms": None, "maxrss_kb": r["maxrss_kb"], "error": None,
                     "rules": sorted({f.get("rule_id", "?") for f in res.get("findings") or []
                                      if str(f.get("severity", "")).upper()
                                      in ("CRITICAL", "HIGH", "MEDIUM")})}
    for i, s in enumerate(skills):
        s["peer"] = out.get(f"s{i:04d}", {
            "verdict": "error", "rules": [], "ms": None, "inproc_ms": None,
            "maxrss_kb": None, "max_severity": None, "is_safe": None,
            "error": f"not in the scan-all report (rc {r['rc']})"})


def find_peer(cmd):
    if cmd:
        return shlex.split(cmd)
    found = shutil.which("skill-scanner")
    if not found:
        local = Path.home() / ".local" / "bin" / "skill-scanner"
        found = str(local) if local.exists() else None
    return [found] if found else None


# ------------------------------------------------------------------ corpora

def own_skills():
    skills = []
    for label in ("malicious", "benign"):
        d = OWN_DIR / label
        for p in sorted(d.iterdir()) if d.is_dir() else []:
            if p.is_dir():
                skills.append({"name": f"{label}/{p.name}", "path": p,
                               "label": label, "category": "-", "kind": "-", "flag": ""})
    return skills


def cisco_label(skill_dir, rel_parts):
    exp = skill_dir / "_expected.json"
    if exp.exists():
        try:
            doc = json.loads(exp.read_text())
        except ValueError:
            doc = {}
        if "expected_safe" in doc:
            return ("benign" if doc["expected_safe"] else "malicious"), "_expected.json"
        if "is_malicious" in doc:
            return ("malicious" if doc["is_malicious"] else "benign"), "_expected.json"
    if "malicious" in rel_parts:
        return "malicious", "folder"
    if "safe" in rel_parts:
        return "benign", "folder"
    return None, "none"


def cisco_skills(cisco_dir):
    skills = []
    for skill_md in sorted(cisco_dir.rglob("SKILL.md")):
        d = skill_md.parent
        rel = d.relative_to(cisco_dir)
        parts = rel.parts
        label, source = cisco_label(d, parts)
        if label is None:
            log(f"warning: {rel}: no label, skipped")
            continue
        flag = ""
        if label == "benign":
            category = "safe"
        elif parts[0] == "skills" and len(parts) >= 3:
            category = parts[1]
        elif "-cve-" in d.name:
            category, flag = "cve-stub", "cve-stub"
        else:
            category = TEST_SKILL_CATEGORY.get(d.name, d.name)
        kind = CATEGORY_KIND.get(category, "unknown")
        if category == "eicar":
            flag = "excluded"
        skills.append({"name": str(rel), "path": d, "label": label,
                       "label_from": source, "category": category, "kind": kind,
                       "flag": flag})
    return skills


def stage(skills, dest):
    """Copy each skill without `_expected.json` (it describes the attack)."""
    for s in skills:
        target = dest / s["name"]
        shutil.copytree(s["path"], target, ignore=shutil.ignore_patterns("_expected.json"), symlinks=True)
        s["scan_path"] = target


# ------------------------------------------------------------------ scoring

def frac(n, d):
    return f"{n}/{d}" + (f" ({100.0 * n / d:.0f} %)" if d else "")


def score(skills, tool, positives, benign):
    """Recall at fail, at fail-or-warn, and false fails among `benign`."""
    v = lambda s: s[tool]["verdict"]
    return {
        "positives": len(positives),
        "fail": sum(v(s) == "fail" for s in positives),
        "fail_or_warn": sum(v(s) in ("fail", "warn") for s in positives),
        "benign": len(benign),
        "false_fail": sum(v(s) == "fail" for s in benign),
        "false_warn": sum(v(s) == "warn" for s in benign),
        "missed": [s["name"] for s in positives if v(s) not in ("fail", "warn")],
        "false_fails": [s["name"] for s in benign if v(s) == "fail"],
    }


def summarise(corpus, skills, tools):
    benign = [s for s in skills if s["label"] == "benign"]
    mal = [s for s in skills if s["label"] == "malicious" and s["kind"] != "excluded"]
    out = {}
    for tool in tools:
        t = {}
        if corpus == "own":
            t["malicious"] = score(skills, tool, mal, benign)
        else:
            intent = [s for s in mal if s["kind"] == "intent"]
            t["intent_only"] = score(skills, tool, intent, benign)
            t["intent_no_cve_stubs"] = score(skills, tool, [s for s in intent if s["flag"] != "cve-stub"], benign)
            t["all_unsafe"] = score(skills, tool, mal, benign)
            vuln = [s for s in mal if s["kind"] == "vulnerable"]
            t["vulnerable_verdicts"] = {s["name"]: s[tool]["verdict"] for s in vuln}
            t["vulnerable_over_policy"] = sum(s[tool]["verdict"] == "fail" for s in vuln)
            t["cve_stubs"] = {s["name"]: s[tool]["verdict"] for s in skills if s["flag"] == "cve-stub"}
            t["excluded"] = {s["name"]: s[tool]["verdict"] for s in skills if s["kind"] == "excluded"}
        t["errors"] = [s["name"] for s in skills if s[tool]["verdict"] in ("error", "timeout")]
        if tool == "peer":  # the mapping's premise: is_safe false <=> HIGH or CRITICAL
            t["is_safe_mismatch"] = [s["name"] for s in skills if s["peer"]["is_safe"] is not None
                                     and (s["peer"]["is_safe"] is False) != (s["peer"]["verdict"] == "fail")]
        ms = [s[tool]["ms"] for s in skills]
        inproc = [s[tool]["inproc_ms"] for s in skills if s[tool]["inproc_ms"] is not None]
        t["wall_ms"] = stats(ms)
        t["inproc_ms"] = stats(inproc) if inproc else None
        out[tool] = t
    return out


def stats(xs):
    if not xs:
        return None
    xs = sorted(xs)
    p90 = xs[min(len(xs) - 1, max(0, -(-90 * len(xs) // 100) - 1))]  # nearest rank
    return {"n": len(xs), "median": statistics.median(xs), "p90": p90, "max": xs[-1]}


def fmt_stats(st):
    if not st:
        return "n/a"
    return f"median {st['median']:.1f} ms, p90 {st['p90']:.1f} ms, max {st['max']:.1f} ms (n={st['n']})"


# ------------------------------------------------------------------ printing

def print_table(corpus, skills, tools):
    cols = ["skill", "label"] + (["category", "kind"] if corpus == "cisco" else []) \
        + [f"{t}" for t in tools] + ["ours ms"] + (["peer ms"] if "peer" in tools else []) \
        + ["ours rules"] + (["peer rules (>=MEDIUM)"] if "peer" in tools else []) + ["note"]
    rows = []
    for s in skills:
        note = {"cve-stub": "CVE stub (names its CVE)", "excluded": "not in recall (offline)"}.get(s["flag"], "")
        if s.get("label_from") == "folder":
            note = (note + "; " if note else "") + "label by folder"
        row = [s["name"], s["label"]]
        if corpus == "cisco":
            row += [s["category"], s["kind"]]
        row += [s[t]["verdict"] + (f" ({s['peer']['max_severity']})" if t == "peer" and s[t].get("max_severity") else "")
                for t in tools]
        row += [f"{s['ours']['ms']:.0f}"]
        if "peer" in tools:
            row += [f"{s['peer']['ms']:.0f}"]
        row += [",".join(s["ours"]["rules"]) or "-"]
        if "peer" in tools:
            row += [",".join(s["peer"]["rules"]) or "-"]
        err = s["ours"].get("error") or ("peer: " + s["peer"]["error"] if "peer" in tools and s["peer"].get("error") else "")
        row += [(note + (" " if note and err else "") + (err or "")) or ""]
        rows.append(row)
    print("| " + " | ".join(cols) + " |")
    print("|" + "|".join("---" for _ in cols) + "|")
    for r in rows:
        print("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")


def print_summary(corpus, summ, tools):
    names = {"ours": "agentbox", "peer": "peer (cisco static)"}
    print()
    for tool in tools:
        t = summ[tool]
        n = names[tool]
        if corpus == "own":
            m = t["malicious"]
            print(f"{n}: recall at fail {frac(m['fail'], m['positives'])}; at fail-or-warn "
                  f"{frac(m['fail_or_warn'], m['positives'])}; false fails {frac(m['false_fail'], m['benign'])}"
                  f" (benign warn {m['false_warn']})")
            if m["missed"]:
                print(f"  missed (pass/error): {', '.join(m['missed'])}")
            if m["false_fails"]:
                print(f"  false fails: {', '.join(m['false_fails'])}")
        else:
            for key, title in (("intent_only", "intent only"),
                               ("intent_no_cve_stubs", "intent, CVE stubs left out"),
                               ("all_unsafe", "all unsafe (intent + vulnerable)")):
                m = t[key]
                print(f"{n} [{title}]: recall at fail {frac(m['fail'], m['positives'])}; at fail-or-warn "
                      f"{frac(m['fail_or_warn'], m['positives'])}; false fails {frac(m['false_fail'], m['benign'])}"
                      f" (benign warn {m['false_warn']})")
            print(f"  vulnerable (owes at most warn): {t['vulnerable_verdicts']}; fail there (stricter than policy): {t['vulnerable_over_policy']}")
            print(f"  CVE stubs (flagged): {t['cve_stubs']}")
            print(f"  excluded from recall: {t['excluded']}")
            if t["all_unsafe"]["missed"]:
                print(f"  missed (pass/error): {', '.join(t['all_unsafe']['missed'])}")
            if t["all_unsafe"]["false_fails"]:
                print(f"  false fails: {', '.join(t['all_unsafe']['false_fails'])}")
        if t["errors"]:
            print(f"  errors: {', '.join(t['errors'])}")
        if tool == "peer":
            mm = t["is_safe_mismatch"]
            print(f"  peer `is_safe: false` <=> mapped fail: " + ("holds on every skill" if not mm else f"differs on {', '.join(mm)}"))
        print(f"  wall time per skill: {fmt_stats(t['wall_ms'])}")
        print(f"  in-process time per skill: {fmt_stats(t['inproc_ms']) if t['inproc_ms'] else 'not reported by its JSON'}")
    if corpus == "cisco":
        print(f"  note: {CVE_WHY}")
        print(f"  note: {EICAR_WHY}")
        print("  note: each skill was screened from a copy without `_expected.json`")


# --------------------------------------------------------------------- big

def make_big_skill(root, n):
    root.mkdir(parents=True)
    (root / "SKILL.md").write_text(
        "---\nname: big-docs\ndescription: A large reference set of notes and helper scripts.\n"
        "---\n\n# Big docs\n\nRead the notes under `notes/` when asked about the project.\n")
    kinds = [
        ("md", "# Note {i}\n\nThis page explains step {i} of the build. Run `make test` "
               "and read the output.\n\n- item one\n- item two\n"),
        ("py", "def f{i}(x):\n    \"\"\"Return x plus {i}.\"\"\"\n    return x + {i}\n"),
        ("sh", "#!/bin/sh\nset -eu\necho \"step {i}\"\nls -la ./build || true\n"),
        ("json", "{{\"id\": {i}, \"name\": \"item-{i}\", \"tags\": [\"a\", \"b\"]}}\n"),
        ("txt", "Line one of file {i}.\nPlain text, nothing to see here.\n"),
    ]
    per_dir = 1000
    for i in range(max(0, n - 1)):
        d = root / "notes" / f"d{i // per_dir:04d}"
        if i % per_dir == 0:
            d.mkdir(parents=True, exist_ok=True)
        ext, body = kinds[i % len(kinds)]
        (d / f"f{i:06d}.{ext}").write_text(body.format(i=i))


def run_big(binary, home, tmp, n, timeout):
    root = Path(tmp) / "big" / "big-docs"
    t0 = time.perf_counter()
    make_big_skill(root, n)
    made = time.perf_counter() - t0
    size = sum(f.stat().st_size for f in root.rglob("*") if f.is_file())
    log(f"big: {n} files ({size / 1e6:.1f} MB) written in {made:.1f} s; screening (timeout {timeout} s)")
    r = screen_ours(binary, home, root, timeout=timeout)
    res = {"files": n, "bytes": size, "verdict": r["verdict"], "findings": r.get("findings"),
           "wall_s": r["ms"] / 1000.0, "max_rss_mb": r["maxrss_kb"] / 1024.0,
           "error": r["error"], "inproc_ms": r["inproc_ms"]}
    return res


# -------------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "agentbox"))
    ap.add_argument("--peer", action="store_true", help="also run cisco-ai-skill-scanner")
    ap.add_argument("--peer-batch", action="store_true",
                    help="run the peer once per corpus (scan-all over copies) instead of once per skill")
    ap.add_argument("--peer-cmd", default=None, help="how to invoke the peer (default: skill-scanner on PATH)")
    ap.add_argument("--peer-args", default="", help="extra peer arguments, e.g. '--use-behavioral'")
    ap.add_argument("--corpus", choices=["own", "cisco", "all", "none"], default="own",
                    help="none: only --speed and/or --big")
    ap.add_argument("--cisco-dir", default=None,
                    help="default ../shared/corpora/cisco-skill-evals from the repository root")
    ap.add_argument("--speed", action="store_true", help="time our screener over the own corpus")
    ap.add_argument("--runs", type=int, default=3, help="runs per skill for --speed (default 3)")
    ap.add_argument("--big", type=int, nargs="?", const=100000, default=None,
                    help="screen a synthetic skill of N files (default 100000)")
    ap.add_argument("--big-timeout", type=float, default=300.0)
    ap.add_argument("--json", action="store_true", help="print a machine-readable summary")
    args = ap.parse_args()

    binary = str(Path(args.bin).resolve())
    if not os.access(binary, os.X_OK):
        log(f"agentbox binary not found: {binary} (build it, or pass --bin PATH)")
        return 1
    peer_cmd = None
    if args.peer:
        peer_cmd = find_peer(args.peer_cmd)
        if not peer_cmd:
            log("peer not found: python3 -m pip install --user cisco-ai-skill-scanner==2.3.2, or --peer-cmd")
            return 1
    tools = ["ours"] + (["peer"] if args.peer else [])
    report = {"bin": binary, "peer_cmd": peer_cmd, "peer_args": args.peer_args, "corpora": {}}
    rc = 0

    with tempfile.TemporaryDirectory(prefix="bench-screen-") as tmp:
        tmp = Path(tmp)
        home = make_home(binary, tmp)
        ver = timed_run([binary, "--version"], cwd=home, env=ours_env())
        report["agentbox_version"] = ver["out"].strip()
        if peer_cmd:
            pv = timed_run(peer_cmd + ["--version"], env=peer_env())
            report["peer_version"] = (pv["out"] + pv["err"]).strip()

        report["loadavg_start"] = os.getloadavg()
        if not args.json:
            st = os.stat(binary)
            print(f"agentbox: {binary} ({report['agentbox_version']}, built "
                  f"{time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime(st.st_mtime))} UTC, {st.st_size} bytes)")
            if peer_cmd:
                print(f"peer: {' '.join(peer_cmd)} scan DIR --format json --compact {args.peer_args}".rstrip()
                      + f" ({report['peer_version']})")
            print(f"load average at start: {' '.join(f'{x:.2f}' for x in report['loadavg_start'])} "
                  f"on {os.cpu_count()} CPUs")
        corpora = []
        if args.corpus in ("own", "all"):
            corpora.append(("own", own_skills()))
        if args.corpus in ("cisco", "all"):
            cdir = Path(args.cisco_dir).resolve() if args.cisco_dir else cisco_default()
            if not cdir.is_dir():
                print(f"cisco corpus absent at {cdir}: skipped")
                report["corpora"]["cisco"] = {"absent": str(cdir)}
                if args.corpus == "cisco":
                    rc = 1
            else:
                sk = cisco_skills(cdir)
                stage(sk, tmp / "stage")
                corpora.append(("cisco", sk))

        for corpus, skills in corpora:
            if peer_cmd and args.peer_batch:
                screen_peer_batch(peer_cmd, shlex.split(args.peer_args), skills,
                                  tmp / f"batch-{corpus}", tmp)
            for s in skills:
                path = s.get("scan_path", s["path"])
                s["ours"] = screen_ours(binary, home, path)
                if peer_cmd and not args.peer_batch:
                    s["peer"] = screen_peer(peer_cmd, shlex.split(args.peer_args), path, tmp)
                log(f"{corpus}: {s['name']}: ours {s['ours']['verdict']}"
                    + (f", peer {s['peer']['verdict']}" if peer_cmd else ""))
            summ = summarise(corpus, skills, tools)
            if summ["ours"]["errors"]:
                rc = 1
            report["corpora"][corpus] = {
                "summary": summ,
                "skills": [{k: (str(v) if isinstance(v, Path) else v) for k, v in s.items()
                            if k not in ("scan_path",)} for s in skills]}
            if not args.json:
                print(f"\n## corpus: {corpus} ({len(skills)} skills)\n")
                print_table(corpus, skills, tools)
                print_summary(corpus, summ, tools)

        if args.speed:
            skills = own_skills()
            base = [timed_run([binary, "--version"], cwd=home, env=ours_env())["ms"] for _ in range(20)]
            walls, inproc, rss = [], [], []
            for _ in range(args.runs):  # whole passes, so load drift hits every skill alike
                for s in skills:
                    r = screen_ours(binary, home, s["path"])
                    walls.append(r["ms"])
                    rss.append(r["maxrss_kb"])
                    if r["inproc_ms"] is not None:
                        inproc.append(r["inproc_ms"])
            sp = {"skills": len(skills), "runs": args.runs, "wall_ms": stats(walls),
                  "inproc_ms": stats(inproc) if inproc else None,
                  "max_rss_mb": max(rss) / 1024.0 if rss else None,
                  "version_baseline_ms": statistics.median(base)}
            report["speed"] = sp
            if not args.json:
                print(f"\n## speed: own corpus, {len(skills)} skills x {args.runs} runs, "
                      f"`skill_forge screen DIR --format json`, one process per call\n")
                print(f"agentbox wall time per call: {fmt_stats(sp['wall_ms'])}")
                print(f"agentbox in-process time: {fmt_stats(sp['inproc_ms']) if sp['inproc_ms'] else 'not reported by its JSON'}")
                print(f"agentbox max RSS of a call: {sp['max_rss_mb']:.1f} MB")
                print(f"context: `agentbox --version` median {sp['version_baseline_ms']:.1f} ms (process start; not subtracted)")
                for corpus in report["corpora"]:
                    summ = report["corpora"][corpus].get("summary")
                    if summ and "peer" in summ:
                        print(f"peer ({corpus} corpus, one run per skill): wall {fmt_stats(summ['peer']['wall_ms'])}; "
                              f"its own duration_ms {fmt_stats(summ['peer']['inproc_ms'])}")

        if args.big is not None:
            big = run_big(binary, home, tmp, args.big, args.big_timeout)
            report["big"] = big
            if big["verdict"] in ("error", "timeout"):
                rc = 1
            if not args.json:
                print(f"\n## big: one synthetic skill of {big['files']} files ({big['bytes'] / 1e6:.1f} MB of small mixed text)\n")
                print(f"verdict {big['verdict']} ({big['findings']} findings); wall {big['wall_s']:.2f} s; "
                      f"max RSS {big['max_rss_mb']:.1f} MB" + (f"; error: {big['error']}" if big["error"] else ""))

    report["loadavg_end"] = os.getloadavg()
    if not args.json:
        print(f"\nload average at end: {' '.join(f'{x:.2f}' for x in report['loadavg_end'])}")
    if args.json:
        json.dump(report, sys.stdout, indent=1, default=str)
        print()
    return rc


if __name__ == "__main__":
    sys.exit(main())
