#!/bin/sh
# Usage: track-cost-runs.sh BINARY (a release build of the BinobanBenchmarks product)
binary=$1
# CPU per event of BENCH_MODE=track-cost, interleaved: (CPU of N events - CPU of none) / N
for round in 1 2 3 4 5; do
  for config in default observer stage stage+observer; do
    for events in 0 300000; do
      t=$(mktemp)
      BENCH_MODE=track-cost BENCH_CONFIG=$config BENCH_EVENTS=$events /usr/bin/time -f '%U %S' -o $t "$binary" > /dev/null
      echo "round $round $config events=$events cpu=$(awk '{print $1+$2}' $t) load=$(cut -d' ' -f1 /proc/loadavg)"
      rm -f $t
    done
  done
done
