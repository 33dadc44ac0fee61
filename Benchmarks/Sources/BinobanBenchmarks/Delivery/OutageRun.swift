import BenchmarkSupport
import LoopbackHTTP

/// An outage at 1 000 events/s, at the default configuration (``DefaultInstance``).
///
/// `BENCH_MODE=outage`. The ingest is healthy for 5 s, then stopped (connections refused) for
/// `BENCH_OUTAGE_SECONDS` (default 600, the issue's 10 minutes: 600 000 events), then a new server is started on
/// the same port. The producer keeps tracking 1 000 events/s throughout and after recovery, until everything
/// tracked before recovery is delivered (at most 180 s after recovery); then it stops and the run waits up to
/// 60 s for the rest. It prints the events lost (tracked − distinct delivered), what the host was told, the
/// seconds from recovery until the backlog was delivered, and the resident memory and queue at their highest.
enum OutageRun {
    static func run() async {
        let outageSeconds = environmentInt("BENCH_OUTAGE_SECONDS", 600)
        let ingest = CountingIngest()
        var server = ingest.makeServer()
        guard let port = try? server.start() else {
            print("the loopback ingest could not start")
            return
        }
        print("outage: 1000 events/s, ingest down for \(outageSeconds) s after 5 s; load \(loadAverage())")
        let baseline = BacklogMemoryCase.residentBytes()
        let instance = DefaultInstance(port: port)
        let binoban = instance.binoban
        let producer = PacedProducer()
        let clock = ContinuousClock()
        var highestQueue = 0
        var highestResident = baseline
        var backlog = 0
        var recoverySeconds: Double?
        var restarted = true
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await producer.run(into: binoban, perSecond: 1000, maxSeconds: outageSeconds + 200) }
            let start = clock.now
            try? await Task.sleep(for: .seconds(5))
            server.stop()
            print("  down at t=5 s: produced \(producer.count), delivered \(ingest.deliveredBench)")
            var lastReport = 0
            while seconds(from: start, to: clock.now) < Double(outageSeconds + 5) {
                try? await Task.sleep(for: .milliseconds(500))
                highestQueue = max(highestQueue, binoban.statistics.queuedEvents)
                highestResident = max(highestResident, BacklogMemoryCase.residentBytes())
                let elapsed = Int(seconds(from: start, to: clock.now))
                if elapsed / 60 > lastReport {
                    lastReport = elapsed / 60
                    print(
                        "  t=\(elapsed) s: produced \(producer.count), queued \(binoban.statistics.queuedEvents), dropped \(binoban.statistics.dropped.total), resident +\(format(Double(highestResident - baseline) / 1_048_576)) MiB; load \(loadAverage())"
                    )
                }
            }
            server = ingest.makeServer(port: port)
            restarted = (try? server.start()) != nil
            let recovered = clock.now
            backlog = producer.count
            print(
                "  up at t=\(Int(seconds(from: start, to: recovered))) s (restart \(restarted ? "ok" : "FAILED")): backlog \(backlog) tracked, delivered \(ingest.deliveredBench); load \(loadAverage())"
            )
            while restarted, recovered.duration(to: clock.now) < .seconds(180) {
                let tally = ingest.tally.withLock { $0 }
                if tally.deliveredBench >= backlog {
                    recoverySeconds = seconds(from: recovered, to: tally.lastDelivery ?? clock.now)
                    break
                }
                highestQueue = max(highestQueue, binoban.statistics.queuedEvents)
                try? await Task.sleep(for: .milliseconds(50))
            }
            producer.stop()
        }
        let produced = producer.count
        let graceStart = clock.now
        while restarted, ingest.deliveredBench < produced, graceStart.duration(to: clock.now) < .seconds(60) {
            try? await Task.sleep(for: .milliseconds(100))
        }
        let delivered = ingest.deliveredBench
        let statistics = binoban.statistics
        let tally = ingest.tally.withLock { $0 }
        await instance.finish()
        server.stop()
        print(
            "produced \(produced), delivered \(delivered), lost \(produced - delivered), duplicates \(tally.duplicates)"
        )
        print(
            "seconds from recovery until the \(backlog) events tracked before it were delivered: \(recoverySeconds.map(format) ?? "not within 180 s")"
        )
        print(
            "host told: statistics.dropped.total \(statistics.dropped.total); error reports: \(instance.reports.summary)"
        )
        print("statistics: \(statistics.digest)")
        print(
            "highest queue \(highestQueue) events; highest resident \(format(Double(highestResident - baseline) / 1_048_576)) MiB above the run's baseline; load \(loadAverage())"
        )
    }
}
