#!/bin/sh
# The pipeline loop's other figures for one or more builds, interleaved (old, new, old, new, …), with the load
# average beside each run (Docs/Performance.md, "The loop's wake policy"):
#   - an idle instance's CPU and context switches per second (BENCH_MODE=idle, and the same window with no
#     instance),
#   - the time from track() returning to the event's bytes being written, at each rate in RATES (default
#     "200 2000"; BENCH_MODE=one-at-a-time with BENCH_TIME_TO_DISK=1 and the write(2) wrapper in
#     write-instants/, built here with cc when missing and loaded with LD_PRELOAD),
#   - 1 000 000 events in a tight loop from 1 and 8 producers: lost, producers' CPU per call
#     (BENCH_MODE=tight-loop), after the producers' own loop (the same threads building the same properties, no
#     instance: BENCH_NO_TRACK=1, run with the last BINARY, whose benchmark has that mode) and, for each build, the
#     difference: track()'s own CPU per call.
#
# Usage: Benchmarks/Scripts/loop-figures.sh [SAMPLES] BINARY [BINARY…]
# FIGURES (default "idle disk tight") picks the groups; BENCH_SECONDS (default 5) sets the idle and time-to-disk
# windows.
set -eu
samples=$1
shift
rates=${RATES:-"200 2000"}
figures=${FIGURES:-"idle disk tight"}
seconds=${BENCH_SECONDS:-5}
here=$(cd "$(dirname "$0")" && pwd)
preload=$here/write-instants/write-instants.so
case $figures in *disk*)
    [ -f "$preload" ] || cc -O2 -shared -fPIC -o "$preload" "$here/write-instants/write-instants.c" -ldl ;;
esac
eval "last=\${$#}"
i=1
while [ "$i" -le "$samples" ]; do
    case $figures in *tight*)
        for producers in 1 8; do
            line=$(BENCH_MODE=tight-loop BENCH_NO_TRACK=1 BENCH_PRODUCERS=$producers "$last" | tail -n 1)
            echo "sample $i $last: $line"
            eval "loop_only_$producers=$(echo "$line" | sed -n 's/.*per call \([0-9.]*\) µs.*/\1/p')"
        done ;;
    esac
    for figure in $figures; do
        for binary in "$@"; do
            case $figure in
            idle)
                echo "sample $i $binary: $(BENCH_MODE=idle BENCH_NO_TRACK=1 BENCH_SECONDS=$seconds "$binary" | tail -n 1)"
                echo "sample $i $binary: $(BENCH_MODE=idle BENCH_SECONDS=$seconds "$binary" | tail -n 1)"
                ;;
            disk)
                for rate in $rates; do
                    echo "sample $i $binary: $(LD_PRELOAD=$preload BENCH_MODE=one-at-a-time BENCH_TIME_TO_DISK=1 \
                        BENCH_RATE=$rate BENCH_SECONDS=$seconds "$binary" | tail -n 1)"
                done
                ;;
            tight)
                for producers in 1 8; do
                    line=$(BENCH_MODE=tight-loop BENCH_PRODUCERS=$producers "$binary" | tail -n 1)
                    echo "sample $i $binary: $line"
                    echo "$line" | awk -v s="$i" -v b="$binary" -v p="$producers" -v base="$(eval echo \$loop_only_$producers)" '
                        {
                            n = index($0, "per call "); rest = substr($0, n + 9); split(rest, parts, " ")
                            printf "sample %s %s: track() own CPU per call, %s producer(s): %.2f µs\n", s, b, p, parts[1] - base
                        }'
                done
                ;;
            esac
        done
    done
    i=$((i + 1))
done
