#!/bin/sh
# Heap allocations per event, counted (not timed), for one or more builds: a figure the machine's load does not move.
# For each rate in RATES (default "200 2000"), events one at a time (BENCH_MODE=one-at-a-time, BENCH_SECONDS,
# default 5) with server.track and with the loop alone (BENCH_NO_TRACK=1); then the 1 000 000-event tight loop with one
# producer (BENCH_MODE=tight-loop) and its producer's own loop. The counts come from allocation-counts/, an
# LD_PRELOAD library built here with cc when missing. Per event, it prints the pipeline loop thread's allocations
# and every other thread's beyond the loop-only run (the callers' track() calls and the uploads' tasks):
#   ./new rate 2000: loop thread 3.95, other threads 1.02 allocations per event (10071 events)
#
# Usage: Benchmarks/Scripts/allocations.sh BINARY [BINARY…]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
preload=$here/allocation-counts/allocation-counts.so
[ -f "$preload" ] || cc -O2 -shared -fPIC -o "$preload" "$here/allocation-counts/allocation-counts.c" -lpthread
rates=${RATES:-"200 2000"}
seconds=${BENCH_SECONDS:-5}
output=$(mktemp)
trap 'rm -f "$output"' EXIT

# Runs the benchmark with the counter; prints "<events> <loop thread> <other threads>".
counted() {
    env LD_PRELOAD="$preload" "$@" > "$output.out" 2> "$output"
    events=$(sed -n 's/.* \([0-9][0-9]*\) events.*/\1/p' "$output.out" | tail -n 1)
    awk -v events="$events" '
        /^allocations thread / { if ($4 == "binoban-loop") loop += $5; else if ($4 != "(main)") other += $5 }
        END { print events + 0, loop + 0, other + 0 }' "$output"
    rm -f "$output.out"
}

for binary in "$@"; do
    for rate in $rates; do
        set -- $(counted env BENCH_MODE=one-at-a-time BENCH_RATE=$rate BENCH_SECONDS=$seconds BENCH_NO_TRACK=1 "$binary")
        base_other=$3
        set -- $(counted env BENCH_MODE=one-at-a-time BENCH_RATE=$rate BENCH_SECONDS=$seconds "$binary")
        awk -v b="$binary" -v r="$rate" -v e="$1" -v l="$2" -v o="$3" -v base="$base_other" 'BEGIN {
            printf "%s rate %s: loop thread %.2f, other threads %.2f allocations per event (%d events)\n",
                b, r, l / e, (o - base) / e, e }'
    done
    set -- $(counted env BENCH_MODE=tight-loop BENCH_NO_TRACK=1 "$binary")
    base_other=$3
    set -- $(counted env BENCH_MODE=tight-loop "$binary")
    awk -v b="$binary" -v e="$1" -v l="$2" -v o="$3" -v base="$base_other" 'BEGIN {
        printf "%s tight loop, 1 producer: loop thread %.3f, other threads %.3f allocations per event\n",
            b, l / e, (o - base) / e }'
done
