#!/usr/bin/env bash
# Runs every fuzz target of SDK Core for a bounded time and fails on any crash, leak, timeout or memory blow-up.
#
#   Fuzz/run.sh [seconds-per-target] [target...]     (default: 60 seconds, every target)
#
# Builds the targets first (release, libFuzzer + AddressSanitizer), then fuzzes each on a scratch copy of its seed
# corpus in Fuzz/Corpus/<target> (the checked-in seeds are never modified; new inputs stay in the scratch directory,
# printed at the end). A crashing input is saved as Fuzz/artifacts/<target>-crash-<hash>; once fixed, move it into
# the target's corpus as a regression seed. After each run the corpus is replayed once to report the slowest input.
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-60}
[[ $# -gt 0 ]] && shift
all=(FuzzJSONParser FuzzJSONConversion FuzzFalconBridge FuzzFalconAttributes FuzzPushPayload FuzzBatchStorage
    FuzzIdentityFile FuzzHTTPRequest FuzzGzip)
if [[ $# -gt 0 ]]; then targets=("$@"); else targets=("${all[@]}"); fi

# The Swift runtime's backtracer would otherwise hang after a crash instead of letting libFuzzer report it.
export SWIFT_BACKTRACE=enable=no
# Leaks are checked once, when each run ends (ASan's detect_leaks=1), and fail the run; what any input leaked
# has piled up by then. libFuzzer's per-input check (-detect_leaks=1) is left off: tasks still finishing after an
# input returns make it scan the heap after almost every input, 20 times slower. To find the input that leaks,
# rerun the target on the scratch corpus with -detect_leaks=1 -runs=0. The suppressions are the test suite's
# (libraries and two false reports of the Swift runtime, never the project's own frames).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/../.ci/lsan-suppressions.txt:print_suppressions=0}

work=$(mktemp -d "${TMPDIR:-/tmp}/sdk-core-fuzz.XXXXXX")
flags=(-c release -Xswiftc -sanitize=fuzzer,address)
if ! nice -n 10 swift build "${flags[@]}" >"$work/build.log" 2>&1; then
    grep -E "error:" "$work/build.log" || tail -30 "$work/build.log"
    exit 1
fi
bin=$(swift build "${flags[@]}" --show-bin-path)
mkdir -p artifacts
status=0
printf '%-22s %10s %8s %12s %14s %s\n' target executions cov corpus slowest-input result
for target in "${targets[@]}"; do
    mkdir -p "$work/$target"
    log="$work/$target.log"
    # -timeout: one input taking 10 s is a hang; -rss_limit_mb: memory blow-up; -max_len: inputs up to 8 KiB.
    if nice -n 10 "$bin/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 -detect_leaks=0 \
        -print_final_stats=1 -artifact_prefix="artifacts/$target-" "$work/$target" "Corpus/$target" >"$log" 2>&1
    then
        result=ok
    else
        result=FAILED
        status=1
    fi
    executions=$(grep -Eo 'stat::number_of_executed_units: [0-9]+' "$log" | grep -Eo '[0-9]+$' || echo "?")
    cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | grep -Eo '[0-9]+$' || echo "?")
    # Replay every corpus input once, timing each (libFuzzer prints "Executed <file> in <n> ms").
    files=$(find "$work/$target" "Corpus/$target" -type f | wc -l)
    slowest="?"
    if [[ $result == ok ]]; then
        slowest=$(find "$work/$target" "Corpus/$target" -type f -print0 \
            | xargs -0 -n 500 nice -n 10 "$bin/$target" -timeout=10 -rss_limit_mb=2048 2>&1 \
            | grep -Eo 'in [0-9]+ ms' | grep -Eo '[0-9]+' | sort -n | tail -1 || true)
        slowest="${slowest:-0} ms"
    fi
    printf '%-22s %10s %8s %12s %14s %s\n' "$target" "$executions" "$cov" "$files" "$slowest" "$result"
    if [[ $result != ok ]]; then
        echo "---- $target: last lines of the log ($log)"
        tail -40 "$log"
    fi
done
echo "scratch corpora and logs: $work"
exit $status
