import BenchmarkSupport
import BinobanCore
import BinobanCoreURLSession

/// An instance at the default configuration, as a server user would create it: only the API key, the source,
/// `apiHost` on 127.0.0.1 over http, `URLSessionEventTransport` and a fresh storage directory. The error handler
/// only records what the host is told; nothing is tuned.
struct DefaultInstance {
    let binoban: Binoban
    let reports: ErrorReportTally
    let directory: TemporaryDirectory

    /// With `compressed`, the one setting changed is ``Configuration/compressesUploads``; a `ledger` wraps the
    /// transport in a ``TimingTransport`` that records the client's requests and `Retry-After` windows.
    init(port: UInt16, compressed: Bool = false, ledger: RetryAfterLedger? = nil) {
        directory = TemporaryDirectory()
        reports = ErrorReportTally()
        var configuration = Configuration(apiKey: "BENCH_KEY", sourceIdentifier: "bench-source")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.transport = URLSessionEventTransport()
        let traces = environment("BENCH_TRACE_TRANSPORT") != nil
        if traces || ledger != nil {
            configuration.transport = TimingTransport(
                inner: URLSessionEventTransport(), start: ContinuousClock().now, tracesSlowRequests: traces,
                ledger: ledger)
        }
        configuration.storageDirectory = directory.url
        if compressed { configuration.compressesUploads = true }
        let reports = self.reports
        configuration.errorHandler = { reports.record($0) }
        binoban = Binoban.create(configuration: configuration)
    }

    /// Shuts the instance down and removes its directory.
    func finish() async {
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
        directory.remove()
    }

    /// Three small properties, as in the other cases.
    @inline(__always)
    static func properties(_ index: Int) -> JSONValue {
        ["item": "shoes", "price": 49.99, "index": .int(index)]
    }
}

/// Everything the error handler delivered: reports and their `eventCount`s by kind.
final class ErrorReportTally: Sendable {
    private let counts = Locked([String: (reports: Int, events: Int)]())
    private let adjustments = Locked([String]())

    func record(_ error: BinobanError) {
        if error.kind == .configurationAdjusted { adjustments.withLock { $0.append(error.message) } }
        counts.withLock { counts in
            let old = counts[error.kind.name] ?? (0, 0)
            counts[error.kind.name] = (old.reports + 1, old.events + error.eventCount)
        }
    }

    /// The sum of `eventCount` over reports of the drop kinds.
    var droppedEventsReported: Int {
        let dropKinds: Set<String> = [
            "writeStageOverflow", "oversizeEvent", "storageEviction", "storageFull", "pausedDrop", "batchRejected",
        ]
        return counts.withLock { $0.filter { dropKinds.contains($0.key) }.reduce(0) { $0 + $1.value.events } }
    }

    /// `kind: N reports / M events`, sorted by kind.
    var summary: String {
        let entries = counts.withLock { $0 }.sorted { $0.key < $1.key }
        if entries.isEmpty { return "none" }
        let text = entries.map { "\($0.key) \($0.value.reports)×/\($0.value.events) ev" }.joined(separator: ", ")
        let adjusted = adjustments.withLock { $0 }
        return adjusted.isEmpty ? text : text + " [adjusted: " + adjusted.joined(separator: "; ") + "]"
    }
}

extension BinobanStatistics {
    /// A one-line digest: accepted, stored, uploaded, queued, drops by reason, requests by outcome.
    var digest: String {
        var drops: [String] = []
        if dropped.writeStageOverflow > 0 { drops.append("writeStage \(dropped.writeStageOverflow)") }
        if dropped.storageEviction > 0 { drops.append("evicted \(dropped.storageEviction)") }
        if dropped.storageFull > 0 { drops.append("full \(dropped.storageFull)") }
        if dropped.rejected > 0 { drops.append("rejected \(dropped.rejected)") }
        if dropped.oversize > 0 { drops.append("oversize \(dropped.oversize)") }
        if dropped.paused > 0 { drops.append("paused \(dropped.paused)") }
        if dropped.storageFailure > 0 { drops.append("storageFailure \(dropped.storageFailure)") }
        let dropText = drops.isEmpty ? "0" : "\(dropped.total) (\(drops.joined(separator: ", ")))"
        return
            "accepted \(acceptedEvents), stored \(storedEvents), uploaded \(uploadedEvents), queued \(queuedEvents), "
            + "dropped \(dropText); requests ok \(requests.accepted) / transient \(requests.transientFailures) / "
            + "no answer \(requests.noAnswer) / rejected \(requests.rejected), retried \(retriedRequests)"
    }
}
