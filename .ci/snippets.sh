#!/usr/bin/env bash
# Compiles every ```swift block of README.md and Docs/*.md as a user would, and runs the ones that need nothing
# but loopback (Docs/Decisions/0590).
#
# .ci/snippets.py writes one executable target per block into the scratch package .build-snippets/, which
# depends on this repository by `path:` through the link .build-snippets/sdk-core (a path dependency's identity
# is its directory's name, and users write `package: "sdk-core"`). The package is built once, with warnings as
# errors; then each block marked `run` (the default) is run with a time limit. Blocks marked `skip` are listed.
# Usage: bash .ci/snippets.sh            (from anywhere; no network needed)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
scratch=$root/.build-snippets
started=$(date +%s)

mkdir -p "$scratch"
ln -sfn .. "$scratch/sdk-core"
plan=$(python3 .ci/snippets.py "$scratch")

skipped=$(awk '$1 == "skip"' <<<"$plan")
if [[ -n $skipped ]]; then
    echo "Skipped (marked in the Markdown):"
    awk '{ reason = ""; for (i = 4; i <= NF; i++) reason = reason " " $i; printf "  %-28s %s:%s\n", $3, $2, reason }' \
        <<<"$skipped"
fi
echo "Building $(grep -cv '^skip' <<<"$plan") snippets ($(grep -c '^build' <<<"$plan") build only)"
# Running from inside the repository would make SwiftPM treat the repository as the root package.
(cd "$scratch" && swift build -Xswiftc -warnings-as-errors 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\]' || true)
if ! (cd "$scratch" && swift build -Xswiftc -warnings-as-errors >/dev/null 2>&1); then
    echo "snippets: the build failed (errors above; each main.swift starts with the Markdown file and line)" >&2
    exit 1
fi

bin=$(cd "$scratch" && swift build --show-bin-path)
failed=0
while read -r mode target where _; do
    [[ $mode == run ]] || continue
    work=$(mktemp -d)
    # From the repository root (a snippet may read a scenario file), with a scratch home: a snippet that stores
    # events writes them there, not into the user's data directory.
    if ! (HOME="$work" XDG_DATA_HOME="$work/data" timeout 60 "$bin/$target" >"$work/out" 2>&1); then
        echo "snippets: $where ($target) failed when run:" >&2
        head -c 4000 "$work/out" >&2
        failed=1
    fi
    rm -rf "$work"
done <<<"$plan"
[[ $failed == 0 ]] || exit 1
echo "Snippets passed in $(($(date +%s) - started)) s"
