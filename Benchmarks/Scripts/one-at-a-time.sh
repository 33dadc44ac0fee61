#!/bin/sh
# Events one at a time (BENCH_MODE=one-at-a-time): CPU and context switches per event beyond the calling loop's
# own cost, for one or two builds, interleaved (old, new, old, new, …) with the load average beside each run.
#
# Usage: Benchmarks/Scripts/one-at-a-time.sh [SAMPLES] BINARY [BINARY…]
# Each sample runs, for each rate in RATES (default "200 2000") and each binary, the loop alone
# (BENCH_NO_TRACK=1) and then with server.track; it prints both lines and the difference per event:
#   sample 1 rate 200 <binary>: +12.3 µs CPU (in-run +10.1 µs), +0.9 switches per event
# The in-run figure (builds whose benchmark prints it) is the difference of the two runs' in-run CPU per event: every
# thread but the caller's, plus the caller's CPU inside the calls, so the calling loop's own wake-ups, which vary
# most between runs, are left out within each run rather than subtracted across two.
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
                    inrun = ""
                    if (index($2, "in-run CPU per event ") > 0)
                        inrun = sprintf(" (in-run %+.1f µs)", field($2, "in-run CPU per event ") - field($1, "in-run CPU per event "))
                    printf "sample %s rate %s %s: %+.1f µs CPU%s, %+.2f switches per event\n", s, r, b, cpu / events, inrun, sw / events
                }'
        done
    done
    i=$((i + 1))
done
