import BenchmarkSupport

/// Delivery through a hostile ingest at the default configuration (``DefaultInstance``).
///
/// `BENCH_MODE=hostile`. The ingest answers the seeded ``IngestPlan/hostile(seed:)`` mix (30 % 500, 10 % 429
/// with `Retry-After` in both forms, 5 % resets, the rest 200); a producer tracks 1 000 events/s for
/// `BENCH_HOSTILE_SECONDS` (default 180), then the run waits up to `BENCH_GRACE_SECONDS` (default 60) for the
/// rest. It prints the share delivered at the end of production and after the grace period, the share lost and
/// what the host was told, and the requests that arrived inside a `Retry-After` window the ingest had given.
/// `BENCH_SEED` (default 9) changes the mix.
enum HostileMixRun {
    static func run() async {
        let produceSeconds = environmentInt("BENCH_HOSTILE_SECONDS", 180)
        let graceSeconds = environmentInt("BENCH_GRACE_SECONDS", 60)
        let seed = UInt64(environmentInt("BENCH_SEED", 9))
        let ingest = CountingIngest(plan: .hostile(seed: seed))
        let server = ingest.makeServer()
        guard let port = try? server.start() else {
            print("the loopback ingest could not start")
            return
        }
        defer { server.stop() }
        print(
            "hostile mix: seed \(seed), 1000 events/s for \(produceSeconds) s, grace \(graceSeconds) s; load \(loadAverage())"
        )
        let ingestTally = ingest.tally
        let ledger = RetryAfterLedger { header in ingestTally.withLock { $0.dateWindowEnds[header] } }
        let instance = DefaultInstance(port: port, ledger: ledger)
        let binoban = instance.binoban
        let producer = PacedProducer()
        let clock = ContinuousClock()
        let cpuBefore = processCPUSeconds()
        var highestQueue = 0
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await producer.run(into: binoban, perSecond: 1000, maxSeconds: produceSeconds) }
            let start = clock.now
            var lastReport = 0
            while seconds(from: start, to: clock.now) < Double(produceSeconds) + 1,
                producer.count < produceSeconds * 1000
            {
                try? await Task.sleep(for: .milliseconds(250))
                highestQueue = max(highestQueue, binoban.statistics.queuedEvents)
                let elapsed = Int(seconds(from: start, to: clock.now))
                if elapsed / 30 > lastReport {
                    lastReport = elapsed / 30
                    print(
                        "  t=\(elapsed) s: produced \(producer.count), delivered \(ingest.deliveredBench), queued \(binoban.statistics.queuedEvents); load \(loadAverage())"
                    )
                }
            }
            producer.stop()
        }
        let produced = producer.count
        let deliveredAtEnd = ingest.deliveredBench
        let graceStart = clock.now
        while ingest.deliveredBench < produced, graceStart.duration(to: clock.now) < .seconds(graceSeconds) {
            try? await Task.sleep(for: .milliseconds(100))
        }
        let graceUsed = seconds(from: graceStart, to: clock.now)
        let delivered = ingest.deliveredBench
        let statistics = binoban.statistics
        let tally = ingest.tally.withLock { $0 }
        let cpu = processCPUSeconds() - cpuBefore
        await instance.finish()
        func share(_ part: Int) -> String { format(100 * Double(part) / Double(max(1, produced))) + " %" }
        print("produced \(produced); delivered at the end of production \(deliveredAtEnd) (\(share(deliveredAtEnd)))")
        print(
            "delivered after \(format(graceUsed)) s of grace: \(delivered) (\(share(delivered))); lost \(produced - delivered) (\(share(produced - delivered)))"
        )
        print(
            "host told: statistics.dropped.total \(statistics.dropped.total); error reports: \(instance.reports.summary)"
        )
        print("statistics: \(statistics.digest); highest queue \(highestQueue) events")
        print(
            "ingest: \(tally.requests) requests: 200 \(tally.answered200), 500 \(tally.answered500), 429 \(tally.answered429), "
                + "resets \(tally.resets), undecodable \(tally.undecodable); duplicates \(tally.duplicates)")
        print(
            "requests inside a Retry-After window: \(tally.insideRetryAfter) "
                + "(of which more than 100 ms after the 429 was written: \(tally.insideRetryAfterClearly))")
        let client = ledger.counts
        print(
            "client side: \(client.requests) requests begun, \(client.windows) Retry-After windows received, "
                + "requests begun inside a received window: \(client.beganInside)")
        print("process CPU \(format(cpu)) s; load \(loadAverage())")
    }
}
