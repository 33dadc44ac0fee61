import BenchmarkSupport
import BinobanCore
import BinobanCoreURLSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `BENCH_MODE=waiting-cost`: what the client's process spends while nothing happens but waiting, against the
/// separate-process ingest of `Scripts/real-ingest/` answering after a long delay
/// (`Scripts/real-ingest/waiting-cost.sh` runs both).
///
/// A default-configuration instance (the transport's default timeouts, 30 s and 60 s, hold a 5 s answer) sends
/// one batch of 20 events on a new connection, then one on the kept connection, each answered after the
/// ingest's delay; then it sits idle for `REAL_INGEST_IDLE_SECONDS` (default 30). For each phase it prints the
/// process's CPU (`getrusage`, user + system, every thread) and how long the phase lasted. The instance is
/// polled every 100 ms for its uploaded count, which the figures include.
enum WaitingCostRun {
    static func run() async {
        guard let host = environment("REAL_INGEST_HOST") else {
            print("waiting-cost: set REAL_INGEST_HOST (see Scripts/real-ingest/waiting-cost.sh)")
            return
        }
        let idleSeconds = max(1, environmentInt("REAL_INGEST_IDLE_SECONDS", 30))
        let directory = TemporaryDirectory()
        var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
        configuration.apiHost = host
        BenchTransport.configure(&configuration)
        configuration.storageDirectory = directory.url
        let binoban = Binoban.create(configuration: configuration)
        try? await Task.sleep(for: .seconds(1))

        for (phase, target) in [("first batch, new connection", 20), ("second batch, kept connection", 40)] {
            let (cpu, wall) = await measure {
                for index in 0..<20 {
                    binoban.track(name: CountingIngest.benchEventName, properties: DefaultInstance.properties(index))
                }
                while binoban.statistics.uploadedEvents < target {
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
            print(
                "waiting-cost (\(BenchTransport.name)): \(phase): answered after \(format(wall)) s, process CPU \(format(cpu * 1000)) ms"
            )
        }
        let (cpu, wall) = await measure { try? await Task.sleep(for: .seconds(idleSeconds)) }
        print("waiting-cost: idle instance: \(format(wall)) s, process CPU \(format(cpu * 1000)) ms")
        _ = await binoban.shutdown(gracePeriod: .seconds(2))
    }

    /// The process CPU seconds and the wall-clock seconds that `body` took.
    private static func measure(_ body: () async -> Void) async -> (cpu: Double, wall: Double) {
        let cpuBefore = processCPUSeconds()
        let clock = ContinuousClock()
        let started = clock.now
        await body()
        let wall = started.duration(to: clock.now)
        let (seconds, attoseconds) = wall.components
        return (processCPUSeconds() - cpuBefore, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
