#!/usr/bin/env bash
# Runs the official MCP conformance runner against `memory_mcp --http`.
#
#   tools/conformance.sh [--url URL]   run it (against URL, else a server of
#                                      its own in a fresh temp home)
#   tools/conformance.sh --setup       only install what it needs
#
# The runner (@modelcontextprotocol/conformance) needs Node 22, which the
# machine may not have: it comes from npm itself, as the `node` package
# (which ships the platform's binary), with the runner pinned by
# tests/conformance/package-lock.json and installed into
# target/conformance (like the Python SDK's venv, whatever CARGO_TARGET_DIR
# says). Two runner releases run: the current one (0.1.16, the 2025-11-25
# suite) and the 0.2 pre-release that holds the 2026-07-28 requirement set,
# which runs both revisions' sets, each at its own wire version. Each run is
# held to its expected-failures file in tests/conformance/ (the scenarios
# memory_mcp fails, with the reason beside each): the script exits 1 on an
# unexpected failure or a baselined scenario that now passes, 0 otherwise.
# The last run's results (checks.json per scenario, the runner's output)
# are in target/conformance/results/.
# The server it starts is the debug build (built first when AGENTBOX_BIN is
# unset) and is killed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

lock=tests/conformance
prefix=target/conformance
node=$prefix/node_modules/node/bin/node

# npm ci starts by deleting node_modules, so it runs only when the installed
# tree is not the locked one (node_modules/.package-lock.json, which npm
# writes once an install completed, lists other versions or is missing).
installed() {
  [ -x "$node" ] && cmp -s "$lock/package-lock.json" "$prefix/package-lock.json" &&
    "$node" -e '
      const lock = require(process.argv[1] + "/package-lock.json").packages;
      const have = require(process.argv[1] + "/node_modules/.package-lock.json").packages;
      for (const [path, pkg] of Object.entries(lock)) {
        if (path && have[path]?.version !== pkg.version) process.exit(1);
      }' "$PWD/$prefix" >/dev/null 2>&1
}
if ! installed; then
  command -v npm >/dev/null 2>&1 || {
    echo "error: the conformance runner is installed with npm, which is missing" >&2
    echo "hint: run tools/test-setup.sh (it installs Debian's nodejs and npm)" >&2
    exit 1
  }
  mkdir -p "$prefix"
  cp "$lock/package.json" "$lock/package-lock.json" "$prefix/"
  npm ci --prefix "$prefix" --no-audit --no-fund --loglevel=error >/dev/null
  installed || {
    echo "error: npm ci in $prefix did not leave Node 22 at $node" >&2
    echo "hint: the npm package 'node' fetches the binary in its install script: run npm with scripts enabled" >&2
    exit 1
  }
fi
[ "${1:-}" = --setup ] && exit 0

url=
if [ "${1:-}" = --url ] && [ -n "${2:-}" ]; then
  url=$2
elif [ $# -gt 0 ]; then
  echo "usage: tools/conformance.sh [--url URL | --setup]" >&2
  exit 2
fi

tmp=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ -z "$url" ]; then
  bin=${AGENTBOX_BIN:-}
  if [ -z "$bin" ]; then
    cargo build --quiet
    bin=${CARGO_TARGET_DIR:-target}/debug/agentbox
  fi
  bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
  (cd "$tmp" && "$bin" init >/dev/null)
  (cd "$tmp" && exec env -u AGENTBOX_MCP_TOKEN "$bin" memory_mcp --http 127.0.0.1:0) \
    </dev/null >/dev/null 2>"$tmp/server.err" &
  server=$!
  for _ in $(seq 300); do
    url=$(sed -n 's/^memory_mcp: serving \([^ ]*\).*/\1/p' "$tmp/server.err")
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    echo "error: memory_mcp --http never said where it serves:" >&2
    cat "$tmp/server.err" >&2
    exit 1
  fi
fi

# the last run's results only (each run writes about 1 MB)
results=$prefix/results
rm -rf "$results"
status=0
# run NAME RUNNER ARGS...: one runner invocation, held to
# tests/conformance/expected-NAME.yml
run() {
  local name=$1 runner=$2
  shift 2
  echo "== conformance $name ($url)"
  if ! "$node" "$prefix/node_modules/$runner/dist/index.js" server --url "$url" "$@" \
    --expected-failures "$lock/expected-$name.yml" -o "$results/$name" >"$tmp/$name.log" 2>&1; then
    status=1
  fi
  sed -n '/=== SUMMARY ===/,$p' "$tmp/$name.log"
  cp "$tmp/$name.log" "$results/$name.log" 2>/dev/null || true
}
mkdir -p "$results"
run 0.1-active @modelcontextprotocol/conformance
run 0.2-2025-11-25 conformance-2026 --requirements 2025-11-25
run 0.2-2026-07-28 conformance-2026 --requirements 2026-07-28
if [ -n "$server" ] && ! kill -0 "$server" 2>/dev/null; then
  echo "error: memory_mcp --http exited during the run:" >&2
  cat "$tmp/server.err" >&2
  status=1
fi
echo "results: $results"
exit $status
