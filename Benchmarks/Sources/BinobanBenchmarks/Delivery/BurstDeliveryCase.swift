import BenchmarkSupport

/// Seconds from the first `track()` of a tight-loop burst until a 127.0.0.1 ingest holds every
/// event, at the default configuration (``DefaultInstance``), and how many events were lost on the way.
///
/// The producer calls `track(name:properties:)` (the seed's synchronous call) or, with `awaitingRoom`,
/// `await trackAwaitingRoom(name:properties:)`, `events` times in a row, then nothing: no `flush()`, so the
/// defaults (`flushAt`, `flushInterval`) decide when the rest goes; with `flushesAfterBurst`, one
/// `await flushAndWait()` follows the burst. The sample ends when the ingest holds every
/// event, or when every event is accounted for (delivered or counted as dropped), or after 40 s without a new
/// delivery, or after 10 minutes. The value is the seconds until the last event arrived; each sample also prints
/// lost = tracked − distinct delivered, the drops `statistics` counted and the drops the error handler was told
/// of, with the load average.
struct BurstDeliveryCase: BenchmarkCase {
    var events: Int
    var awaitingRoom: Bool = false
    /// Whether the producer calls `await flushAndWait()` once after its last `track()` (an API call, not a setting).
    var flushesAfterBurst: Bool = false
    /// Whether uploads are gzip-compressed (``Configuration/compressesUploads``, the only setting changed).
    /// The ingest then keeps each body and decodes them after the sample, so their decoding is charged to
    /// neither the time nor the CPU figure; the loop ends when the client counts every event uploaded.
    var compressed: Bool = false
    /// Whether the ingest runs in a child process of its own (``IngestProcess``), so the CPU figure is the
    /// client process's alone; otherwise it shares the process.
    var separateIngest: Bool = false
    var name: String {
        "seconds until a 127.0.0.1 ingest holds a \(events)-event burst of "
            + (awaitingRoom ? "trackAwaitingRoom()" : "track()") + (flushesAfterBurst ? " + await flushAndWait()" : "")
            + (compressed ? " (defaults + gzip uploads)" : " (defaults)")
            + (separateIngest ? " [ingest in its own process]" : "")
    }
    var unit: String { "s" }
    var higherIsBetter: Bool { false }
    var target: Double? { nil }

    func sample() async -> Double {
        guard let ingest = BurstIngest.start(separate: separateIngest) else {
            print("  the loopback ingest could not start")
            return .infinity
        }
        let port = ingest.port
        let instance = DefaultInstance(port: port, compressed: compressed)
        let binoban = instance.binoban
        let clock = ContinuousClock()
        let cpuBefore = processCPUSeconds()
        let start = clock.now
        let startNanos = monotonicNanos()
        if awaitingRoom {
            for index in 0..<events {
                await binoban.trackAwaitingRoom(
                    name: CountingIngest.benchEventName, properties: DefaultInstance.properties(index))
            }
        } else {
            for index in 0..<events {
                binoban.track(name: CountingIngest.benchEventName, properties: DefaultInstance.properties(index))
            }
        }
        let trackedSeconds = seconds(from: start, to: clock.now)
        var flushText = ""
        if flushesAfterBurst {
            let result = await binoban.flushAndWait()
            flushText = " flush \(result.outcome) uploaded \(result.uploadedEvents) dropped \(result.droppedEvents),"
        }
        let count = events
        var lastProgress = clock.now
        var lastCount = -1
        let deadline = start.advanced(by: .seconds(600))
        while clock.now < deadline {
            let delivered = compressed ? binoban.statistics.uploadedEvents : ingest.deliveredBench
            if delivered >= count { break }
            if delivered + binoban.statistics.dropped.total >= binoban.statistics.acceptedEvents,
                binoban.statistics.queuedEvents == 0, delivered > 0
            {
                break
            }
            if environment("BENCH_VERBOSE") != nil, delivered != lastCount, delivered / 10_000 != lastCount / 10_000 {
                print(
                    "  t=\(format(seconds(from: start, to: clock.now))) s: delivered \(delivered); \(binoban.statistics.digest)"
                )
            }
            if delivered != lastCount {
                lastCount = delivered
                lastProgress = clock.now
            } else if lastProgress.duration(to: clock.now) > .seconds(40) {
                break
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        let cpu = processCPUSeconds() - cpuBefore
        let lastDelivery = ingest.lastDeliveryNanos
        let elapsed = lastDelivery > 0 ? Double(lastDelivery - startNanos) / 1e9 : 0
        if environment("BENCH_VERBOSE") != nil { print("  start \(startNanos) last delivery \(lastDelivery)") }
        let statistics = binoban.statistics
        await instance.finish()
        let final = binoban.statistics
        let tally = ingest.finish()
        let handlerCPU = tally.handlerCPUSeconds
        let (bodies, wireBytes) = (tally.gzipBodies, tally.wireBytes)
        let lost = count - tally.deliveredBench
        let delivered = max(1, tally.deliveredBench)
        let perEvent = format(cpu * 1e6 / Double(delivered))
        let clientPerEvent = format((cpu - handlerCPU) * 1e6 / Double(delivered))
        let decoded = bodies > 0 ? ", \(bodies) gzip bodies decoded after the sample" : ""
        let cpuText: String =
            separateIngest
            ? "client process CPU \(format(cpu)) s, \(perEvent) µs per delivered event (the ingest's process: "
                + "\(format(tally.ingestProcessCPUSeconds)) s)"
            : "CPU \(format(cpu)) s, \(perEvent) µs CPU per delivered event (\(clientPerEvent) µs without the ingest "
                + "handler's \(format(handlerCPU)) s)"
        let costs = "\(cpuText), \(tally.requests) requests, \(wireBytes / delivered) wire bytes/event\(decoded)"
        let outcome: String =
            "lost \(lost) of \(count), duplicates \(tally.duplicates); statistics: \(statistics.digest); "
            + "after shutdown: \(final.digest); reported: \(instance.reports.summary); load \(loadAverage())"
        print(
            "  sample: \(format(elapsed)) s (track loop \(format(trackedSeconds)) s, \(costs)),\(flushText) \(outcome)")
        return elapsed
    }
}
