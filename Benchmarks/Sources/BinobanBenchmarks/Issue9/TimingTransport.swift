import BenchmarkSupport
import BinobanCore

/// `BENCH_TRACE_TRANSPORT=1`: wraps the default transport and prints every request that took a second or more,
/// with how it ended, to find stalls that the ingest's own log cannot show (a request that never reached it).
struct TimingTransport: BinobanEventTransport {
    let inner: any BinobanEventTransport
    let start: ContinuousClock.Instant

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let clock = ContinuousClock()
        let began = clock.now
        do {
            let response = try await inner.send(request)
            report(began, "status \(response.statusCode)")
            return response
        } catch {
            report(began, "error \(error)")
            throw error
        }
    }

    private func report(_ began: ContinuousClock.Instant, _ outcome: String) {
        let took = began.duration(to: ContinuousClock().now)
        guard took >= .seconds(1) else { return }
        print("  transport: request sent at t=\(format(seconds(from: start, to: began))) s took \(took): \(outcome)")
    }
}
