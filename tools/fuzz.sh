#!/usr/bin/env bash
# Coverage-guided fuzzing of agentbox's parsers (docs/FUZZING.md).
#
#   tools/fuzz.sh [TARGET|all] [SECONDS]     (default: all targets, 60 s each)
#
# Runs each target for SECONDS with cargo-fuzz (libFuzzer) on the stable
# toolchain (RUSTC_BOOTSTRAP=1 lets stable accept cargo-fuzz's -Z flags).
# Seeds come from fuzz/corpus/<target>/ (committed, never written to); what the
# fuzzer finds goes to fuzz/target/corpus/<target>/. Exits non-zero when a
# target crashes, panics or hangs, naming the input that did it.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGETS=(note plan profile episode mcp import messages question)
WHICH=${1:-all}
SECONDS_EACH=${2:-60}

case "$SECONDS_EACH" in
'' | *[!0-9]*)
	echo "fuzz.sh: SECONDS must be a whole number, not '$SECONDS_EACH'" >&2
	exit 2
	;;
esac
if [ "$WHICH" != all ]; then
	found=
	for t in "${TARGETS[@]}"; do [ "$t" = "$WHICH" ] && found=1; done
	if [ -z "$found" ]; then
		echo "fuzz.sh: unknown target '$WHICH'; targets: ${TARGETS[*]} (or all)" >&2
		exit 2
	fi
	TARGETS=("$WHICH")
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
	echo "fuzz.sh: cargo-fuzz is missing; install it with: cargo install cargo-fuzz --locked" >&2
	exit 2
fi

export RUSTC_BOOTSTRAP=1
# No sanitizer: the parsers are safe Rust, so what matters is panics,
# overflow checks and debug assertions (on in cargo-fuzz builds); ASan would
# only halve the executions per second.
FUZZ=(cargo fuzz)
OPTS=(--sanitizer none --fuzz-dir fuzz)

"${FUZZ[@]}" build "${OPTS[@]}"

LOGS="$ROOT/fuzz/target/logs"
mkdir -p "$LOGS"
# Targets that need files write them under TMPDIR: keep that inside a
# directory removed on exit.
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/agentbox-fuzz.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT

status=0
for t in "${TARGETS[@]}"; do
	work="$ROOT/fuzz/target/corpus/$t"
	mkdir -p "$work" "$ROOT/fuzz/artifacts/$t"
	log="$LOGS/$t.log"
	echo "== $t: ${SECONDS_EACH}s (log: ${log#"$ROOT"/})"
	set +e
	TMPDIR="$SCRATCH" "${FUZZ[@]}" run "${OPTS[@]}" "$t" "$work" "fuzz/corpus/$t" -- \
		-max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=4096 \
		-artifact_prefix="$ROOT/fuzz/artifacts/$t/" -print_final_stats=1 >"$log" 2>&1
	rc=$?
	set -e
	runs=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 | sed 's/^Done //; s/ second$/ s/' || true)
	cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
	if [ $rc -ne 0 ]; then
		status=1
		echo "   CRASH (exit $rc):"
		{ grep -A12 -m1 -E "panicked at|ERROR: libFuzzer" "$log" || tail -n 25 "$log"; } | sed 's/^/   | /'
		art=$(grep -oE "(Test unit written to|artifact_prefix.*) [^ ]+" "$log" | tail -1 | awk '{print $NF}' || true)
		echo "   crash input: ${art:-see fuzz/artifacts/$t/}"
		echo "   reproduce:   RUSTC_BOOTSTRAP=1 cargo fuzz run -s none $t ${art:-fuzz/artifacts/$t/<file>}"
	else
		echo "   ok: ${runs:-?}; ${cov:-?}"
	fi
done
exit $status
