#!/usr/bin/env bash
# Fails when the public API of a library product breaks against the last release without being announced.
#
# The baseline is the commit in .ci/api-baseline ("none" until a release is recorded), or the first argument
# (any treeish: `bash .ci/api-breakage.sh HEAD~3` to try it). Breaks listed in .ci/api-breaks-accepted.txt are
# announced and pass; any other break fails with the tool's own message. The baseline is built from a
# checkout of that commit, so it must be reachable in this clone.
set -euo pipefail
cd "$(dirname "$0")/.."

baseline=${1:-$(grep -v '^[[:space:]]*#' .ci/api-baseline | grep -v '^[[:space:]]*$' | head -n 1 | tr -d '[:space:]')}
if [[ -z $baseline || $baseline == none ]]; then
    echo "api-breakage: no release recorded in .ci/api-baseline yet; nothing to compare against"
    exit 0
fi
if ! git rev-parse --verify --quiet "$baseline^{commit}" >/dev/null; then
    echo "api-breakage: the baseline $baseline is not a commit of this clone" \
        "(fetch the history, or fix .ci/api-baseline)" >&2
    exit 1
fi

# The tool reads the allowlist literally: give it the announced lines without the comments.
allowlist=$(mktemp)
log=$(mktemp)
trap 'rm -f "$allowlist" "$log"' EXIT
grep -v '^[[:space:]]*#' .ci/api-breaks-accepted.txt | grep -v '^[[:space:]]*$' >"$allowlist" || true

started=$(date +%s)
if swift package diagnose-api-breaking-changes "$baseline" --breakage-allowlist-path "$allowlist" >"$log" 2>&1; then
    grep -E 'breaking changes|No breaking' "$log" || true
    echo "api-breakage: no unannounced break against $baseline ($(($(date +%s) - started)) s)"
elif ! grep -q 'API breakage:' "$log"; then
    # The tool failed for another reason (a build error): say so as it did.
    grep -Ev '^\[[0-9]+/[0-9]+\]|^warning: .*unhandled|^    .*\.docc$' "$log" | tail -n 80 >&2
    echo "api-breakage: the comparison itself failed ($(($(date +%s) - started)) s)" >&2
    exit 1
elif ! grep -o 'API breakage: .*' "$log" | sed 's/[[:space:]]*$//' | sort -u | grep -vxF -f <(sed 's/[[:space:]]*$//' "$allowlist") >/dev/null; then
    # Every break it printed is announced: the tool itself cannot match a message that ends in whitespace (a
    # generic signature changed to none prints as "… to "), so the announced lines are compared here too,
    # without trailing whitespace.
    echo "api-breakage: every break against $baseline is announced ($(($(date +%s) - started)) s)"
else
    grep -Ev '^\[[0-9]+/[0-9]+\]|^warning: .*unhandled|^    .*\.docc$' "$log" | tail -n 80 >&2
    echo "api-breakage: the public API breaks against $baseline without an announcement: list each break in" \
        ".ci/api-breaks-accepted.txt and CHANGELOG.md, or restore the API ($(($(date +%s) - started)) s)" >&2
    exit 1
fi
