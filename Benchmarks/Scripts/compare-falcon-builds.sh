#!/bin/sh
# Every FalconBenchmarks figure for two builds in one run, interleaved (old, new, old, new, …),
# with the load average beside each figure, then per case the median of each build, the ranges and new/old.
#
# Usage: Benchmarks/Scripts/compare-falcon-builds.sh OLD_BINARY NEW_BINARY [SAMPLES]
# Each binary is a release build of this package's FalconBenchmarks product, the old one from a temporary
# worktree of the old commit with this package's FalconBenchmarks sources copied in (they use public API only):
#   git worktree add --detach ../wt-old 0401a63
#   cp Benchmarks/Package.swift ../wt-old/Benchmarks/ && cp -r Benchmarks/Sources/FalconBenchmarks ../wt-old/Benchmarks/Sources/
#   swift build -c release --package-path ../wt-old/Benchmarks --product FalconBenchmarks
# (remove the worktree afterwards: git worktree remove ../wt-old)
# Every invocation is a fresh process running one case: the memory cases must not share a heap, and the
# CPU cases then all start from the same state. Standard error (one line per failed execute) is discarded.
# COMPARE_FILTERS overrides the cases: filters separated by "|", for example (the CPU figures only, more samples)
#   COMPARE_FILTERS="resolve attributes|build webview URL|CPU" compare-falcon-builds.sh OLD NEW 7
set -eu
old=$1
new=$2
samples=${3:-3}
log=$(mktemp)
i=1
while [ "$i" -le "$samples" ]; do
    for build in old new; do
        if [ "$build" = old ]; then binary=$old; else binary=$new; fi
        filters=${COMPARE_FILTERS:-"after 0 settled|after 100000 settled|after 1000000 settled|resolve attributes|build webview URL|host teardown (cancelled), CPU|noFill|close (unloaded)|HTTP 500|caller-run executor"}
        old_ifs=$IFS
        IFS='|'
        for filter in $filters; do
            IFS=$old_ifs
            BENCH_SAMPLES=1 BENCH_FILTER="$filter" "$binary" 2>/dev/null | grep -v '^Falcon benchmarks' \
                | while IFS= read -r line; do
                    echo "sample $i $build: $line"
                done
            IFS='|'
        done
        IFS=$old_ifs
    done
    i=$((i + 1))
done | tee "$log"
echo
echo "Medians over $samples samples (each sample: one process, one warm-up for the CPU cases):"
# "sample N build: <case>: <value> <unit>  [min …]  … (load …)" -> case, build, value
sed -n 's/^sample [0-9]* \(old\|new\): \(.*\): \([0-9.]*\) \([^ ]*\)  \[.*$/\2|\1|\3|\4/p' "$log" | sort -t'|' -k1,1 -k2,2 -k3,3g \
    | awk -F'|' '
        { key = $1 "|" $2; values[key, ++count[key]] = $3; unit[$1] = $4; cases[$1] = 1 }
        END {
            for (name in cases) {
                line = name ":"
                for (b = 1; b <= 2; b++) {
                    build = (b == 1) ? "old" : "new"
                    key = name "|" build
                    n = count[key]
                    if (n == 0) { med[build] = 0; continue }
                    med[build] = values[key, int((n + 1) / 2)]
                    line = line sprintf("  %s %s %s [%s–%s]", build, med[build], unit[name], values[key, 1], values[key, n])
                }
                if (med["old"] > 0) line = line sprintf("  new/old %.3f", med["new"] / med["old"])
                print line
            }
        }' | sort
rm -f "$log"
