import BenchmarkSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Binoban benchmarks: warm up, take several samples per case, print the medians.
// Add a case (for example a durable-file-storage write case or a loopback-delivery case) by appending it to
// `cases`; the runner and the report need no change.

let samples = 5

// The child process of `IngestProcess` (an ingest of its own for the client-CPU burst cases).
if CommandLine.arguments.dropFirst().first == IngestProcess.childArgument { IngestProcess.runChild() }

// BENCH_MODE=hostile or BENCH_MODE=outage runs one long delivery run (Delivery/) instead of the cases; BENCH_MODE=real-ingest
// is SDK Core's side of the separate-process ingest benchmark (Scripts/real-ingest/compare.py drives it).
switch environment("BENCH_MODE") {
case "hostile":
    await HostileMixRun.run()
    exit(0)
case "outage":
    await OutageRun.run()
    exit(0)
case "real-ingest":
    await RealIngestRun.run()
    exit(0)
case "track-cost":
    await TrackCostRun.run(configure: TrackCostConfigurations.named(environment("BENCH_CONFIG")))
    exit(0)
case "one-at-a-time":
    await OneAtATimeRun.run()
    exit(0)
case "idle":
    await IdleRun.run()
    exit(0)
case "tight-loop":
    await TightLoopRun.run()
    exit(0)
case "waiting-cost":
    await WaitingCostRun.run()
    exit(0)
default:
    break
}

// The memory cases run first, before the throughput cases have grown the heap.
let baseline = BacklogMemoryCase.residentBytes()
let anonymousBaseline = BacklogMemoryCase.anonymousBytes()
let cases: [any BenchmarkCase] = [
    OutageMemoryCase(events: 0, baselineBytes: baseline, anonymousBaselineBytes: anonymousBaseline),
    OutageMemoryCase(events: 100_000, baselineBytes: baseline, anonymousBaselineBytes: anonymousBaseline),
    OutageMemoryCase(events: 1_000_000, baselineBytes: baseline, anonymousBaselineBytes: anonymousBaseline),
    BacklogMemoryCase(events: 10_000, baselineBytes: baseline),
    BacklogMemoryCase(events: 100_000, baselineBytes: baseline),
    BacklogMemoryCase(events: 300_000, baselineBytes: baseline),
    TrackCallsCase(producers: 1, callsPerProducer: 1_000_000),
    TrackCallsCase(producers: 8, callsPerProducer: 125_000),
    EncodeAndAppendCase(events: 100_000),
    DurableWriteCase(events: 100_000, durability: .survivesProcessCrash),
    DurableWriteCase(events: 100_000, durability: .survivesPowerLoss),
    LoopbackDeliveryCase(events: 100_000),
    BurstDeliveryCase(events: 100_000),
    BurstDeliveryCase(events: 1_000_000),
    BurstDeliveryCase(events: 100_000, awaitingRoom: true),
    BurstDeliveryCase(events: 1_000_000, awaitingRoom: true),
    BurstDeliveryCase(events: 100_000, flushesAfterBurst: true),
    BurstDeliveryCase(events: 1_000_000, flushesAfterBurst: true),
    BurstDeliveryCase(events: 100_000, awaitingRoom: true, flushesAfterBurst: true),
    BurstDeliveryCase(events: 1_000_000, awaitingRoom: true, flushesAfterBurst: true),
    BurstDeliveryCase(events: 100_000, compressed: true),
    BurstDeliveryCase(events: 100_000, separateIngest: true),
    BurstDeliveryCase(events: 100_000, compressed: true, separateIngest: true),
    BodyBytesCase(),
    BodyBytesCase(compressed: true),
    UntrustedJSONCase(),
]

// BENCH_FILTER=<text> runs only the cases whose name contains the text; BENCH_SAMPLES overrides the count.
let filter = environment("BENCH_FILTER")
let sampleCount = environment("BENCH_SAMPLES").flatMap { Int($0) } ?? samples
let selected = cases.filter { filter == nil || $0.name.contains(filter ?? "") }

print("Binoban benchmarks — \(sampleCount) samples per case after one warm-up; medians; load \(loadAverage())")
for benchmark in selected {
    // BENCH_WARMUP=0 skips the warm-up sample (for the long delivery cases).
    if environment("BENCH_WARMUP") != "0" { _ = await benchmark.sample() }
    var values: [Double] = []
    for _ in 0..<sampleCount { values.append(await benchmark.sample()) }
    values.sort()
    let median = values[values.count / 2]
    var line = "\(benchmark.name): \(format(median)) \(benchmark.unit)"
    line += "  [min \(format(values.first ?? 0)), max \(format(values.last ?? 0))]"
    if let target = benchmark.target {
        let met = benchmark.higherIsBetter ? median >= target : median <= target
        line += "  target \(format(target)): \(met ? "met" : "NOT met")"
    }
    print(line + "  (load \(loadAverage()))")
    if benchmark is UntrustedJSONCase { UntrustedJSONReport.print() }
}
