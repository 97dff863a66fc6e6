#!/usr/bin/env python3
"""HTTP load benchmark for `memory_mcp --http` (issue 33).

Starts the server on 127.0.0.1 (an OS-chosen port) in a fresh temp home,
then runs N concurrent clients (threads, one keep-alive HTTP/1.1
connection each) for a fixed time. Each client loops: save one turn with
mem_save_turn, then search for it with mem_search (a reply means stored and
searchable, so the search must find the turn it just saved). The run is
bounded: clients stop at the deadline, and a watchdog kills everything if
the server stops answering.

Afterwards the server is stopped (SIGTERM) and the episode files of the
home are read back: every acknowledged turn must be stored exactly once
(no lost, no duplicated turns). Prints throughput (requests/s, turns/s) and
p50/p95 latency per operation as a markdown table for docs/PERFORMANCE.md.

Usage: python3 tools/bench-http.py [--clients 32] [--seconds 30]
       [--binary target/release/agentbox] [--era 2026-07-28|2025-11-25]
Exit status: 0 when nothing was lost, duplicated or refused; 1 otherwise.
"""

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODERN = "2026-07-28"
HANDSHAKE = "2025-11-25"
WORDS = ["harbour", "lantern", "ledger", "orchard", "quarry", "saddle", "thimble", "walrus",
         "beacon", "cobalt", "dynamo", "falcon", "granite", "hazel", "juniper", "kestrel"]


def default_binary():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.join(target, "release", "agentbox")


def pct(values, p):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[k]


class Server:
    """`agentbox memory_mcp --home HOME --http 127.0.0.1:0`, stderr drained."""

    def __init__(self, binary, home, env):
        self.proc = subprocess.Popen(
            [binary, "memory_mcp", "--home", home, "--http", "127.0.0.1:0"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            env=env, text=True)
        self.port = None
        self.stderr = []
        ready = threading.Event()

        def drain():
            for line in self.proc.stderr:
                self.stderr.append(line)
                prefix = "memory_mcp: serving http://"
                if self.port is None and line.startswith(prefix):
                    authority = line.strip()[len(prefix):].split("/mcp", 1)[0]
                    self.port = int(authority.rsplit(":", 1)[1])
                    ready.set()
            ready.set()

        threading.Thread(target=drain, daemon=True).start()
        if not ready.wait(60) or self.port is None:
            self.kill()
            sys.exit("the server did not start:\n" + "".join(self.stderr))

    def peak_rss_kb(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Client(threading.Thread):
    """One keep-alive connection: save a turn, search for it, repeat."""

    def __init__(self, index, port, era, deadline):
        super().__init__(daemon=True)
        self.index = index
        self.port = port
        self.era = era
        self.deadline = deadline
        self.latency = {"mem_save_turn": [], "mem_search": []}
        self.saved = []  # (content, id) of every acknowledged save
        self.errors = []
        self.misses = 0
        self.next_id = 0

    def call(self, conn, tool, arguments):
        self.next_id += 1
        params = {"name": tool, "arguments": arguments}
        headers = {"Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        if self.era == MODERN:
            params["_meta"] = {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "bench-http", "version": "0"},
            }
            headers.update({"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call",
                            "Mcp-Name": tool})
        else:
            headers["MCP-Protocol-Version"] = HANDSHAKE
        body = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call",
                           "params": params})
        start = time.perf_counter()
        conn.request("POST", "/mcp", body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        elapsed = (time.perf_counter() - start) * 1000
        if response.status != 200:
            raise RuntimeError(f"{tool}: HTTP {response.status}: {data[:300]!r}")
        reply = json.loads(data)
        result = reply.get("result")
        if reply.get("id") != self.next_id or not result or result.get("isError"):
            raise RuntimeError(f"{tool}: {data[:300]!r}")
        self.latency[tool].append(elapsed)
        return result["content"][0]["text"]

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        session = f"bench{self.index % 8}"
        turn = 0
        try:
            while time.monotonic() < self.deadline:
                tag = f"bench{self.index}x{turn}"
                content = (f"{tag} client {self.index} noted the {WORDS[turn % len(WORDS)]} "
                           f"and the {WORDS[(turn * 7 + self.index) % len(WORDS)]} at step {turn}")
                text = self.call(conn, "mem_save_turn", {
                    "sessionKey": session, "messages": [{"role": "user", "content": content}]})
                status = json.loads(text)
                if status.get("status") != "saved" or len(status.get("ids", [])) != 1:
                    raise RuntimeError(f"save: {text[:300]}")
                turn_id = status["ids"][0]
                self.saved.append((content, turn_id))
                found = self.call(conn, "mem_search", {"query": tag, "topK": 5})
                if turn_id not in found:
                    self.misses += 1
                turn += 1
        except Exception as e:  # noqa: BLE001 — reported, fails the run
            self.errors.append(f"client {self.index}: {e}")
        finally:
            conn.close()


def stored_contents(home):
    counts = {}
    for root, _, files in os.walk(os.path.join(home, "memory", "episodes")):
        for name in files:
            if not name.endswith(".jsonl"):
                continue
            with open(os.path.join(root, name)) as f:
                for line in f:
                    content = json.loads(line).get("content")
                    counts[content] = counts.get(content, 0) + 1
    return counts


def main():
    parser = argparse.ArgumentParser(
        description="Concurrent HTTP clients saving and searching against memory_mcp --http; "
                    "checks no turn is lost or duplicated and prints throughput and latency.")
    parser.add_argument("--clients", type=int, default=32, help="concurrent clients (default 32)")
    parser.add_argument("--seconds", type=float, default=30, help="how long they run (default 30)")
    parser.add_argument("--binary", default=default_binary(),
                        help="the agentbox binary (default: $CARGO_TARGET_DIR or target/, release)")
    parser.add_argument("--era", choices=[MODERN, HANDSHAKE], default=MODERN,
                        help="protocol era the clients speak (default 2026-07-28)")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary} is not an executable; build it: cargo build --release")

    tmp = tempfile.mkdtemp(prefix="bench-http-")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("AGENTBOX_")}
    env["CI"] = "true"
    subprocess.run([args.binary, "init"], cwd=tmp, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    home = os.path.join(tmp, ".agent")
    server = Server(args.binary, home, env)
    # the watchdog: if the clients hang (the server stops answering), end it
    watchdog = threading.Timer(args.seconds + 180, lambda: (server.kill(), os._exit(2)))
    watchdog.daemon = True
    watchdog.start()

    deadline = time.monotonic() + args.seconds
    clients = [Client(i, server.port, args.era, deadline) for i in range(args.clients)]
    started = time.perf_counter()
    for c in clients:
        c.start()
    for c in clients:
        c.join()
    wall = time.perf_counter() - started
    peak_rss = server.peak_rss_kb()
    code = server.stop()
    watchdog.cancel()

    acked = [s for c in clients for s in c.saved]
    errors = [e for c in clients for e in c.errors]
    misses = sum(c.misses for c in clients)
    counts = stored_contents(home)
    acked_contents = {content for content, _ in acked}
    lost = [c for c in acked_contents if counts.get(c, 0) == 0]
    duplicated = [c for c in acked_contents if counts.get(c, 0) > 1]
    ids = [i for _, i in acked]
    duplicate_ids = len(ids) - len(set(ids))

    latency = {}
    for c in clients:
        for op, values in c.latency.items():
            latency.setdefault(op, []).extend(values)
    requests = sum(len(v) for v in latency.values())

    print(f"clients: {args.clients}, seconds: {args.seconds:g}, era: {args.era}, "
          f"binary: {args.binary}")
    rss = f"{peak_rss / 1024:.1f} MB" if peak_rss else "n/a"
    print(f"wall: {wall:.1f} s, requests: {requests}, turns saved: {len(acked)}, "
          f"server exit: {code}, server peak RSS: {rss}")
    print()
    print(f"| {args.clients} clients, {args.seconds:g} s, {args.era} | requests/s | turns/s "
          "| p50 ms | p95 ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for op in ("mem_save_turn", "mem_search"):
        values = latency.get(op, [])
        turns = f"{len(acked) / wall:.0f}" if op == "mem_save_turn" else ""
        print(f"| {op} | {len(values) / wall:.0f} | {turns} | {pct(values, 50):.1f} "
              f"| {pct(values, 95):.1f} | {pct(values, 99):.1f} | "
              f"{max(values) if values else float('nan'):.1f} |")
    every = [v for values in latency.values() for v in values]
    print(f"| all | {requests / wall:.0f} | {len(acked) / wall:.0f} | {pct(every, 50):.1f} "
          f"| {pct(every, 95):.1f} | {pct(every, 99):.1f} | "
          f"{max(every) if every else float('nan'):.1f} |")
    print()
    print(f"lost turns: {len(lost)}, duplicated turns: {len(duplicated)}, "
          f"duplicate ids: {duplicate_ids}, searches missing their turn: {misses}, "
          f"client errors: {len(errors)}")
    mean = statistics.mean(every) if every else float("nan")
    print(f"mean latency: {mean:.1f} ms")
    for e in errors[:10]:
        print(f"  {e}", file=sys.stderr)
    failed = lost or duplicated or duplicate_ids or misses or errors or not acked
    if failed:
        print(f"FAILED (home kept at {home})", file=sys.stderr)
        return 1
    subprocess.run(["rm", "-rf", tmp], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
