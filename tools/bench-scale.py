#!/usr/bin/env python3
"""Scale benchmark of issue 11: homes of 10k / 100k / 1M turns, side by side
with `grep` and a plain-JSONL Python MCP peer (tools/jsonl-peer.py), in one run.

Data: turns drawn from a Zipf-distributed 20,000-word vocabulary (seeded,
deterministic; 124 English stop words and 133 technical words at the top
ranks, invented words below), 8-24 words for a user turn and 12-40 for an
assistant turn, episodes of 100-400 turns in 20 sessions (a few busy, most
quiet). 20 rare invented word pairs are planted: each pair's target turn holds
a rare word and a mid-frequency word, 8 decoy turns hold the rare word alone,
at random places among all the turns.

Per size, in one run:
  ingest       durable ingest through batched `mem_save_turn` (100 messages a
               call, `flush: true` closing each episode) into one running
               `memory_mcp`, turns/s, with --window calls in flight (default
               8: the host pipelines, the server group-commits; 1: each call
               waits for the previous reply). Sizes above --slice (default
               100,000) get their first N - slice turns written as closed
               episode files and indexed with `agentbox reindex`; only the last
               --slice turns go through mem_save_turn (the table says so).
  peer         the same batches, same window, into tools/jsonl-peer.py
               (official MCP Python SDK when installed: plain JSONL, no
               fsync), turns/s; its mem_search (a scan of the file) p50/p95
               over a subsample of the queries at the larger sizes (the table
               says how many).
  grep         `grep -rci WORD HOME` median over 20 query words.
  mem_search / mem_context p50/p95 over 200 two-word queries (mixed
               frequencies) in ONE freshly started server; its VmHWM after.
               Then, in the same server, the same over the moderate mix
               (below), reported on rows of their own.
  CLI          `agentbox search Q` and `.agent/tools/track search Q` whole
               process medians of 30 queries x 3 (posix_spawn), the two
               taking turns, after a first pass of `agentbox search`
               reported on its own row with the disk reads it made (a host
               that drops cold pages from its cache makes that pass read the
               index); the 30 queries filtered by a mid-size session, and
               stop words ("the and") in the busiest one; `memory_mcp`
               ready (spawn -> initialize -> first mem_search answered)
               median of 10.
  reindex      `agentbox reindex` of the whole home; index size (search.db +
               -wal) against the bytes of the episode files.
  record       single `track record` median; `plan list` against /bin/true.
  agreement    mem_search's top 5 against FTS5's exhaustive bm25() ranking
               of the same queries (Python's sqlite3 on the index, with
               agentbox's recency re-rank): ids shared, lists identical;
               for each mix.

The two query mixes (--queries of each, seeded):
  mixed        each word drawn from the frequent (vocabulary ranks 125-1,000),
               middle (1,000-5,000) or rare (5,000-20,000) band: some queries
               match tens of thousands of turns, some a handful.
  moderate     issue 30's "two-word queries of moderately common words": both
               words moderately common, i.e. held by 0.5-5 % of the turns
               (--moderate-band 0.5,5), two distinct words drawn uniformly
               from that pool. A word's share is its expected document
               frequency under the generator, 1 - mean over the turn
               lengths of (1 - p)^length (p: its Zipf probability; user
               turns 8-24 words, assistant 12-40, alternating), computed
               here so that the pool is the same at every size; agentbox's
               stop words are left out (a query drops them). With the
               defaults the pool is 272 words (ranks 47-359: "said", "time",
               ..., the technical words, invented words down to 0.50 %), a
               median share of 0.83 %: at 1M each word is in ~5k-43k turns,
               above the ranker's budget of postings read in full (4,000),
               at 100k in ~500-4,300. The share measured in the index (FTS5,
               after stemming) is reported beside the figures.
  relevance    the 20 planted pairs as queries: target in mem_search's top 5.
At the largest size only, with --crash and/or --concurrency:
  crash        pipelined mem_save_turn batches, SIGKILL mid-stream: every turn
               acknowledged `saved` must be in the episode files exactly once
               and found by `agentbox search` (no reindex in between).
  concurrency  32 processes each `track record` 10 turns at once: every turn
               present exactly once, none broken, a sample found by search.

Usage:
  python3 tools/bench-scale.py [--sizes 10000,100000,1000000] [--quick]
      [--bin PATH (default target/release/agentbox, or $AGENTBOX_BIN)]
      [--crash] [--concurrency] [--json FILE|-] [--slice 100000] [--queries 200] [--window 8]
      [--peer-mode sdk|raw] [--workdir DIR] [--keep] [--moderate-band 0.5,5]
  python3 tools/bench-scale.py --merge RUN1.json RUN2.json ...   (one table of the ranges)
Targets (issue 11, at 1M turns): mem_search/mem_context p50 <= 1 ms, p95 <= 3 ms;
CLI search <= 3 ms; ready <= 50 ms; ingest >= 30k turns/s; track record
<= 3 ms; reindex <= 60 s; index <= 1.5x text; RSS <= 30 MB; plan list <= 2x
/bin/true. Homes live in a temp folder and are deleted (1M turns: 375 MB of
episode files and a 540 MB index).
"""

import argparse
import collections
import datetime
import importlib.util
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOW = "2026-03-01T12:00:00Z"
NOW_EPOCH = 1772366400  # NOW as a Unix time
SESSIONS = [f"s{i:02d}" for i in range(20)]
PAIRS = 20
DECOYS = 8

STOP = """the of and to a in is it you that he was for on are with as i his they be at one have
this from or had by not word but what some we can out other were all there when up use your how
said an each she which do their time if will way about many then them write would like so these
her long make thing see him two has look more day could go come did number sound no most people my
over know water than call first who may down side been now find any new part take get place made
live where after back little only round man year came show every good me give our under""".split()
TECH = """build test deploy fix error file code run commit branch merge review config server client
request response cache index query database table schema migration release version package module
function method class type value string list map key token user session log debug trace metric
latency timeout retry queue worker job task plan step issue bug patch feature flag docs readme api
endpoint route handler middleware auth login password secret env variable path folder script shell
command flag option argument parser lexer compiler linker binary image container cluster node pod
service network socket port host domain dns proxy tls certificate key vault backup restore snapshot
disk memory cpu thread lock mutex channel async await future promise stream buffer byte frame packet
event hook callback plugin extension theme style layout page form button input output render template
""".split()
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "be", "da", "fo", "gu", "ha", "ji", "ko",
             "li", "ma", "no", "pe", "ri", "su", "ta", "ve", "wo", "ya", "ze", "bri", "cla", "dro",
             "fen", "gar", "hol", "kin", "lor", "mun", "nes", "pol", "ran", "sel", "tor", "vak", "wen"]
RARE_SYLLABLES = ["qu", "xo", "zy", "qe", "xa", "zu", "qi", "xe"]


def vocabulary(rng, size=20_000):
    words, seen = [], set()
    for w in STOP + TECH:
        if w not in seen:
            seen.add(w)
            words.append(w)
    while len(words) < size:
        w = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3, 3, 4))))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


class Corpus:
    """The deterministic turn stream of one size, with the planted pairs."""

    def __init__(self, turns, seed=11):
        self.turns = turns
        rng = random.Random(seed)
        self.vocab = vocabulary(random.Random(5))
        weights, total = [], 0.0
        for rank in range(1, len(self.vocab) + 1):
            total += 1.0 / rank ** 1.07
            weights.append(total)
        self.cum = weights
        n_stop = len(set(STOP))
        self.bands = [(n_stop, 1000), (1000, 5000), (5000, len(self.vocab))]
        rare = set()
        while len(rare) < PAIRS:
            w = "".join(rng.choice(RARE_SYLLABLES) for _ in range(4))
            if w not in self.vocab:
                rare.add(w)
        self.pairs = [(r, self.vocab[rng.randrange(200, 2000)]) for r in sorted(rare)]
        spots = rng.sample(range(turns), min(turns, PAIRS * (DECOYS + 1)))
        self.planted = {}  # global turn index -> (pair index, is target)
        for i in range(PAIRS):
            chunk = spots[i * (DECOYS + 1):(i + 1) * (DECOYS + 1)]
            for j, g in enumerate(chunk):
                self.planted[g] = (i, j == 0)
        self.seed = seed

    def text(self, rng, role):
        n = rng.randint(8, 24) if role == "user" else rng.randint(12, 40)
        return rng.choices(self.vocab, cum_weights=self.cum, k=n)

    def episodes(self):
        """Yields (session, [(global index, role, content), ...]) for every episode."""
        rng = random.Random(self.seed + 1)
        g = 0
        session_weights = [1.0 / (i + 1) for i in range(len(SESSIONS))]
        while g < self.turns:
            session = rng.choices(SESSIONS, weights=session_weights)[0]
            length = min(rng.choice((100, 200, 300, 400)), self.turns - g)
            turns = []
            for k in range(length):
                role = "user" if k % 2 == 0 else "assistant"
                words = self.text(rng, role)
                plant = self.planted.get(g)
                if plant:
                    rare, common = self.pairs[plant[0]]
                    words = [w for w in words if w != common]
                    words.insert(rng.randrange(len(words) + 1), rare)
                    if plant[1]:
                        words.insert(rng.randrange(len(words) + 1), common)
                turns.append((g, role, " ".join(words).capitalize() + "."))
                g += 1
            yield session, turns

    def share(self, rank):
        """The expected share of turns that hold the word of vocabulary rank `rank` (1-based)."""
        p = (self.cum[rank - 1] - (self.cum[rank - 2] if rank > 1 else 0.0)) / self.cum[-1]
        shares = []
        for lengths in (range(8, 25), range(12, 41)):  # user, assistant turns, alternating
            shares.append(sum(1 - (1 - p) ** n for n in lengths) / len(lengths))
        return sum(shares) / len(shares)

    def moderate_pool(self, band=(0.005, 0.05)):
        """The moderately common words: expected share of turns within `band`, not a stop word."""
        lo, hi = band
        return [w for rank, w in enumerate(self.vocab, 1)
                if w not in STOP_WORDS and lo <= self.share(rank) <= hi]

    def moderate_queries(self, count, band=(0.005, 0.05), seed=4):
        """`count` two-word queries, both words moderately common (see the module's docstring)."""
        rng = random.Random(seed)
        pool = self.moderate_pool(band)
        return [" ".join(rng.sample(pool, 2)) for _ in range(count)]

    def queries(self, count, seed=3):
        rng = random.Random(seed)
        out = []
        for _ in range(count):
            words = []
            while len(words) < 2:
                lo, hi = rng.choice(self.bands)
                w = self.vocab[rng.randrange(lo, hi)]
                if w not in words:
                    words.append(w)
            out.append(" ".join(words))
        return out


# ---------------------------------------------------------------- processes

class Rpc:
    """An MCP client over stdio, one message a line. `call` waits for its reply; `send` and `receive`
    pipeline (several requests in flight, replies matched by id, in whatever order they come)."""

    def __init__(self, argv, env):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
        self.next_id = 0
        self.early = {}  # replies read while waiting for another one, by id
        self.call("initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                 "clientInfo": {"name": "bench-scale", "version": "0"}})
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")

    def send(self, method, params):
        """Sends a request without waiting; its id."""
        self.next_id += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                                          "params": params}) + "\n")
        return self.next_id

    def receive(self, want, method="the request"):
        """The result of request `want` (replies to other requests read meanwhile are kept)."""
        while want not in self.early:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit(f"server closed its stdout during {method}")
            reply = json.loads(line)
            self.early[reply.get("id")] = reply
        reply = self.early.pop(want)
        if "error" in reply or reply.get("result", {}).get("isError"):
            sys.exit(f"mcp error on {method}: {json.dumps(reply)[:500]}")
        return reply["result"]

    def call(self, method, params):
        return self.receive(self.send(method, params), method)

    def tool(self, name, arguments):
        return self.call("tools/call", {"name": name, "arguments": arguments})["content"][0]["text"]

    def hwm_mb(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def launcher(env):
    actions = [(os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, "/dev/null", os.O_WRONLY, 0),
               (os.POSIX_SPAWN_OPEN, 2, "/dev/null", os.O_WRONLY, 0)]

    def launch(argv, ok=(0,)):
        start = time.perf_counter_ns()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        ms = (time.perf_counter_ns() - start) / 1e6
        code = os.waitstatus_to_exitcode(status)
        if code not in ok:
            sys.exit(f"exit {code}: {' '.join(argv)}")
        launch.read_kb += usage.ru_inblock / 2  # 512-byte blocks read from the disk
        return ms

    launch.read_kb = 0
    return launch


def pct(values, p):
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


def log(message):
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def flush_disk():
    """Writes every dirty page to disk (sync) before a timed phase: the
    setup's bulk writes (the episode files and a reindex, ~800 MB at 1M)
    would otherwise be flushed by the kernel ~30 s later, in the middle of
    whatever is being timed then, and take the two cores' time from it."""
    os.sync()


def du(folder, suffix):
    total = 0
    for dirpath, _, files in os.walk(folder):
        for name in files:
            if name.endswith(suffix):
                total += os.path.getsize(os.path.join(dirpath, name))
    return total


def search_ids(text):
    return re.findall(r"^\d+\. `([^`]+)`", text, re.M)


# agentbox's stop words (src/search/query.rs), to turn a query into the
# same FTS5 expression here.
STOP_WORDS = set("""a about above after again all am an and any are as at be been before being below between
both but by can could did do does doing down during each few for from further had has have having he her here
hers him his how i if in into is it its itself just me might more most must my myself no nor not now of off on
once only or other our ours out over own please same she should so some such than that the their theirs them
then there these they this those through to too under until up us very was we were what when where which while
who whom why will with would you your yours yourself tell know remember recall ever also get got use used using
way ways thing things like want need s t d ll re ve m don doesn didn""".split())


def exhaustive_top(db, query, limit=5):
    """The ids `mem_search` would return if FTS5's bm25() scored every match:
    its best 40, then agentbox's re-rank (recency: +20 % for the newest,
    halving every 30 days; all bench documents are turns, boost 1)."""
    words = [w for w in re.split(r"[^0-9a-z]+", query.lower()) if w]
    terms = list(dict.fromkeys(w for w in words if w not in STOP_WORDS)) or list(dict.fromkeys(words))
    expr = " OR ".join(f'"{t}"' for t in terms[:32])
    best = db.execute("SELECT rowid, -bm25(fts, 2.0, 1.0, 1.5) AS s FROM fts WHERE fts MATCH ? "
                      "ORDER BY s DESC LIMIT 40", (expr,)).fetchall()
    rows = []
    for rowid, score in best:
        doc = db.execute("SELECT id, date FROM docs WHERE rowid = ?", (rowid,)).fetchone()
        if doc:
            rows.append((doc[0], doc[1], score))
    if not rows:
        return []
    parse = lambda d: datetime.datetime.fromisoformat(d.replace("Z", "+00:00"))
    newest = max(parse(d) for _, d, _ in rows)
    ranked = []
    for doc_id, date, score in rows:
        days = max((newest - parse(date)).total_seconds(), 0) / 86400
        ranked.append((score * (1 + 0.2 * 0.5 ** (days / 30)), date, doc_id))
    ranked.sort(key=lambda r: (r[0], r[1]), reverse=True)
    return [doc_id for _, _, doc_id in ranked[:limit]]


def agreement(home, queries, found):
    """How many of `mem_search`'s top-5 ids the exhaustive ranking shares."""
    db = sqlite3.connect(f"file:{os.path.join(home, 'index', 'search.db')}?mode=ro", uri=True)
    shared = total = same = 0
    for q, ids in zip(queries, found):
        want = exhaustive_top(db, q)
        shared += len(set(want) & set(ids))
        total += len(want)
        same += want == ids
    db.close()
    return shared, total, same, len(queries)


def measured_shares(home, queries):
    """The share of the documents that hold each word of `queries`, as FTS5 counts them (after
    stemming): (min, median, max) in percent."""
    db = sqlite3.connect(f"file:{os.path.join(home, 'index', 'search.db')}?mode=ro", uri=True)
    total = db.execute("SELECT count(*) FROM docs").fetchone()[0]
    words = sorted({w for q in queries for w in q.split()})
    shares = [100 * db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?", (f'"{w}"',)).fetchone()[0]
              / max(1, total) for w in words]
    db.close()
    return min(shares), statistics.median(shares), max(shares)


def episode_turns(home, sessions=None):
    """Every turn line of the home's episode files: (id, content, path), and broken lines."""
    turns, broken = [], 0
    root = os.path.join(home, "memory", "episodes")
    for session in sorted(os.listdir(root)):
        if sessions is not None and session not in sessions:
            continue
        folder = os.path.join(root, session)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".jsonl"):
                continue
            with open(os.path.join(folder, name), "rb") as f:
                for line in f:
                    try:
                        turn = json.loads(line)
                        turns.append((turn["id"], turn["content"], name))
                    except (ValueError, KeyError):
                        broken += 1
    return turns, broken


# ---------------------------------------------------------------- one size

def write_direct(home, peer_file, corpus, episodes, target_ids):
    """Writes episodes as closed episode files (and the peer's JSONL), untimed."""
    year = 365 * 86400
    per_turn = year / max(1, corpus.turns)
    base = NOW_EPOCH - year
    with open(peer_file, "w") as peer:
        for e, (session, turns) in enumerate(episodes):
            t0 = base + turns[0][0] * per_turn
            episode = time.strftime("ep-%Y%m%dT%H%M%SZ", time.gmtime(t0)) + f"-{e + 1}"
            folder = os.path.join(home, "memory", "episodes", session)
            os.makedirs(folder, exist_ok=True)
            lines, peer_lines = [], []
            for seq, (g, role, content) in enumerate(turns, 1):
                turn_id = f"{episode}#{seq}"
                if g in corpus.planted and corpus.planted[g][1]:
                    target_ids[corpus.planted[g][0]] = turn_id
                ts = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(base + g * per_turn))
                lines.append(json.dumps({
                    "schema": "agentbox.turn/v1", "id": turn_id, "session": session, "episode": episode,
                    "seq": seq, "ts": ts, "role": role, "content": content, "tool_calls": [],
                    "tool_call_id": None, "source": "import"}))
                peer_lines.append(json.dumps({"id": f"{session}#{g}", "session": session, "seq": g,
                                              "role": role, "content": content}))
            with open(os.path.join(folder, episode + ".jsonl"), "w") as f:
                f.write("\n".join(lines) + "\n")
            peer.write("\n".join(peer_lines) + "\n")


def batches_of(episodes):
    for session, turns in episodes:
        for i in range(0, len(turns), 100):
            chunk = turns[i:i + 100]
            yield session, chunk, i + 100 >= len(turns)


def ingest(rpc, batches, corpus, target_ids, with_flush, window=1):
    """Sends the batches as `mem_save_turn` calls with up to `window` of them in flight (1: each waits
    for the previous reply); every reply must say saved. Turns and seconds."""
    start = time.perf_counter()
    count = 0
    in_flight = collections.deque()  # (request id, chunk)

    def settle():
        request, chunk = in_flight.popleft()
        reply = json.loads(rpc.receive(request, "mem_save_turn")["content"][0]["text"])
        if reply.get("status") != "saved" or len(reply.get("ids", [])) != len(chunk):
            sys.exit(f"mem_save_turn did not save: {json.dumps(reply)[:300]}")
        for (g, _, _), turn_id in zip(chunk, reply["ids"]):
            if g in corpus.planted and corpus.planted[g][1]:
                target_ids[corpus.planted[g][0]] = turn_id
        return len(chunk)

    for session, chunk, last in batches:
        args = {"sessionKey": session, "messages": [{"role": r, "content": c} for _, r, c in chunk]}
        if with_flush and last:
            args["flush"] = True
        in_flight.append((rpc.send("tools/call", {"name": "mem_save_turn", "arguments": args}), chunk))
        if len(in_flight) >= window:
            count += settle()
    while in_flight:
        count += settle()
    return count, time.perf_counter() - start


def bench_size(args, n, tmp, env):
    r = {"turns": n}
    corpus = Corpus(n)
    os.makedirs(tmp, exist_ok=True)
    subprocess.run([args.bin, "init", tmp, "--format", "json"], check=True, capture_output=True, env=env)
    home = os.path.join(tmp, ".agent")
    env = dict(env, AGENTBOX_HOME=home)
    launch = launcher(env)
    peer_file = os.path.join(tmp, "peer.jsonl")
    episodes = list(corpus.episodes()) if n <= args.slice else None
    target_ids = {}

    # the part written as files, then the part ingested through mem_save_turn
    sliced = []
    if episodes is None:
        written = 0

        def split():  # streams the first n - slice turns to the files, keeps the rest
            nonlocal written
            for session, turns in corpus.episodes():
                if written < n - args.slice:
                    written += len(turns)
                    yield session, turns
                else:
                    sliced.append((session, turns))

        t = time.perf_counter()
        write_direct(home, peer_file, corpus, split(), target_ids)
        r["write_files_s"] = time.perf_counter() - t
        r["direct_turns"] = written
        log(f"{n}: {written} turns written as files in {r['write_files_s']:.1f} s; reindex")
        out = subprocess.run([args.bin, "reindex", "--home", home, "--format", "json"], check=True,
                             capture_output=True, env=env)
        r["prefill_reindex_s"] = json.loads(out.stdout)["data"]["seconds"]
    else:
        sliced = episodes
        open(peer_file, "w").close()
        r["direct_turns"] = 0
    batches = list(batches_of(sliced))

    flush_disk()
    log(f"{n}: ingest {sum(len(c) for _, c, _ in batches)} turns through mem_save_turn")
    server = Rpc([args.bin, "memory_mcp", "--home", home], env)
    count, secs = ingest(server, batches, corpus, target_ids, True, args.window)
    r["ingest_turns"] = count
    r["ingest_window"] = args.window
    r["ingest_per_s"] = count / secs
    r["ingest_rss_mb"] = server.hwm_mb()
    server.close()

    flush_disk()
    log(f"{n}: peer ingest ({args.peer_mode})")
    peer = Rpc([sys.executable, os.path.join(ROOT, "tools", "jsonl-peer.py"), peer_file, "--mode",
                args.peer_mode], env)
    _, secs = ingest(peer, batches, corpus, {}, False, args.window)
    r["peer_ingest_per_s"] = count / secs
    queries = corpus.queries(args.queries)
    peer_n = min(len(queries), max(20, 5_000_000 // n))
    times = []
    for q in queries[:peer_n]:
        t = time.perf_counter_ns()
        peer.tool("mem_search", {"query": q, "topK": 5})
        times.append((time.perf_counter_ns() - t) / 1e6)
    r["peer_search_ms"] = (pct(times, 50), pct(times, 95))
    r["peer_queries"] = peer_n
    r["peer_rss_mb"] = peer.hwm_mb()
    peer.close()
    r["peer_file_bytes"] = os.path.getsize(peer_file)
    os.remove(peer_file)

    index = os.path.join(home, "index", "search.db")
    r["index_after_ingest_bytes"] = sum(os.path.getsize(p) for p in (index, index + "-wal") if os.path.exists(p))
    flush_disk()
    log(f"{n}: {len(queries)} mem_search + mem_context in one server")
    server = Rpc([args.bin, "memory_mcp", "--home", home], env)
    moderate = corpus.moderate_queries(args.queries, args.moderate_band)
    for prefix, mix in (("", queries), ("moderate_", moderate)):
        found = []
        for name in ("mem_search", "mem_context"):
            times, hits = [], 0
            for q in mix:
                t = time.perf_counter_ns()
                text = server.tool(name, {"query": q, "topK": 5})
                times.append((time.perf_counter_ns() - t) / 1e6)
                hits += len(search_ids(text))
                if name == "mem_search":
                    found.append(search_ids(text))
            r[f"{prefix}{name}_ms"] = (pct(times, 50), pct(times, 95))
            r[f"{prefix}{name}_hits_avg"] = hits / len(mix)
        r[f"{prefix}agreement"] = agreement(home, mix, found)
    r["moderate_share"] = measured_shares(home, moderate)
    r["server_rss_mb"] = server.hwm_mb()
    passed, failed = 0, []
    for i, (rare, common) in enumerate(corpus.pairs):
        if i not in target_ids:
            continue
        ids = search_ids(server.tool("mem_search", {"query": f"{rare} {common}", "topK": 5}))
        if target_ids[i] in ids:
            passed += 1
        else:
            failed.append(f"{rare} {common}")
    r["relevance"] = (passed, len(target_ids))
    r["relevance_failed"] = failed
    server.close()

    flush_disk()
    log(f"{n}: grep, CLI search, ready")
    grep = [launch(["/usr/bin/grep", "-rci", q.split()[0], home], ok=(0, 1)) for q in queries[:20]]
    r["grep_ms"] = statistics.median(grep)
    r["grep_min_ms"] = min(grep)
    track = os.path.join(home, "tools", "track")
    # A first pass on its own row: the host may have dropped index pages
    # from its cache since they were last read (this VM's DAMON pages out
    # what was not touched for about a minute), and a first call then reads
    # them from the disk; the disk reads are counted (`ru_inblock`).
    before = launch.read_kb
    first = [launch([args.bin, "search", q, "--format", "json", "--limit", "5"]) for q in queries[:30]]
    r["cli_first_ms"], r["cli_first_read_kb"] = statistics.median(first), launch.read_kb - before
    before = launch.read_kb
    cli_a, cli_t = [], []
    for rnd in range(3):  # 90 calls a tool: one pass of 30 moved its median by ±0.3 ms
        for i, q in enumerate(queries[:30]):
            calls = [(cli_a, args.bin), (cli_t, track)]
            for times, binary in calls if (i + rnd) % 2 == 0 else calls[::-1]:
                times.append(launch([binary, "search", q, "--format", "json", "--limit", "5"]))
    r["cli_read_kb"] = launch.read_kb - before
    r["cli_search_ms"], r["cli_search_min_ms"] = statistics.median(cli_a), min(cli_a)
    cli_m = [launch([args.bin, "search", q, "--format", "json", "--limit", "5"])
             for _ in range(3) for q in moderate[:30]]
    r["cli_moderate_ms"], r["cli_moderate_min_ms"] = statistics.median(cli_m), min(cli_m)
    r["track_search_ms"], r["track_search_min_ms"] = statistics.median(cli_t), min(cli_t)
    # Filtered: the 30 queries within a mid-size session, and the stop words
    # (in nearly every turn) within the busiest one: a filter must not make
    # a search read every match (docs/PERFORMANCE.md, "Eleventh session").
    filtered = [launch([args.bin, "search", q, "--session", SESSIONS[10], "--format", "json",
                        "--limit", "5"]) for q in queries[:30]]
    r["cli_session_ms"] = statistics.median(filtered)
    common = [launch([args.bin, "search", "the", "and", "--session", SESSIONS[0], "--format", "json",
                      "--limit", "5"]) for _ in range(5)]
    r["cli_session_common_ms"] = statistics.median(common)
    ready = []
    for q in queries[:10]:
        t = time.perf_counter_ns()
        s = Rpc([args.bin, "memory_mcp", "--home", home], env)
        s.tool("mem_search", {"query": q, "topK": 5})
        ready.append((time.perf_counter_ns() - t) / 1e6)
        s.close()
    r["ready_ms"], r["ready_min_ms"] = statistics.median(ready), min(ready)

    flush_disk()
    log(f"{n}: track record, plan list")
    record = [launch([track, "record", "--session", "bench-record", "--content",
                      f"benchmark turn {i} {queries[i]}", "--format", "json"]) for i in range(50)]
    r["track_record_ms"], r["track_record_min_ms"] = statistics.median(record), min(record)
    plan = os.path.join(home, "tools", "plan")
    true_ms, plan_ms = [], []
    for i in range(110):
        a = launch(["/bin/true"])
        b = launch([plan, "list", "--format", "json"])
        if i >= 10:
            true_ms.append(a)
            plan_ms.append(b)
    r["true_ms"], r["true_min_ms"] = statistics.median(true_ms), min(true_ms)
    r["plan_list_ms"], r["plan_list_min_ms"] = statistics.median(plan_ms), min(plan_ms)

    flush_disk()
    log(f"{n}: reindex")
    t = time.perf_counter()
    out = subprocess.run([args.bin, "reindex", "--home", home, "--format", "json"], check=True,
                         capture_output=True, env=env)
    r["reindex_s"] = time.perf_counter() - t
    r["reindex_turns"] = json.loads(out.stdout)["data"]["turns"]
    r["index_bytes"] = sum(os.path.getsize(p) for p in (index, index + "-wal") if os.path.exists(p))
    r["text_bytes"] = du(os.path.join(home, "memory", "episodes"), ".jsonl")
    return r, home


# ---------------------------------------------------------------- crash, concurrency

def crash_round(args, home, env, rng, round_no, acked):
    """One server fed pipelined batches, SIGKILLed at a random instant after some acknowledgements."""
    proc = subprocess.Popen([args.bin, "memory_mcp", "--home", home], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True, bufsize=1)
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                       "clientInfo": {"name": "bench-scale", "version": "0"}}}
    proc.stdin.write(json.dumps(init) + "\n")
    proc.stdout.readline()
    kill_after = rng.randint(10, 40)  # batches acknowledged before the kill
    delay = rng.uniform(0, 0.02)  # then this many seconds more: the kill lands anywhere in a batch
    words = random.Random(rng.random())
    sent = {}  # request id -> the texts of its messages
    count = [0]
    done = threading.Event()

    def writer():
        try:
            k = 0
            for b in range(1, 301):
                texts = [f"crash{round_no}t{k + i:06d} survives the kill {words.random():.6f}" for i in range(100)]
                k += 100
                sent[b] = texts
                messages = [{"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(texts)]
                proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": b, "method": "tools/call", "params": {
                    "name": "mem_save_turn", "arguments": {"sessionKey": "crash", "messages": messages}}}) + "\n")
        except (BrokenPipeError, OSError, ValueError):
            pass

    def reader():
        try:
            for line in proc.stdout:
                reply = json.loads(line)
                body = json.loads(reply["result"]["content"][0]["text"])
                if body.get("status") == "saved":
                    acked.extend(zip(body["ids"], sent[reply["id"]]))
                    count[0] += 1
        except (ValueError, KeyError):
            pass  # a reply line cut by the kill acknowledges nothing
        done.set()

    for target in (writer, reader):
        threading.Thread(target=target, daemon=True).start()
    while count[0] < kill_after and proc.poll() is None:
        time.sleep(0.0005)
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    done.wait(10)


def unfound_in_server(args, home, env, wanted):
    """The (id, token) pairs whose token's `mem_search` in one fresh server does not list the id."""
    server = Rpc([args.bin, "memory_mcp", "--home", home], env)
    unfound = [turn_id for turn_id, token in wanted
               if turn_id not in search_ids(server.tool("mem_search", {"query": token, "topK": 5}))]
    server.close()
    return unfound


def unfound_by_cli(args, home, env, wanted):
    """The (id, token) pairs whose `agentbox search TOKEN` (a whole process) does not list the id."""
    unfound = []
    for turn_id, token in wanted:
        out = subprocess.run([args.bin, "search", token, "--home", home, "--format", "json", "--limit", "5"],
                             capture_output=True, text=True, env=env)
        hits = [h["id"] for h in json.loads(out.stdout)["data"]["hits"]] if out.returncode == 0 else []
        if turn_id not in hits:
            unfound.append(turn_id)
    return unfound


def crash_check(args, home, env, rng, rounds=3):
    """Three servers in turn on one session, each SIGKILLed mid-stream; then every acknowledged turn
    must be in the files, once, with its text, and found by `agentbox search` (no reindex)."""
    acked = []  # (id, text) of every turn a reply acknowledged as saved
    for round_no in range(rounds):
        crash_round(args, home, env, rng, round_no, acked)
    turns, broken = episode_turns(home, {"crash"})
    seen = {}
    for turn_id, text, _ in turns:
        seen.setdefault(turn_id, []).append(text)
    missing = [i for i, text in acked if seen.get(i, [None])[0] != text]
    doubled = [i for i, texts in seen.items() if len(texts) > 1]
    # searchable on ack, without a reindex: every acknowledged turn in one server, and the last 10
    # acknowledged turns and 40 others through `agentbox search`
    wanted = [(turn_id, text.split(" ")[0]) for turn_id, text in acked]
    unfound = unfound_in_server(args, home, env, wanted)
    sample = wanted[-10:] + rng.sample(wanted[:-10], min(40, max(0, len(wanted) - 10)))
    cli_unfound = unfound_by_cli(args, home, env, sample)
    return {"rounds": rounds, "acked": len(acked), "in_files": len(turns), "broken_lines": broken,
            "missing": len(missing), "doubled": len(doubled), "server_unfound": len(unfound),
            "searched": len(sample), "unfound": len(cli_unfound),
            "ok": not missing and not doubled and not unfound and not cli_unfound and bool(acked)}


def concurrency_check(args, home, env):
    """32 processes each record 10 turns with `track record` at once."""
    writers, each = 32, 10
    track = os.path.join(home, "tools", "track")
    barrier = threading.Barrier(writers)
    failures = []

    def work(i):
        barrier.wait()
        for j in range(each):
            out = subprocess.run([track, "record", "--session", f"conc{i % 4}", "--content",
                                  f"conctok{i:02d}x{j:02d} written by writer {i}", "--format", "json"],
                                 capture_output=True, env=env)
            if out.returncode != 0:
                failures.append(out.stderr.decode(errors="replace")[:200])

    start = time.perf_counter()
    threads = [threading.Thread(target=work, args=(i,)) for i in range(writers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    secs = time.perf_counter() - start
    turns, broken = episode_turns(home, {f"conc{i}" for i in range(4)})
    counts, ids = {}, {}
    for turn_id, text, _ in turns:
        token = text.split(" ")[0]
        counts[token] = counts.get(token, 0) + 1
        ids[token] = turn_id
    expected = sorted(f"conctok{i:02d}x{j:02d}" for i in range(writers) for j in range(each))
    wrong = [t for t in expected if counts.get(t) != 1]
    # every turn through one server's mem_search, one per writer through `agentbox search`
    unfound = unfound_in_server(args, home, env, [(ids.get(t, "?"), t) for t in expected])
    cli_unfound = unfound_by_cli(args, home, env, [(ids.get(t, "?"), t) for t in expected[::each]])
    return {"writers": writers, "turns": writers * each, "seconds": secs, "failed_calls": len(failures),
            "not_exactly_once": len(wrong), "broken_lines": broken, "server_unfound": len(unfound),
            "unfound": len(cli_unfound),
            "ok": not failures and not wrong and not broken and not unfound and not cli_unfound}


# ---------------------------------------------------------------- report

def short(n):
    return f"{n // 1_000_000}M" if n >= 1_000_000 and n % 1_000_000 == 0 else (
        f"{n // 1000}k" if n % 1000 == 0 else str(n))


ROWS = [
    # (metric, values of one size's figures, template, decimals per value, target)
    ("ingest, batched `mem_save_turn` (100 a call, W calls in flight)",
     lambda r: [r["ingest_per_s"] / 1000, r.get("ingest_window", 1)], "{0}k turns/s (W {1})", [1, 0],
     "≥ 30k turns/s"),
    ("ingest, plain-JSONL peer (no fsync; same W)",
     lambda r: [r["peer_ingest_per_s"] / 1000, r.get("ingest_window", 1)], "{0}k turns/s (W {1})", [1, 0],
     "comparison"),
    ("`mem_search` p50 / p95 (200 queries, one server)", lambda r: list(r["mem_search_ms"]), "{0} / {1} ms",
     [2, 2], "≤ 1 / 3 ms"),
    ("`mem_context` p50 / p95 (same queries)", lambda r: list(r["mem_context_ms"]), "{0} / {1} ms", [2, 2],
     "≤ 1 / 3 ms"),
    ("`mem_search` p50 / p95, moderate mix (200 queries, both words moderately common)",
     lambda r: list(r["moderate_mem_search_ms"]), "{0} / {1} ms", [2, 2], "≤ 1 / 3 ms"),
    ("`mem_context` p50 / p95, moderate mix", lambda r: list(r["moderate_mem_context_ms"]), "{0} / {1} ms",
     [2, 2], "≤ 1 / 3 ms"),
    ("moderate mix: share of turns holding a word in the index, min / median / max",
     lambda r: list(r["moderate_share"]), "{0} / {1} / {2} %", [2, 2, 2], ""),
    ("hits per query, `mem_search` topK 5 (average)", lambda r: [r["mem_search_hits_avg"]], "{0}", [2], ""),
    ("peer `mem_search` p50 / p95 (a scan; queries timed)",
     lambda r: list(r["peer_search_ms"]) + [r["peer_queries"]], "{0} / {1} ms ({2})", [1, 1, 0], "comparison"),
    ("`grep -rci WORD` over the home, median (min) of 20", lambda r: [r["grep_ms"], r["grep_min_ms"]],
     "{0} ({1}) ms", [1, 1], "comparison"),
    ("`agentbox search Q`, first call of each of the 30 (disk reads in all)",
     lambda r: [r["cli_first_ms"], r["cli_first_read_kb"]], "{0} ms ({1} KB)", [2, 0], "comparison"),
    ("`agentbox search Q`, whole process, median (min) of 30 queries × 3",
     lambda r: [r["cli_search_ms"], r["cli_search_min_ms"]], "{0} ({1}) ms", [2, 2], "≤ 3 ms"),
    ("`track search Q`, whole process, median (min) of 30 queries × 3",
     lambda r: [r["track_search_ms"], r["track_search_min_ms"]], "{0} ({1}) ms", [2, 2], "≤ 3 ms"),
    ("`agentbox search Q`, moderate mix, median (min) of 30 queries × 3",
     lambda r: [r["cli_moderate_ms"], r["cli_moderate_min_ms"]], "{0} ({1}) ms", [2, 2], "≤ 3 ms"),
    ("disk reads during those 180 timed calls", lambda r: [r["cli_read_kb"]], "{0} KB", [0], ""),
    ("`agentbox search Q --session s10`, median of the 30 queries; `the and --session s00`, of 5",
     lambda r: [r["cli_session_ms"], r["cli_session_common_ms"]], "{0} ms; {1} ms", [2, 2], "comparison"),
    ("`memory_mcp` ready (spawn → first `mem_search`), median (min) of 10",
     lambda r: [r["ready_ms"], r["ready_min_ms"]], "{0} ({1}) ms", [1, 1], "≤ 50 ms"),
    ("`agentbox reindex` (whole home)", lambda r: [r["reindex_s"]], "{0} s", [2], "≤ 60 s at 1M"),
    ("index (search.db + -wal) / episode text, after reindex",
     lambda r: [r["index_bytes"] / 1e6, r["text_bytes"] / 1e6, r["index_bytes"] / r["text_bytes"]],
     "{0} / {1} MB = {2}×", [0, 0, 2], "≤ 1.5×"),
    ("index after the ingest, before the reindex", lambda r: [r["index_after_ingest_bytes"] / 1e6], "{0} MB",
     [0], ""),
    ("server VmHWM after the queries", lambda r: [r["server_rss_mb"]], "{0} MB", [1], "≤ 30 MB"),
    ("server VmHWM after the ingest", lambda r: [r["ingest_rss_mb"]], "{0} MB", [1], ""),
    ("peer VmHWM (after its ingest and searches)", lambda r: [r["peer_rss_mb"]], "{0} MB", [1], "comparison"),
    ("single `track record`, median (min) of 50", lambda r: [r["track_record_ms"], r["track_record_min_ms"]],
     "{0} ({1}) ms", [2, 2], "≤ 3 ms"),
    ("`plan list` / `/bin/true`, medians of 100 (ratio of the mins)",
     lambda r: [r["plan_list_ms"], r["true_ms"], r["plan_list_ms"] / r["true_ms"],
                r["plan_list_min_ms"] / r["true_min_ms"]], "{0} / {1} ms = {2}× ({3}×)", [2, 2, 1, 1], "≤ 2×"),
    ("`mem_search` top 5 shared with FTS5's exhaustive bm25() ranking (identical lists)",
     lambda r: list(r["agreement"]), "{0}/{1} ({2}/{3})", [0, 0, 0, 0], "relevance unchanged"),
    ("the same, moderate mix", lambda r: list(r["moderate_agreement"]), "{0}/{1} ({2}/{3})", [0, 0, 0, 0],
     "relevance unchanged"),
    ("relevance: planted pairs in `mem_search` top 5 (all must)", lambda r: list(r["relevance"]), "{0}/{1}", [0, 0],
     "all pass"),
]


def cell(runs, values, template, decimals):
    """One table cell: each value, or its range over several runs."""
    rows = []
    for r in runs:
        try:
            rows.append(values(r))
        except (KeyError, TypeError, ZeroDivisionError):
            pass  # a figure this run did not measure (an older --json file)
    if not rows:
        return "–"
    columns = list(zip(*rows))
    parts = []
    for column, d in zip(columns, decimals):
        lo, hi = f"{min(column):,.{d}f}", f"{max(column):,.{d}f}"
        parts.append(lo if lo == hi else f"{lo}–{hi}")
    return template.format(*parts)


def found(check, total):
    if "server_unfound" not in check:
        return "–"  # an older --json file
    return f"{total - check['server_unfound']:,}/{total:,}"


def table(runs, extras):
    """Markdown: one column per size; with several runs, each cell is the range over them."""
    sizes = sorted({r["turns"] for run in runs for r in run})
    by_size = [[r for run in runs for r in run if r["turns"] == n] for n in sizes]
    head = "| metric | " + " | ".join(short(n) for n in sizes) + " | target |\n|---|" + "---:|" * len(sizes) + "---|"
    out = [head]
    out.append("| turns through `mem_save_turn` (the rest: episode files + reindex) | " + " | ".join(
        f"{rs[0]['ingest_turns']:,}" + (f" (+{rs[0]['direct_turns']:,})" if rs[0]["direct_turns"] else "")
        for rs in by_size) + " |  |")
    for name, values, template, decimals, target in ROWS:
        out.append(f"| {name} | " + " | ".join(cell(rs, values, template, decimals) for rs in by_size)
                   + f" | {target} |")
    for i, extra in enumerate(extras):
        run = f"run {i + 1}, " if len(extras) > 1 else ""
        if "crash" in extra:
            c = extra["crash"]
            home = short(c.get("home_turns", sizes[-1]))
            out.append(f"\n- crash ({run}{home}): {c.get('rounds', 1)} server(s) in turn on one session, "
                       f"each SIGKILLed mid-stream; {c['acked']:,} turns acknowledged `saved`, "
                       f"{c['in_files']:,} in the files, "
                       f"{c['missing']} acknowledged missing or changed, {c['doubled']} doubled, "
                       f"{c['broken_lines']} torn lines; without a reindex, {found(c, c['acked'])} found by "
                       f"`mem_search` in a new server and {c['searched'] - c['unfound']}/{c['searched']} by "
                       f"`agentbox search`: **{'pass' if c['ok'] else 'FAIL'}**")
        if "concurrency" in extra:
            c = extra["concurrency"]
            home = short(c.get("home_turns", sizes[-1]))
            out.append(f"- concurrency ({run}{home}): {c['writers']} `track record` processes × 10 turns at once "
                       f"in {c['seconds']:.1f} s; {c['failed_calls']} failed calls, {c['not_exactly_once']} "
                       f"turns not present exactly once, {c['broken_lines']} broken lines, "
                       f"{found(c, c['turns'])} found by `mem_search` and {c['writers'] - c['unfound']}/"
                       f"{c['writers']} by `agentbox search`: **{'pass' if c['ok'] else 'FAIL'}**")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--quick", action="store_true", help="10k turns only (a smoke run)")
    ap.add_argument("--bin", default=os.environ.get("AGENTBOX_BIN", os.path.join(ROOT, "target", "release",
                                                                                 "agentbox")))
    ap.add_argument("--slice", type=int, default=100_000,
                    help="turns ingested through mem_save_turn; larger sizes get the rest as files")
    ap.add_argument("--queries", type=int, default=200, help="queries of each mix")
    ap.add_argument("--moderate-band", default="0.5,5", metavar="LO,HI",
                    help="the moderate mix: both words held by LO-HI %% of the turns")
    ap.add_argument("--window", type=int, default=8,
                    help="mem_save_turn calls in flight during the ingest (1: wait for each reply)")
    ap.add_argument("--peer-mode", choices=["sdk", "raw"], default=None)
    ap.add_argument("--crash", action="store_true", help="the SIGKILL check at the largest size")
    ap.add_argument("--concurrency", action="store_true", help="the 32-writer check at the largest size")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON (- for stdout)")
    ap.add_argument("--workdir", default=None, help="where the temp homes go (default: the system temp)")
    ap.add_argument("--keep", action="store_true", help="leave the homes (they are big)")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="measure nothing: print one table of the ranges over these --json files")
    args = ap.parse_args()
    if args.merge:
        docs = [json.load(open(path)) for path in args.merge]
        extras = [{k: d[k] for k in ("crash", "concurrency") if k in d} for d in docs]
        print(table([d["sizes"] for d in docs], extras))
        print(f"\n{len(docs)} runs; binary {docs[0]['binary']}; peer: tools/jsonl-peer.py --mode "
              f"{docs[0]['peer_mode']}")
        return
    lo, hi = (float(x) / 100 for x in args.moderate_band.split(","))
    args.moderate_band = (lo, hi)
    if args.peer_mode is None:
        args.peer_mode = "sdk" if importlib.util.find_spec("mcp") else "raw"
    sizes = [10_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"no agentbox binary at {args.bin} (pass --bin)")
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGENTBOX_")}
    env.update(AGENTBOX_NOW=NOW, TZ="UTC")
    results, extra = [], {}
    started = time.perf_counter()
    for i, n in enumerate(sizes):
        tmp = tempfile.mkdtemp(prefix=f"bench-scale-{n}-", dir=args.workdir)
        try:
            r, home = bench_size(args, n, tmp, env)
            if i == len(sizes) - 1:
                home_env = dict(env, AGENTBOX_HOME=home)
                if args.crash:
                    log(f"{n}: crash check")
                    extra["crash"] = dict(crash_check(args, home, home_env, random.Random(17)), home_turns=n)
                if args.concurrency:
                    log(f"{n}: concurrency check")
                    extra["concurrency"] = dict(concurrency_check(args, home, home_env), home_turns=n)
            results.append(r)
        finally:
            if args.keep:
                log(f"kept {tmp}")
            else:
                shutil.rmtree(tmp, ignore_errors=True)
    total = time.perf_counter() - started
    print(table([results], [extra]))
    print(f"\nbinary {args.bin}; peer: tools/jsonl-peer.py --mode {args.peer_mode}; total {total:.0f} s")
    for r in results:
        if r["relevance_failed"]:
            print(f"relevance failures at {short(r['turns'])}: {', '.join(r['relevance_failed'])}")
    if args.json:
        doc = json.dumps({"binary": args.bin, "peer_mode": args.peer_mode, "sizes": results, **extra,
                          "total_s": total}, indent=2)
        if args.json == "-":
            print(doc)
        else:
            with open(args.json, "w") as f:
                f.write(doc + "\n")
    failed = [r for r in results if r["relevance"][0] != r["relevance"][1]]
    failed += [c for c in extra.values() if not c["ok"]]
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
