#!/bin/sh
# What SDK Core's client process spends while it only waits: a request waiting for an ingest that answers
# after DELAY_MS (default 5 000 ms), on a new connection and then on the kept one, and an idle instance.
# The ingest is Scripts/real-ingest/ingest.py over plain HTTP on 127.0.0.1, in a process of its own.
#
# The transport is the platform's default (the libcurl transport on Linux), or URLSession with
# BENCH_TRANSPORT=urlsession (RealIngest/BenchTransport.swift). The transport alone, without an instance, is
# measured by transport-costs.py.
#
# Usage (from the repository root, after `swift build -c release --package-path Benchmarks --product BinobanBenchmarks`):
#   [BENCH_TRANSPORT=urlsession] \
#   sh Benchmarks/Scripts/real-ingest/waiting-cost.sh Benchmarks/.build/release/BinobanBenchmarks [DELAY_MS] [IDLE_SECONDS]
set -eu
binary=$1
delay=${2:-5000}
idle=${3:-30}
here=$(dirname "$0")
scratch=$(mktemp -d)
trap 'kill "$ingest" 2>/dev/null && wait "$ingest" 2>/dev/null; rm -rf "$scratch"' EXIT INT TERM
python3 "$here/ingest.py" --port-file "$scratch/port" --report "$scratch/report.json" \
    --progress "$scratch/progress" --delay-ms "$delay" --max-seconds 600 &
ingest=$!
i=0
while [ ! -s "$scratch/port" ] && [ "$i" -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
echo "waiting-cost: answers after $delay ms; transport ${BENCH_TRANSPORT:-platform default}; load $(cut -d' ' -f1-3 /proc/loadavg)"
BENCH_MODE=waiting-cost REAL_INGEST_HOST="http://127.0.0.1:$(cat "$scratch/port")" REAL_INGEST_IDLE_SECONDS="$idle" \
    "$binary"
echo "waiting-cost: load after $(cut -d' ' -f1-3 /proc/loadavg)"
