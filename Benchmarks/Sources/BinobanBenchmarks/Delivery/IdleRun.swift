import BenchmarkSupport
import BinobanCore
import Foundation

/// `BENCH_MODE=idle`: what an instance with nothing to do costs. An instance at the default configuration (file
/// storage in a fresh directory, a transport that answers 200 at once) tracks one event and flushes it, is left a
/// second to settle, and then nothing happens for `BENCH_SECONDS` (default 10): the run prints the process's CPU
/// time and context switches per second over that window. The measuring thread's own sleep is one voluntary
/// switch; `BENCH_NO_TRACK=1` runs the same window with no instance, to subtract.
enum IdleRun {
    static func run() async {
        let seconds = Double(environmentInt("BENCH_SECONDS", 10))
        let directory = TemporaryDirectory()
        var binoban: Binoban?
        if environment("BENCH_NO_TRACK") == nil {
            var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
            configuration.apiHost = "127.0.0.1"
            configuration.transport = AtOnceTransport()
            configuration.storageDirectory = directory.url
            binoban = Binoban.create(configuration: configuration)
            binoban?.track(name: "purchase", properties: ["item": "shoes"])
            _ = await binoban?.flushAndWait()
        }
        OneAtATimeRun.sleep(untilMonotonic: OneAtATimeRun.monotonicSeconds() + 1)
        let before = OneAtATimeRun.Usage.now()
        OneAtATimeRun.sleep(untilMonotonic: OneAtATimeRun.monotonicSeconds() + seconds)
        let after = OneAtATimeRun.Usage.now()
        if environment("BENCH_VERBOSE") != nil { OneAtATimeRun.printThreadSwitches() }
        if let binoban { _ = await binoban.shutdown(gracePeriod: .seconds(5)) }
        directory.remove()
        let switches = (after.voluntary - before.voluntary) + (after.involuntary - before.involuntary)
        var line = "idle \(binoban == nil ? "no instance" : "instance") \(format(seconds)) s:"
        line += " cpu \(format((after.cpu - before.cpu) * 1e3 / seconds)) ms/s"
        line += ", switches \(format(Double(switches) / seconds))/s (\(switches) in all)"
        print(line + "  (load \(loadAverage()))")
    }
}
