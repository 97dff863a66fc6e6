#!/usr/bin/env python3
"""Recall on LoCoMo (Maharana et al., ACL 2024): does `agentbox search` bring
back the turns a question is about?

Each conversation goes into its own fresh home: one track session per LoCoMo
session, one turn per utterance (the first speaker `user`, the second
`assistant`), content `"Speaker: text"` plus `[shares a photo: caption]` when
the utterance has one, and, unless --no-timestamps, the session's date as each
turn's `timestamp`. Each question (categories 1-4; 5 is unanswerable) is asked
verbatim through `agentbox search --kind turn --limit 10`; Recall@k is the
share of the question's evidence turns among the top k hits, averaged over
questions. Malformed evidence ids are split on `;`, and an id that names no
turn counts as a miss (the data's README says why). Only role, content,
session and time are given to agentbox: the `observation`, `summary` and
`events` fields, written from the answers, are never read.

The data is not in this repository (CC BY-NC 4.0): it is read from
../shared/bench/locomo-dev (or --data DIR), one JSON file per conversation.

Usage:
  python3 tools/bench-locomo.py [--data DIR] [--k 1,5,10] [--bin PATH]
      [--peer] [--no-timestamps] [--json FILE|-] [--misses FILE]

  --peer     also rank with rank_bm25's Okapi BM25 (pip install rank-bm25) over
             the same turns, lowercased words without stop words.
  --misses   write every question whose evidence is not all in the top 5,
             with what came back instead (for studying failures).
Prints R@k overall and per category (1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop, as the issue names them) and the median latency of a search.
"""

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DATA = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "bench", "locomo-dev"))
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open", 4: "single-hop"}
MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august",
     "september", "october", "november", "december"], 1)}


def session_time(text):
    """'1:56 pm on 8 May, 2023' -> RFC 3339 (UTC), or None."""
    m = re.match(r"\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+(\w+),?\s+(\d{4})", text or "", re.I)
    if not m:
        return None
    hour, minute, half, day, month, year = m.groups()
    hour = int(hour) % 12 + (12 if half.lower() == "pm" else 0)
    month = MONTHS.get(month.lower())
    if not month:
        return None
    return datetime.datetime(int(year), month, int(day), hour, int(minute)).strftime("%Y-%m-%dT%H:%M:%SZ")


def sessions(conv):
    """(number, date text, turns) for each session, in order."""
    out = []
    for key, value in conv.items():
        m = re.fullmatch(r"session_(\d+)", key)
        if m and isinstance(value, list):
            out.append((int(m.group(1)), conv.get(f"{key}_date_time", ""), value))
    return sorted(out)


def content_of(turn):
    text = f"{turn['speaker']}: {turn['text']}"
    if turn.get("blip_caption"):
        text += f" [shares a photo: {turn['blip_caption']}]"
    return text


def evidence_ids(qa):
    ids = []
    for e in qa.get("evidence", []):
        ids.extend(part.strip() for part in str(e).split(";") if part.strip())
    return ids


def questions(data):
    return [q for q in data["qa"] if q.get("category") in CATEGORIES]


def run(args, argv, env, stdin=None):
    p = subprocess.run([args.bin, *argv, "--format", "json"], input=stdin, capture_output=True,
                       text=True, env=env)
    if p.returncode != 0:
        sys.exit(f"bench-locomo: agentbox {' '.join(argv[:2])} failed ({p.returncode}): {p.stderr[:400]}")
    return json.loads(p.stdout)


def agentbox_rankings(args, data, tmp):
    """{question index: [dia_id...] best first} and the search latencies."""
    conv = data.get("conversation", data)
    speaker_a = conv["speaker_a"]
    env = dict(os.environ, AGENTBOX_NOW="2030-01-01T00:00:00Z")
    env.pop("AGENTBOX_HOME", None)
    subprocess.run([args.bin, "init", tmp, "--format", "json"], check=True, capture_output=True, env=env)
    env["AGENTBOX_HOME"] = os.path.join(tmp, ".agent")
    by_id = {}
    for number, date, turns in sessions(conv):
        stamp = None if args.no_timestamps else session_time(date)
        messages = []
        for t in turns:
            m = {"role": "user" if t["speaker"] == speaker_a else "assistant", "content": content_of(t)}
            if stamp:
                m["timestamp"] = stamp
            messages.append(m)
        doc = {"sessionKey": f"session-{number}", "messages": messages}
        out = run(args, ["track", "record", "--messages", "-", "--flush"], env, json.dumps(doc))
        for t, turn_id in zip(turns, out["data"]["ids"]):
            by_id[turn_id] = t["dia_id"]
    ranked, latency = {}, []
    for i, qa in enumerate(questions(data)):
        start = time.perf_counter()
        out = run(args, ["search", "--kind", "turn", "--limit", str(max(args.ks)), "--", qa["question"]], env)
        latency.append(time.perf_counter() - start)
        ranked[i] = [by_id.get(h["id"], "?") for h in out["data"]["hits"]]
    return ranked, latency


STOP = set("""a about above after again all am an and any are as at be been before being below between
both but by can could did do does doing down during each few for from further had has have having he her
here hers him his how i if in into is it its itself just me might more most must my myself no nor not now
of off on once only or other our ours out over own same she should so some such than that the their theirs
them then there these they this those through to too under until up us very was we were what when where
which while who whom why will with would you your yours""".split())


def words(text):
    return [w for w in re.findall(r"\w+", text.lower()) if w not in STOP]


def peer_rankings(data):
    from rank_bm25 import BM25Okapi
    conv = data.get("conversation", data)
    docs, ids = [], []
    for _, _, turns in sessions(conv):
        for t in turns:
            docs.append(words(content_of(t)) or ["_"])
            ids.append(t["dia_id"])
    bm25 = BM25Okapi(docs)
    ranked = {}
    for i, qa in enumerate(questions(data)):
        scores = bm25.get_scores(words(qa["question"]))
        order = sorted(range(len(ids)), key=lambda j: -scores[j])[:10]
        ranked[i] = [ids[j] for j in order]
    return ranked


def score(files, rankings, ks):
    """{'all': {k: recall}, category: {...}, 'questions': n}."""
    per = {c: {k: [] for k in ks} for c in ["all", *CATEGORIES]}
    for name, data in files:
        for i, qa in enumerate(questions(data)):
            wanted = evidence_ids(qa)
            if not wanted:
                continue
            got = rankings[name][i]
            for k in ks:
                hit = sum(1 for e in wanted if e in got[:k]) / len(wanted)
                per["all"][k].append(hit)
                per[qa["category"]][k].append(hit)
    out = {"questions": len(per["all"][ks[0]])}
    for c, by_k in per.items():
        out[str(c)] = {k: round(100 * statistics.mean(v), 1) if v else None for k, v in by_k.items()}
    return out


def table(label, s, ks, latency=None):
    cats = " / ".join(f"{s[str(c)][5] if 5 in ks else '-'}" for c in CATEGORIES)
    cols = " | ".join(f"{s['all'][k]}" for k in ks)
    lat = f" | {latency:.1f} ms" if latency is not None else " | -"
    print(f"| {label} | {cols} | {cats}{lat} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=DEFAULT_DATA)
    ap.add_argument("--k", default="1,5,10")
    ap.add_argument("--bin", default=os.environ.get("AGENTBOX_BIN", os.path.join(HERE, "..", "target", "release", "agentbox")))
    ap.add_argument("--peer", action="store_true")
    ap.add_argument("--no-timestamps", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--misses")
    args = ap.parse_args()
    ks = args.ks = sorted({int(k) for k in args.k.split(",")})
    if not os.path.isdir(args.data):
        sys.exit(f"bench-locomo: no LoCoMo data at {args.data}: pass --data DIR "
                 "(a folder of LoCoMo conversation JSON files, e.g. ../shared/bench/locomo-dev)")
    names = sorted(f for f in os.listdir(args.data) if f.endswith(".json"))
    if not names:
        sys.exit(f"bench-locomo: {args.data} holds no .json conversation files")
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"bench-locomo: no agentbox binary at {args.bin}: build it (cargo build --release) or pass --bin")
    files = []
    for n in names:
        with open(os.path.join(args.data, n)) as f:
            files.append((n, json.load(f)))
    ours, latency = {}, []
    for name, data in files:
        with tempfile.TemporaryDirectory(prefix="locomo-") as tmp:
            ranked, lat = agentbox_rankings(args, data, tmp)
        ours[name] = ranked
        latency.extend(lat)
    result = {"data": args.data, "conversations": names,
              "agentbox": score(files, ours, ks),
              "agentbox_p50_ms": round(1000 * statistics.median(latency), 2)}
    if args.peer:
        try:
            peer = {name: peer_rankings(data) for name, data in files}
        except ImportError:
            sys.exit("bench-locomo: --peer needs rank_bm25 (pip install rank-bm25)")
        result["rank_bm25"] = score(files, peer, ks)
    turns = sum(len(t) for _, d in files for _, _, t in sessions(d.get("conversation", d)))
    print(f"LoCoMo {', '.join(names)}: {turns} turns, {result['agentbox']['questions']} questions")
    print(f"| system | {' | '.join(f'R@{k}' for k in ks)} | R@5 multi-hop / temporal / open / single-hop | search p50 (whole call) |")
    print("| --- |" + " --- |" * (len(ks) + 2))
    table("agentbox", result["agentbox"], ks, 1000 * statistics.median(latency))
    if args.peer:
        table("rank_bm25 Okapi", result["rank_bm25"], ks)
    if args.misses:
        with open(args.misses, "w") as f:
            for name, data in files:
                turns = {t["dia_id"]: content_of(t) for _, _, ts in sessions(data.get("conversation", data)) for t in ts}
                for i, qa in enumerate(questions(data)):
                    wanted = evidence_ids(qa)
                    got = ours[name][i][:5]
                    if all(e in got for e in wanted):
                        continue
                    f.write(json.dumps({"file": name, "category": qa["category"], "question": qa["question"],
                                        "missed": {e: turns.get(e) for e in wanted if e not in got},
                                        "got": [turns.get(g) for g in got]}) + "\n")
    if args.json:
        text = json.dumps(result, indent=2)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w") as f:
                f.write(text + "\n")


if __name__ == "__main__":
    main()
