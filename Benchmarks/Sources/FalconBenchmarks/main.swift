import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// FalconCore benchmarks: the attribute resolver, the URL builder, the CPU of an execute to each
// terminal state, and resident memory after 0 / 100 000 / 1 000 000 settled executes.
//
// BENCH_FILTER=<text> runs only the cases whose name contains the text; BENCH_SAMPLES overrides the count.
// Memory cases take one sample without a warm-up and should each run in a process of their own
// (Benchmarks/Scripts/compare-falcon-builds.sh does); BENCH_IDLE_SECONDS=<n> also prints the figure after
// n seconds idle. BENCH_ITERATIONS and BENCH_EXECUTES shrink the resolve/URL and CPU workloads (for a profile under
// callgrind, whose instruction counts do not depend on the machine's load). Failed executes write an error line
// each to standard error: redirect it.

let cases: [FalconCase] =
    [
        FalconCases.memory(executes: 0),
        FalconCases.memory(executes: 100_000),
        FalconCases.memory(executes: 1_000_000),
        FalconCases.resolve(),
        FalconCases.webviewURL(),
    ] + Outcome.allCases.map { FalconCases.execute($0) } + [FalconCases.executeSDKOnly(.loadedThenTeardown)]

let filter = environment("BENCH_FILTER")
let sampleCount = environment("BENCH_SAMPLES").flatMap { Int($0) } ?? 5
let selected = cases.filter { filter == nil || $0.name.contains(filter ?? "") }

print("Falcon benchmarks — \(sampleCount) samples per case after one warm-up; medians; load \(loadAverage())")
for benchmark in selected {
    var values: [Double] = []
    if benchmark.isMemory {
        values.append(benchmark.sample())
    } else {
        _ = benchmark.sample()
        for _ in 0..<sampleCount { values.append(benchmark.sample()) }
    }
    values.sort()
    let median = values[values.count / 2]
    var line = "\(benchmark.name): \(format(median)) \(benchmark.unit)"
    line += "  [min \(format(values.first ?? 0)), max \(format(values.last ?? 0))]"
    if let target = benchmark.target { line += "  target \(format(target)): \(median <= target ? "met" : "NOT met")" }
    print(line + "  (load \(loadAverage()))")
}
