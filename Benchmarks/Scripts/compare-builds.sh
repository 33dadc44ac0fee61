#!/bin/sh
# track() and durable-write throughput of two builds in one run, interleaved
# (old, new, old, new, …), with the load average printed beside each figure.
#
# Usage: Benchmarks/Scripts/compare-builds.sh OLD_BINARY NEW_BINARY [SAMPLES]
# Each binary is a release build of this benchmark package (for example from a worktree of the old commit):
#   git worktree add --detach ../sdk-core-old 39925a2
#   swift build -c release --package-path ../sdk-core-old/Benchmarks
# Every invocation runs one warm-up and one sample of the cases the filter selects; the cases are the ones
# both builds share (TrackCallsCase, DurableWriteCase), so the workload is identical. Beside each invocation
# the script prints the process's CPU time (user + system, warm-up and setup included, from /usr/bin/time),
# which is less sensitive than wall time to the other processes on a shared machine.
# COMPARE_FILTERS overrides the cases: filters separated by "|", for example
#   COMPARE_FILTERS="100000-event burst of track() (defaults)|body bytes per event" compare-builds.sh OLD NEW 5
set -eu
old=$1
new=$2
samples=${3:-5}
filters=${COMPARE_FILTERS:-"track() calls/s|durably written"}
i=1
while [ "$i" -le "$samples" ]; do
    for build in old new; do
        if [ "$build" = old ]; then binary=$old; else binary=$new; fi
        old_ifs=$IFS
        IFS='|'
        # Unquoted, so that the "|" in IFS splits it (a quoted default word would stay one filter).
        for filter in $filters; do
            IFS=$old_ifs
            cpu=$(mktemp)
            BENCH_SAMPLES=1 BENCH_FILTER="$filter" /usr/bin/time -f '%U %S' -o "$cpu" "$binary" \
                | grep -v '^Binoban benchmarks' | while IFS= read -r line; do
                    echo "sample $i $build: $line  | loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
                done
            echo "sample $i $build: process CPU for \"$filter\": $(awk '{ print $1 + $2 }' "$cpu") s"
            rm -f "$cpu"
            IFS='|'
        done
        IFS=$old_ifs
    done
    i=$((i + 1))
done
