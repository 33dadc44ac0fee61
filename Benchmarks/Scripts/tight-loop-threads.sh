#!/bin/sh
# The tight loop (BENCH_MODE=tight-loop, 1 000 000 events, BENCH_PRODUCERS producers, default 1) for one or more
# builds, interleaved (old, new, old, new, …): the benchmark's line (lost, producers' CPU per call, process CPU, load)
# and the pipeline loop thread's own CPU time ("binoban-loop", read from /proc every 50 ms while the run lasts, so
# the last reading is at most 50 ms before the thread ends) with its CPU per event. Linux only.
#
# Usage: Benchmarks/Scripts/tight-loop-threads.sh SAMPLES BINARY [BINARY…]
set -eu
samples=$1
shift
events=${BENCH_EVENTS:-1000000}
ticks=$(getconf CLK_TCK)
output=$(mktemp)
trap 'rm -f "$output"' EXIT
i=1
while [ "$i" -le "$samples" ]; do
    for binary in "$@"; do
        BENCH_MODE=tight-loop BENCH_EVENTS=$events "$binary" >"$output" 2>&1 &
        pid=$!
        loop=0
        while kill -0 "$pid" 2>/dev/null; do
            for task in /proc/"$pid"/task/*; do
                if [ "$(cat "$task/comm" 2>/dev/null)" = "binoban-loop" ]; then
                    reading=$(awk '{ print $14 + $15 }' "$task/stat" 2>/dev/null || true)
                    [ -n "$reading" ] && loop=$reading
                fi
            done
            sleep 0.05
        done
        wait "$pid" || true
        line=$(grep tight-loop "$output" || echo "no result")
        echo "$(basename "$binary") #$i: $line"
        awk -v t="$loop" -v hz="$ticks" -v n="$events" \
            'BEGIN { printf "  loop thread CPU %.2f s, %.2f µs per event\n", t / hz, t / hz * 1e6 / n }'
    done
    i=$((i + 1))
done
