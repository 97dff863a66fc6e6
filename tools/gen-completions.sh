#!/usr/bin/env bash
# Regenerates the committed shell completions (completions/) and man pages
# (man/) from the registry's command tree; tests/it/surface.rs fails when either
# is stale.
# Usage: tools/gen-completions.sh   (run from anywhere; builds agentbox first)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet
# cargo builds into $CARGO_TARGET_DIR when it is set (relative to the repo root)
bin="${CARGO_TARGET_DIR:-target}/debug/agentbox"
mkdir -p completions
"$bin" completions bash > completions/agentbox.bash
"$bin" completions zsh > completions/_agentbox
"$bin" completions fish > completions/agentbox.fish
"$bin" completions elvish > completions/agentbox.elv
"$bin" completions powershell > completions/_agentbox.ps1
rm -rf man && mkdir -p man
for page in $("$bin" man --list --format text); do
  "$bin" man "$page" > "man/$page.1"
done
echo "completions/ and man/ regenerated"
