#!/usr/bin/env python3
"""A plain-JSONL memory MCP server: the peer that tools/bench-scale.py measures
agentbox's memory_mcp against (issue 11: "a Python MCP-SDK memory server with
plain JSONL and no fsync").

It speaks MCP over stdio and offers two tools with memory_mcp's names and
arguments:

- `mem_save_turn {messages, sessionKey}` appends one JSON line per message to
  FILE and flushes Python's buffer to the kernel: no fsync, no index, no
  redaction, no lock (a kill -9 keeps what reached the kernel; a power cut
  may lose any of it);
- `mem_search {query, topK}` scans FILE line by line, scores each line by how
  often the query's words occur in it (case-insensitive), and returns the
  topK best lines (newest first among equals) as markdown.

Modes:
  --mode sdk  the official MCP Python SDK (`mcp` package, MCPServer in 2.x,
              FastMCP in 1.x) — the default when the package is importable;
  --mode raw  a minimal standard-library JSON-RPC loop (one message a line).

Usage: python3 tools/jsonl-peer.py FILE [--mode sdk|raw]
"""

import argparse
import heapq
import importlib.util
import json
import os
import re
import sys

WORD = re.compile(r"\w+")


class Store:
    def __init__(self, path):
        self.path = path
        self.file = open(path, "a", encoding="utf-8")
        self.seq = {}
        self.run = os.getpid()  # ids stay unique across runs over one file

    def save(self, messages, session):
        lines, ids = [], []
        for message in messages:
            n = self.seq.get(session, 0) + 1
            self.seq[session] = n
            content = message.get("content", "")
            if isinstance(content, list):
                content = " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            turn_id = f"{session}-{self.run}#{n}"
            ids.append(turn_id)
            lines.append(json.dumps({"id": turn_id, "session": session, "seq": n,
                                     "role": message.get("role", "user"), "content": content}))
        self.file.write("\n".join(lines) + "\n")
        self.file.flush()  # to the kernel; never fsync
        return {"saved": True, "status": "saved", "messageCount": len(messages), "sessionKey": session,
                "ids": ids}

    def search(self, query, top_k):
        terms = [t.encode() for t in WORD.findall(query.lower())]
        if not terms:
            return f'No matches for "{query}".'
        best = []  # heap of (score, line number, line)
        with open(self.path, "rb") as f:
            for n, line in enumerate(f):
                low = line.lower()
                score = 0
                for term in terms:
                    score += low.count(term)
                if score:
                    item = (score, n, line)
                    if len(best) < top_k:
                        heapq.heappush(best, item)
                    elif item > best[0]:
                        heapq.heapreplace(best, item)
        if not best:
            return f'No matches for "{query}".'
        out = [f'## Matches for "{query}" ({len(best)} shown, best first)']
        for rank, (_, _, line) in enumerate(sorted(best, reverse=True), 1):
            turn = json.loads(line)
            out.append(f"{rank}. `{turn['id']}` · turn · {turn['role']} in {turn['session']}\n"
                       f"   > {turn['content'][:200]}")
        return "\n".join(out) + "\n"


def text_result(text):
    return {"content": [{"type": "text", "text": text}]}


def run_raw(store):
    tools = [{"name": "mem_save_turn", "inputSchema": {"type": "object"}},
             {"name": "mem_search", "inputSchema": {"type": "object"}}]
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        if "id" not in msg:
            continue
        method, params = msg.get("method"), msg.get("params") or {}
        if method == "initialize":
            result = {"protocolVersion": params.get("protocolVersion", "2025-03-26"),
                      "capabilities": {"tools": {}}, "serverInfo": {"name": "jsonl-peer", "version": "0"}}
        elif method == "tools/list":
            result = {"tools": tools}
        elif method == "tools/call":
            args = params.get("arguments") or {}
            if params.get("name") == "mem_save_turn":
                result = text_result(json.dumps(store.save(args.get("messages", []),
                                                           args.get("sessionKey", "default"))))
            else:
                result = text_result(store.search(args.get("query", ""), int(args.get("topK", 5))))
        else:
            result = {}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
        sys.stdout.flush()


def run_sdk(store):
    try:
        from mcp.server.mcpserver import MCPServer as Server  # mcp 2.x
    except ImportError:
        from mcp.server.fastmcp import FastMCP as Server  # mcp 1.x
    server = Server("jsonl-peer")

    @server.tool()
    def mem_save_turn(messages: list[dict], sessionKey: str = "default") -> str:  # noqa: N803 (the MCP name)
        """Append the messages to the JSONL file."""
        return json.dumps(store.save(messages, sessionKey))

    @server.tool()
    def mem_search(query: str, topK: int = 5) -> str:  # noqa: N803
        """Scan the JSONL file for the query's words."""
        return store.search(query, topK)

    server.run("stdio")


def sdk_available():
    return importlib.util.find_spec("mcp") is not None  # without importing it (pydantic & co.)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--mode", choices=["sdk", "raw"], default="sdk" if sdk_available() else "raw")
    args = ap.parse_args()
    store = Store(args.file)
    (run_sdk if args.mode == "sdk" else run_raw)(store)


if __name__ == "__main__":
    main()
