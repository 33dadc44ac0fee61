#!/bin/sh
# Events one at a time (BENCH_MODE=one-at-a-time): CPU and context switches per event beyond the calling loop's
# own cost, for one or two builds, interleaved (old, new, old, new, …) with the load average beside each run.
#
# Usage: Benchmarks/Scripts/one-at-a-time.sh [SAMPLES] BINARY [BINARY…]
# Each sample runs, for each rate in RATES (default "200 2000") and each binary, the loop alone
# (BENCH_NO_TRACK=1) and then with server.track; it prints both lines and the difference per event:
#   sample 1 rate 200 <binary>: +12.3 µs CPU, +0.9 switches per event
# BENCH_SECONDS (default 10) sets each run's length. FLOOR=1 also runs, first in each sample and rate, the floor of
# this shape of hand-off (BENCH_FLOOR=1 with the first binary, Linux) against its own loop-only run:
#   sample 1 rate 200 floor: +25.0 µs CPU, +0.5 switches per event
set -eu
samples=$1
shift
rates=${RATES:-"200 2000"}
first=$1
i=1
while [ "$i" -le "$samples" ]; do
    for rate in $rates; do
        for binary in ${FLOOR:+floor} "$@"; do
            if [ "$binary" = floor ]; then run_binary=$first; floor=1; else run_binary=$binary; floor=; fi
            base=$(BENCH_MODE=one-at-a-time BENCH_RATE=$rate BENCH_NO_TRACK=1 "$run_binary" | tail -n 1)
            run=$(env BENCH_MODE=one-at-a-time BENCH_RATE=$rate ${floor:+BENCH_FLOOR=1} "$run_binary" | tail -n 1)
            echo "sample $i rate $rate $binary: loop-only: $base"
            echo "sample $i rate $rate $binary: track:     $run"
            echo "$base|$run" | awk -F'|' -v s="$i" -v r="$rate" -v b="$binary" '
                function field(line, name,   n, parts) {
                    n = index(line, name); line = substr(line, n + length(name)); split(line, parts, " ")
                    return parts[1] + 0
                }
                {
                    events = field($2, ": "); cpu = field($2, "cpu ") - field($1, "cpu ")
                    sw = field($2, "switches ") - field($1, "switches ")
                    printf "sample %s rate %s %s: %+.1f µs CPU, %+.2f switches per event\n", s, r, b, cpu / events, sw / events
                }'
        done
    done
    i=$((i + 1))
done
