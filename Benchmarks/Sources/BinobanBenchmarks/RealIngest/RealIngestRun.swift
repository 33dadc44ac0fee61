import BenchmarkSupport
import BinobanCore
import BinobanCoreURLSession

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `BENCH_MODE=real-ingest`: SDK Core's side of the delivery benchmark against an ingest in a process of its
/// own (`Scripts/real-ingest/`), driven by `Scripts/real-ingest/compare.py` beside segment-analytics-python.
///
/// The instance is the default configuration a server user creates: the API key, the source, `apiHost` from
/// ``RealIngestSettings``, the platform's default transport (`BENCH_TRANSPORT=urlsession` for URLSession) and a fresh storage directory; nothing else is set. One
/// producer tracks at a steady rate (``PacedProducer``) or in a tight-loop burst, calls no flush, and the run
/// waits until the ingest's progress file says it holds every event (or patience runs out). The CPU figure is
/// this process's (`getrusage`, user + system, every thread) from before the instance was created until the
/// wait ended; the shutdown afterwards is not counted. Beside it the line gives the CPU the process spent before
/// this code ran (loading and the Swift runtime's start) and the CPU of the libcurl transport's engine thread
/// (`sdkcore-curl`, Linux), so that the transport's share can be told apart. With `REAL_INGEST_IDLE=1` the
/// producer ticks at the same pace but tracks nothing: the run's CPU is then the start-up, the calling loop and
/// an idle instance, to subtract. It prints one line, `result {json}`: the driver reads losses, latency and
/// connection counts from the ingest's own report.
enum RealIngestRun {
    static func run() async {
        guard let settings = RealIngestSettings.fromEnvironment() else {
            print("real-ingest: set REAL_INGEST_HOST and REAL_INGEST_PROGRESS (see RealIngestSettings.swift)")
            return
        }
        let progress = IngestProgressFile(path: settings.progressPath)
        let directory = TemporaryDirectory()
        let reports = ErrorReportTally()
        let cpuBefore = processCPUSeconds()
        let idle = environment("REAL_INGEST_IDLE") == "1"
        let start = Date().timeIntervalSince1970
        var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
        configuration.apiHost = settings.apiHost
        BenchTransport.configure(&configuration)
        configuration.storageDirectory = directory.url
        configuration.errorHandler = { reports.record($0) }
        let binoban = Binoban.create(configuration: configuration)
        let clock = ContinuousClock()
        let began = clock.now
        if settings.rate == 0 {
            for index in 0..<settings.burstEvents {
                binoban.track(name: CountingIngest.benchEventName, properties: DefaultInstance.properties(index))
            }
        } else {
            await PacedProducer().run(
                into: binoban, perSecond: settings.rate, maxSeconds: settings.seconds, tracking: !idle)
        }
        let produced = clock.now
        var (held, lastReceive) = progress.read()
        var lastChange = clock.now
        let expected = idle ? 0 : settings.events
        while held < expected, began.duration(to: clock.now) < .seconds(settings.limitSeconds),
            lastChange.duration(to: clock.now) < .seconds(settings.patienceSeconds)
        {
            try? await Task.sleep(for: .milliseconds(50))
            let now = progress.read()
            if now.held != held {
                (held, lastReceive) = now
                lastChange = clock.now
            }
        }
        let waited = clock.now
        let cpu = processCPUSeconds() - cpuBefore
        let engineCPU = ThreadCPU.seconds(named: "sdkcore-curl")
        let statistics = binoban.statistics
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
        directory.remove()
        let fields: [(String, String)] = [
            ("client", quoted("SDK Core")),
            ("tracked", "\(expected)"),
            ("cpu_seconds", "\(cpu)"),
            ("cpu_before_run_seconds", "\(cpuBefore)"),
            ("engine_thread_cpu_seconds", engineCPU.map { "\($0)" } ?? "null"),
            ("start", "\(start)"),
            ("produce_seconds", "\(seconds(from: began, to: produced))"),
            ("wait_seconds", "\(seconds(from: produced, to: waited))"),
            ("held_at_end", "\(held)"),
            ("last_receive", "\(lastReceive)"),
            ("reported_drops", "\(reports.droppedEventsReported)"),
            ("statistics", quoted(statistics.digest)),
            ("reports", quoted(reports.summary)),
            ("settings", quoted("defaults")),
        ]
        print("result {" + fields.map { "\(quoted($0.0)): \($0.1)" }.joined(separator: ", ") + "}")
    }

    /// `text` as a JSON string.
    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20: result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
