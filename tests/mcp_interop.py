#!/usr/bin/env python3
"""Interop test: the official Python MCP SDK client against `memory_mcp`.

Usage: python3 tests/mcp_interop.py <path-to-agentbox> <home> [legacy|modern]
       python3 tests/mcp_interop.py --http <url> [legacy|modern]

The first form starts `<agentbox> memory_mcp --home <home>` (and then the
home's `tools/memory_mcp` link) through the SDK's stdio transport; the second
connects to a running `memory_mcp --http` at <url> through the SDK's
Streamable HTTP transport, sending `Authorization: Bearer $AGENTBOX_MCP_TOKEN`
when that variable is set (and then checking that a client without the token
is refused), and opens a second connection that must find what the first
saved. Either way it drives the server the way a host does, in one protocol
era: `legacy` (the default) opens with the
`initialize` handshake (2025-11-25 with SDK 2.x); `modern` lets the SDK 2.3
`Client` do what it does by default, probe `server/discover` and speak
2026-07-28 (per-request `_meta`, no handshake). Then: list tools, resources
and templates, call all
four tools, read both resources, and the error paths (a tool role refused
with isError, an empty-query resource read and an unknown URI as JSON-RPC
errors, an unknown tool). The legacy era works with SDK 1.x and 2.x, the
modern one needs 2.3 or later; results are compared as their camelCase wire
dicts. Exits 0 when everything holds, 1 with a message
naming the failed check otherwise, 3 when the `mcp` package is missing.
"""

import asyncio
import json
import os
import sys
from contextlib import asynccontextmanager

try:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
except ImportError as error:  # pragma: no cover - reported by the Rust runner
    print(f"mcp_interop: the Python MCP SDK is not importable: {error}", file=sys.stderr)
    sys.exit(3)

try:  # SDK 2.x
    from mcp import MCPError as McpError
except ImportError:  # SDK 1.x
    from mcp.shared.exceptions import McpError

try:  # SDK 2.3: the client that probes server/discover (2026-07-28)
    from mcp import Client
except ImportError:  # pragma: no cover - only the legacy era runs then
    Client = None

MODERN = "2026-07-28"


class Http:
    """A running `memory_mcp --http`: its URL and the bearer token to send."""

    def __init__(self, url, token):
        self.url = url
        self.token = token

    def headers(self):
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def wire(model):
    """A result as the camelCase dict it was on the wire."""
    return model.model_dump(by_alias=True, mode="json", exclude_none=True)


def text_of(result):
    content = result["content"]
    check(len(content) == 1 and content[0]["type"] == "text", f"one text content item: {result}")
    return content[0]["text"]


def error_code(error):
    err = getattr(error, "error", None)
    return getattr(err, "code", None)


async def expect_error(what, code, call):
    try:
        result = await call()
    except McpError as error:
        check(error_code(error) == code, f"{what}: JSON-RPC error {code} expected, got {error_code(error)}: {error}")
        return str(error)
    raise CheckFailed(f"{what}: a JSON-RPC error {code} was expected, got a result: {result}")


async def tool(session, name, arguments):
    return wire(await session.call_tool(name, arguments))


async def save(session, name, arguments):
    result = await tool(session, name, arguments)
    status = json.loads(text_of(result))
    if "structuredContent" in result:
        check(result["structuredContent"] == status, f"{name}: structuredContent matches the text: {result}")
    return status, result.get("isError", False)


@asynccontextmanager
async def transport(target):
    """The SDK's transport to `target`, not yet entered: stdio for
    StdioServerParameters, Streamable HTTP (with the target's bearer token on
    every request) for an Http. The HTTP client is the caller's to close, so
    it is entered here, around the transport."""
    if isinstance(target, StdioServerParameters):
        yield stdio_client(target)
        return
    async with create_mcp_http_client(headers=target.headers()) as http:
        yield streamable_http_client(target.url, http_client=http)


@asynccontextmanager
async def connect(target, era):
    """A session in `era`, its opening checked: the handshake's result, or
    the `server/discover` result the SDK adopted."""
    if era == "legacy":
        async with transport(target) as streams, streams as (read, write):
            async with ClientSession(read, write) as session:
                init = wire(await session.initialize())
                check(init["serverInfo"]["name"] == "agentbox-memory", f"serverInfo: {init}")
                check(
                    init["protocolVersion"] in ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"),
                    f"protocolVersion: {init}",
                )
                check("tools" in init["capabilities"] and "resources" in init["capabilities"], f"capabilities: {init}")
                check("mem_context" in init.get("instructions", ""), f"instructions: {init}")
                await session.send_ping()
                yield session
        return
    check(Client is not None, "the modern era needs the SDK's Client (mcp 2.3 or later)")
    # mode='auto', the SDK's default: server/discover first, initialize only
    # if that fails
    async with transport(target) as streams, Client(streams) as client:
        session = client.session
        check(client.protocol_version == MODERN, f"negotiated {client.protocol_version}, not {MODERN}")
        check(session.discover_result is not None, "the SDK adopted server/discover, not initialize")
        found = wire(session.discover_result)
        check(MODERN in found["supportedVersions"], f"supportedVersions: {found}")
        check(found["resultType"] == "complete", f"resultType: {found}")
        check(found["cacheScope"] in ("public", "private") and found["ttlMs"] >= 0, f"cache hints: {found}")
        check("tools" in found["capabilities"] and "resources" in found["capabilities"], f"capabilities: {found}")
        check("mem_context" in found.get("instructions", ""), f"instructions: {found}")
        info = found.get("_meta", {}).get("io.modelcontextprotocol/serverInfo", {})
        check(info.get("name") == "agentbox-memory", f"serverInfo stamp: {found}")
        yield session


async def full_session(target, era):
    async with connect(target, era) as session:
        tools_result = wire(await session.list_tools())
        if era == "modern":
            check(tools_result["resultType"] == "complete", f"tools/list resultType: {tools_result}")
            check(tools_result["cacheScope"] == "public" and tools_result["ttlMs"] > 0, f"hints: {tools_result}")

        tools = tools_result["tools"]
        names = [t["name"] for t in tools]
        check(names == ["mem_context", "mem_search", "mem_save_turn", "mem_save_fact"], f"tools: {names}")
        by_name = {t["name"]: t for t in tools}
        for name in ("mem_context", "mem_search"):
            check(by_name[name]["annotations"]["readOnlyHint"] is True, f"{name} is read-only")
        for t in tools:
            check(t["annotations"]["openWorldHint"] is False, f"{t['name']} is not open-world")
            check(t["inputSchema"]["type"] == "object", f"{t['name']} inputSchema")

        resources = wire(await session.list_resources())["resources"]
        check([r["uri"] for r in resources] == ["mem://profile", "mem://persona"], f"resources: {resources}")
        templates = wire(await session.list_resource_templates())["resourceTemplates"]
        check(
            [t["uriTemplate"] for t in templates] == ["mem://search?q={query}&topK={topK}"],
            f"templates: {templates}",
        )

        # mem_save_turn: messages[], a duplicate retry, the legacy form
        messages = [
            {"role": "user", "content": "How do I format Go code here?"},
            {
                "role": "assistant",
                "content": "Run gofmt before committing.",
                "toolCalls": [{"id": "c1", "name": "shell", "arguments": {"cmd": "gofmt -l ."}}],
            },
            {"role": "tool", "content": "main.go", "toolCallId": "c1"},
        ]
        status, is_error = await save(session, "mem_save_turn", {"messages": messages, "sessionKey": "interop"})
        check(not is_error and status["status"] == "saved" and status["saved"] is True, f"save_turn: {status}")
        check(status["messageCount"] == 3 and len(status["ids"]) == 3, f"save_turn counts: {status}")
        for key in ("flushed", "extracted", "profileUpdated", "sessionKey", "episode"):
            check(key in status, f"save_turn has {key}: {status}")
        status, _ = await save(session, "mem_save_turn", {"messages": messages, "sessionKey": "interop"})
        check(status["status"] == "duplicate" and status["saved"] is False, f"duplicate: {status}")
        status, _ = await save(
            session, "mem_save_turn", {"role": "user", "text": "the gateway deploys on Fridays", "flush": True}
        )
        check(status["status"] == "saved" and status["flushed"] is True, f"legacy save_turn: {status}")
        check(status["sessionKey"] == "default", f"default session: {status}")

        # mem_save_fact: one fact, a duplicate, extraction, no_extraction, a refused tool role
        status, is_error = await save(session, "mem_save_fact", {"fact": "Works on the billing service."})
        check(not is_error and status["status"] == "saved" and status["profileUpdated"] is True, f"fact: {status}")
        status, _ = await save(session, "mem_save_fact", {"fact": "Works on the billing service."})
        check(status["status"] == "duplicate", f"duplicate fact: {status}")
        status, _ = await save(
            session, "mem_save_fact", {"messages": [{"role": "user", "content": "I prefer tabs over spaces."}]}
        )
        check(status["status"] == "saved" and status["extracted"] == 1, f"extracted fact: {status}")
        status, is_error = await save(
            session, "mem_save_fact", {"messages": [{"role": "user", "content": "What time is it?"}]}
        )
        check(not is_error and status["status"] == "no_extraction" and status["saved"] is False, f"{status}")
        status, is_error = await save(
            session,
            "mem_save_fact",
            {"messages": [{"role": "tool", "content": "I prefer emacs."}]},
        )
        check(is_error is True and status["status"] == "rejected", f"tool role refused: {status}")

        # the read tools
        result = await tool(session, "mem_search", {"query": "how should Go code be formatted?", "topK": 3})
        check(not result.get("isError"), f"mem_search: {result}")
        text = text_of(result)
        check("gofmt" in text or "format Go" in text, f"mem_search finds the turn: {text}")
        result = await tool(session, "mem_context", {"query": "gateway"})
        text = text_of(result)
        for section in ("## Preferences", "## Profile", "## Foresight", "## Matches"):
            check(section in text, f"mem_context has {section}: {text}")
        check("Prefers tabs over spaces." in text and "billing service" in text, f"mem_context: {text}")
        check("Fridays" in text, f"mem_context matches: {text}")
        result = await tool(session, "mem_search", {"query": ""})
        check(result.get("isError") is True, f"an empty mem_search query is a tool error: {result}")

        # the resources
        read = wire(await session.read_resource("mem://profile"))
        contents = read["contents"][0]
        check(contents["mimeType"] == "text/markdown", f"profile mimeType: {contents}")
        check("## Preferences" in contents["text"] and "billing" in contents["text"], f"profile: {contents}")
        read = wire(await session.read_resource("mem://persona"))
        check("persona" in read["contents"][0]["text"].lower(), f"persona resource: {read}")
        read = wire(await session.read_resource("mem://search?q=gateway+deploys&topK=2"))
        check("Fridays" in read["contents"][0]["text"], f"search resource: {read}")
        read = wire(await session.read_resource("mem://search?query=gofmt&top_k=1"))
        check(read["contents"][0]["text"].count(". `") == 1, f"search resource top_k: {read}")

        # errors: JSON-RPC errors for resources and unknown tools
        await expect_error("empty query resource", -32603, lambda: session.read_resource("mem://search?q="))
        # 2026-07-28 retired -32002: there an unknown resource is -32602
        unknown = -32002 if era == "legacy" else -32602
        await expect_error("unknown resource", unknown, lambda: session.read_resource("mem://nope"))
        try:
            result = await tool(session, "mem_nope", {})
        except McpError as error:
            check(error_code(error) == -32602, f"unknown tool: {error}")
        else:
            raise CheckFailed(f"an unknown tool is a JSON-RPC error: {result}")
        if era == "legacy":
            await session.send_ping()


async def link_session(target, era):
    """A second connection (the link over stdio, a new client over HTTP)
    finds what the first one saved."""
    async with connect(target, era) as session:
        result = await tool(session, "mem_search", {"query": "billing"})
        check("billing" in text_of(result), f"the second connection serves the same home: {result}")


async def refused_without_token(target):
    """A client that does not send the server's token gets a JSON-RPC error
    (the body of the server's 401), not a session."""
    anonymous = Http(target.url, None)
    try:
        async with connect(anonymous, "legacy"):
            pass
    except Exception as error:  # the transport's task group wraps it
        root = innermost(error)
        check(isinstance(root, McpError), f"a JSON-RPC error expected, got {type(root).__name__}: {root}")
        check("token" in str(root).lower(), f"the refusal names the token: {root}")
        return
    raise CheckFailed("a client without the bearer token was let in")


def innermost(error):
    """The first leaf of an exception group (anyio task groups wrap errors)."""
    while getattr(error, "exceptions", None):
        error = error.exceptions[0]
    return error


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["legacy"], ["modern"]):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    era = sys.argv[3] if len(sys.argv) == 4 else "legacy"
    if sys.argv[1] == "--http":
        first = second = Http(sys.argv[2], os.environ.get("AGENTBOX_MCP_TOKEN") or None)
    else:
        binary, home = sys.argv[1], os.path.abspath(sys.argv[2])
        env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "AGENTBOX_NOW", "LANG", "TMPDIR")}
        first = StdioServerParameters(command=binary, args=["memory_mcp", "--home", home], env=env)
        second = StdioServerParameters(command=os.path.join(home, "tools", "memory_mcp"), args=[], env=env)
    try:
        asyncio.run(full_session(first, era))
        asyncio.run(link_session(second, era))
        if isinstance(first, Http) and first.token:
            asyncio.run(refused_without_token(first))
    except Exception as error:  # an SDK-side failure is a failed interop too
        root = innermost(error)
        kind = "" if isinstance(root, CheckFailed) else f"{type(root).__name__}: "
        print(f"mcp_interop: FAIL: {kind}{root}", file=sys.stderr)
        sys.exit(1)
    over = "http" if isinstance(first, Http) else "stdio"
    print(f"mcp_interop: ok ({era}, {over})")


if __name__ == "__main__":
    main()
