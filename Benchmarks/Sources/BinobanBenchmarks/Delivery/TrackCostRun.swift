import BenchmarkSupport
import BinobanCoreTesting

/// `BENCH_MODE=track-cost`: one instance, `BENCH_EVENTS` (default 100 000) `track()` calls into an in-memory
/// storage, then one awaited flush to a transport that answers 200 at once, in-process. Made to be run under
/// `valgrind --tool=callgrind`: the instructions of a run with `BENCH_EVENTS=0` subtracted from one with N events,
/// divided by N, are the instructions per event, free of the shared machine's noise. `BENCH_CONFIG` picks what
/// the instance has: `default` (nothing), `stage` (one no-op before-send stage), `observer` (a delivery observer
/// that counts: the cost an instance also pays from its first awaited call), `stage+observer` (both).
enum TrackCostRun {
    static func run(configure: (inout Configuration) -> Void) async {
        let events = environmentInt("BENCH_EVENTS", 100_000)
        var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
        configuration.apiHost = "127.0.0.1"
        configuration.storage = InMemoryEventStorage(
            limits: BinobanStorageLimits(maxFinishedBatches: 100_000, maxTotalBytes: 1 << 30), writeKey: "bench-source")
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.transport = ScriptedTransport(defaultAnswer: 200)
        configuration.flushAt = 1_000_000
        configuration.flushInterval = 3600
        configuration.randomSource = SeededRandomSource(seed: 1)
        configure(&configuration)
        let binoban = Binoban.create(configuration: configuration)
        for index in 0..<events { binoban.track(name: "purchase", properties: Instances.properties(index)) }
        let result = await binoban.flushAndWait()
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
        let statistics = binoban.statistics
        print(
            "track-cost \(environment("BENCH_CONFIG") ?? "default"): \(events) events, uploaded \(result.uploadedEvents),"
                + " dropped \(statistics.dropped.total)")
    }
}
