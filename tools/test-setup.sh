#!/usr/bin/env bash
# Installs what the whole test suite needs beyond Rust, then returns; the
# README's test command is `tools/test-setup.sh && cargo test --locked --
# --include-ignored`, and .ci/run runs exactly that. Safe to run again: it
# installs only what is missing (about a second when nothing is).
#
# Debian packages come from apt: directly as root (CI), through sudo
# otherwise (it may ask for your password). The official Python MCP SDK goes
# into a virtual environment, target/mcp-venv, made from Debian's own
# /usr/bin/python3: Debian refuses a system-wide `pip install` (PEP 668).
# The TypeScript SDK and the MCP conformance runner come from npm, pinned by
# the package-lock.json files in tests/ts and tests/conformance.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
# The TTY tests drive the binary under a pseudo-terminal with util-linux
# `script`; the crash test kills writers at chosen syscalls with `strace`.
command -v script >/dev/null 2>&1 || missing+=(bsdutils)
command -v strace >/dev/null 2>&1 || missing+=(strace)
# The sync tests check the remote agentbox wrote with git itself (clone, fsck).
command -v git >/dev/null 2>&1 || missing+=(git)
# The https tests make a certificate with the `openssl` command; libgit2
# loads the system's libssl.so.3 (which the openssl package brings) when
# it first connects over TLS.
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
# The MCP interop test drives the server with the official Python MCP SDK,
# installed into a virtual environment (python3-venv brings `ensurepip`).
# The sync tests' loopback servers use python3 itself.
python=/usr/bin/python3
if [ ! -x "$python" ] && command -v python3 >/dev/null 2>&1; then
  python=$(command -v python3)
fi
if [ ! -x "$python" ]; then
  python=/usr/bin/python3
  missing+=(python3 python3-venv)
elif ! "$python" -c 'import ensurepip' >/dev/null 2>&1; then
  missing+=(python3-venv)
fi
# The completion tests load the scripts in real zsh and fish.
command -v zsh >/dev/null 2>&1 || missing+=(zsh)
command -v fish >/dev/null 2>&1 || missing+=(fish)
# The HTTP interop test drives `memory_mcp --http` with the official
# TypeScript MCP SDK too, which runs on node (Debian's 18 will do) and is
# installed with npm.
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v npm >/dev/null 2>&1 || missing+=(npm)
# The browser tests of `agentbox view` (tests/it/view_browser.rs) drive
# Debian's headless Chromium over its DevTools protocol; nothing else
# fetches a browser.
command -v chromium >/dev/null 2>&1 || missing+=(chromium)

if [ ${#missing[@]} -gt 0 ]; then
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
      echo "error: the tests need these Debian packages: ${missing[*]}" >&2
      echo "hint: as root, run: apt-get install ${missing[*]}" >&2
      exit 1
    fi
    sudo=(sudo)
  fi
  echo "installing ${missing[*]} (apt)" >&2
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The venv lives in the repository's own target/ whatever CARGO_TARGET_DIR
# says: tests/it/mcp_interop.rs looks there (or at AGENTBOX_TEST_PYTHON).
# A venv whose creation was cut short (Ctrl-C, a full disk) has a python
# but no pip: made again, or every later run would fail the same way.
venv=target/mcp-venv
if ! "$venv/bin/python" -c 'import pip' >/dev/null 2>&1; then
  "$python" -m venv --clear "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r tests/mcp-requirements.txt

# The TypeScript SDK, pinned by tests/ts/package-lock.json, into
# tests/ts/node_modules (where tests/ts/mcp_interop.mjs imports it from).
# npm ci starts by deleting node_modules, so it runs only when the installed
# tree is not the locked one: npm writes node_modules/.package-lock.json,
# which lists the same packages as the lock once the install completed.
if ! node -e '
  const lock = require("./tests/ts/package-lock.json").packages;
  const have = require("./tests/ts/node_modules/.package-lock.json").packages;
  for (const [path, pkg] of Object.entries(lock)) {
    if (path && have[path]?.version !== pkg.version) process.exit(1);
  }' >/dev/null 2>&1; then
  npm ci --prefix tests/ts --no-audit --no-fund --loglevel=error >/dev/null
fi

# The official MCP conformance runner and the Node 22 it needs, both from
# npm, into target/conformance (tools/conformance.sh, which the HTTP interop
# test runs, installs them the same way when they are missing).
tools/conformance.sh --setup
