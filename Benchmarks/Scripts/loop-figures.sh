#!/bin/sh
# The pipeline loop's other figures for one or more builds, interleaved (old, new, old, new, …), with the load
# average beside each run (Docs/Performance.md, "The loop's wake policy"):
#   - an idle instance's CPU and context switches per second (BENCH_MODE=idle, and the same window with no
#     instance),
#   - the time from track() returning to the event's bytes being written, at each rate in RATES (default
#     "200 2000"; BENCH_MODE=one-at-a-time with BENCH_TIME_TO_DISK=1 and the write(2) wrapper in
#     write-instants/, built here with cc when missing and loaded with LD_PRELOAD),
#   - 1 000 000 events in a tight loop from 1 and 8 producers: lost, producers' CPU per call
#     (BENCH_MODE=tight-loop).
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
i=1
while [ "$i" -le "$samples" ]; do
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
                    echo "sample $i $binary: $(BENCH_MODE=tight-loop BENCH_PRODUCERS=$producers "$binary" | tail -n 1)"
                done
                ;;
            esac
        done
    done
    i=$((i + 1))
done
