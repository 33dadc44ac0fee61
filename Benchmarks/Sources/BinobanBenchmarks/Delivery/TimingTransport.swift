import BenchmarkSupport
import BinobanCore

/// Wraps the default transport to watch what the client does, which the ingest's own log cannot show.
///
/// With `tracesSlowRequests` (`BENCH_TRACE_TRANSPORT=1`) it prints every request that took a second or more, with
/// how it ended (a request that never reached the ingest). With a ``RetryAfterLedger`` it records when each
/// request began and each `429` came back, so a request the client *began* inside a `Retry-After` window it had
/// already received is counted exactly, whatever the time the request took to reach the ingest.
struct TimingTransport: BinobanEventTransport {
    let inner: any BinobanEventTransport
    let start: ContinuousClock.Instant
    var tracesSlowRequests = true
    var ledger: RetryAfterLedger?

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let clock = ContinuousClock()
        let began = clock.now
        ledger?.requestBegan(at: began)
        do {
            let response = try await inner.send(request)
            if response.statusCode == 429, let header = response.value(forHeader: "Retry-After") {
                ledger?.windowReceived(at: clock.now, header: header)
            }
            report(began, "status \(response.statusCode)")
            return response
        } catch {
            report(began, "error \(error)")
            throw error
        }
    }

    private func report(_ began: ContinuousClock.Instant, _ outcome: String) {
        guard tracesSlowRequests else { return }
        let took = began.duration(to: ContinuousClock().now)
        guard took >= .seconds(1) else { return }
        print("  transport: request sent at t=\(format(seconds(from: start, to: began))) s took \(took): \(outcome)")
    }
}

/// The client's side of the `Retry-After` check: the windows the client received (from the moment the `429` came
/// back until the header says) and the requests it began inside one of them.
final class RetryAfterLedger: Sendable {
    private struct State {
        var windows: [(received: ContinuousClock.Instant, end: ContinuousClock.Instant)] = []
        var requests = 0
        var beganInsideAWindow = 0
        var windowsReceived = 0
    }

    private let state = Locked(State())
    /// The end of the window an HTTP-date names, as the ingest computed it when it wrote the header.
    private let dateWindowEnd: @Sendable (String) -> ContinuousClock.Instant?

    init(dateWindowEnd: @escaping @Sendable (String) -> ContinuousClock.Instant?) {
        self.dateWindowEnd = dateWindowEnd
    }

    func requestBegan(at instant: ContinuousClock.Instant) {
        state.withLock { state in
            state.requests += 1
            if state.windows.contains(where: { $0.received <= instant && instant < $0.end }) {
                state.beganInsideAWindow += 1
            }
        }
    }

    func windowReceived(at instant: ContinuousClock.Instant, header: String) {
        let end: ContinuousClock.Instant?
        if let seconds = Int(header) {
            end = instant.advanced(by: .seconds(seconds))
        } else {
            end = dateWindowEnd(header)
        }
        guard let end else { return }
        state.withLock { state in
            state.windowsReceived += 1
            state.windows.append((instant, end))
        }
    }

    /// Requests begun, `Retry-After` windows received, and requests begun inside a received window.
    var counts: (requests: Int, windows: Int, beganInside: Int) {
        state.withLock { ($0.requests, $0.windowsReceived, $0.beganInsideAWindow) }
    }
}
