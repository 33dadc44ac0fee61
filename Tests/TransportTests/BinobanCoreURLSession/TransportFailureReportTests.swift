import BinobanCore
import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import SDKCoreCommon
import TestSupport
import Testing

/// The transport's reason for a request without an answer reaches the host: in the `uploadFailed` report
/// (`BinobanError.transportFailure`) and in the delivery observer's `keptForRetry` report, against real sockets on
/// 127.0.0.1. The clock is virtual: with no retry, nothing waits for a backoff.
@Suite("Transport failures reach the reports")
struct TransportFailureReportTests {
    struct Run {
        var result: BinobanFlushResult
        var errors: [BinobanError]
        var deliveries: [BinobanDelivery]
        var statistics: BinobanStatistics
    }

    /// Tracks one event to `apiHost` through `transport` with no retry, and returns what the host was told.
    static func run(apiHost: String, transport: any BinobanEventTransport) async -> Run {
        let errors = LockedValue<[BinobanError]>([])
        let deliveries = DeliveryRecorder()
        let clock = ManualClock()
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "reasons")
        configuration.apiHost = apiHost
        configuration.transport = transport
        configuration.storage = InMemoryEventStorage(writeKey: "reasons")
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource = SeededRandomSource(seed: 5)
        configuration.uploadMaxRetries = 0
        configuration.deliveryObserver = deliveries
        configuration.errorHandler = { error in errors.withLock { $0.append(error) } }
        let binoban = Binoban.create(configuration: configuration)
        _ = await binoban.flushAndWait()  // the startup flush
        binoban.track(name: "purchase")
        let result = await binoban.flushAndWait()
        // Published before the flush returns.
        let statistics = binoban.statistics
        _ = await binoban.shutdown(gracePeriod: .zero)
        return Run(
            result: result, errors: errors.withLock { $0 }, deliveries: deliveries.deliveries, statistics: statistics)
    }

    static func checkKept(_ run: Run, reason: BinobanTransportFailure.Reason, detail: String) {
        #expect(run.result.outcome == .keptForRetry)
        #expect(run.statistics.requests.noAnswer == 1)
        #expect(run.statistics.queuedEvents == 1)
        let report = run.errors.first { $0.kind == .uploadFailed }
        #expect(report?.transportFailure == BinobanTransportFailure(reason: reason, detail: detail), "\(run.errors)")
        #expect(report?.message.contains("no answer: \(reason) (\(reason.explanation)") == true, "\(run.errors)")
        let kept = run.deliveries.filter { !$0.outcome.isFinal }
        #expect(kept.count == 1, "\(run.deliveries)")
        #expect(kept.first?.eventCount == 1)
        #expect(kept.first?.messageIds.count == 1)
        let expected = BinobanUploadFailure.noAnswer(BinobanTransportFailure(reason: reason, detail: detail))
        #expect(kept.first?.outcome == .keptForRetry(expected), "\(run.deliveries)")
        // A kept report is not final: it adds to no statistic, and nothing else finished.
        #expect(run.deliveries.allSatisfy { !$0.outcome.isFinal })
    }

    #if os(Linux)
    @Test("libcurl, nothing listening: refused, with curl's code")
    func curlRefused() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let run = await Self.run(apiHost: "http://127.0.0.1:\(refusing.port)", transport: CurlEventTransport())
        Self.checkKept(run, reason: .refused, detail: "curl code 7")
    }

    @Test("libcurl, a plain-HTTP ingest addressed over TLS: notTLS, and the report names http://")
    func curlPlainAnswerToTLS() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        // No scheme: HTTPS, as for any host.
        let run = await Self.run(apiHost: "127.0.0.1:\(port)", transport: CurlEventTransport())
        let report = run.errors.first { $0.kind == .uploadFailed }
        #expect(report?.transportFailure?.reason == .notTLS, "\(run.errors)")
        #expect(report?.message.contains("needs http://") == true, "\(run.errors)")
        let failure = report?.transportFailure ?? BinobanTransportFailure(reason: .other)
        #expect(run.deliveries.map(\.outcome) == [.keptForRetry(.noAnswer(failure))])
        #expect(server.requests.isEmpty)
    }
    #endif

    @Test("URLSession, nothing listening: refused, with the URLError code")
    func urlSessionRefused() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let run = await Self.run(apiHost: "http://127.0.0.1:\(refusing.port)", transport: URLSessionEventTransport())
        Self.checkKept(run, reason: .refused, detail: "URLError -1004")
    }

    @Test("A status that is retried is the kept batch's failure, and the report says it")
    func statusKept() async throws {
        let server = LoopbackHTTPServer(responder: .always(.status(503)))
        let port = try server.start()
        defer { server.stop() }
        let run = await Self.run(apiHost: "http://127.0.0.1:\(port)", transport: URLSessionEventTransport())
        #expect(run.result.outcome == .keptForRetry)
        #expect(run.deliveries.map(\.outcome) == [.keptForRetry(.status(503))])
        let report = run.errors.first { $0.kind == .uploadFailed }
        #expect(report?.transportFailure == nil)
        #expect(report?.message.contains("still failed (status 503) after 0 retries") == true, "\(run.errors)")
    }

    @Test("Errors that name no reason: cancellation, and another transport's error by its type only")
    func errorsWithoutAReason() {
        struct SecretError: Error, CustomStringConvertible {
            var description: String { "https://ingest.example/b?token=SECRET" }
        }
        #expect(BinobanTransportFailure(CancellationError()).reason == .cancelled)
        let other = BinobanTransportFailure(SecretError())
        #expect(other == BinobanTransportFailure(reason: .other, detail: "SecretError"))
        #expect(!"\(other)".contains("SECRET"))
        let timedOut = URLSessionEventTransportError(reason: .timedOut, urlErrorCode: -1001)
        #expect(
            BinobanTransportFailure(timedOut) == BinobanTransportFailure(reason: .timeout, detail: "URLError -1001"))
        let dns = URLSessionEventTransportError(reason: .cannotConnect, urlErrorCode: -1003)
        #expect(BinobanTransportFailure(dns).reason == .dns)
        let certificate = URLSessionEventTransportError(reason: .secureConnectionFailed, urlErrorCode: -1202)
        #expect(BinobanTransportFailure(certificate).reason == .certificate)
        let coarse = URLSessionEventTransportError(reason: .connectionLost, urlErrorCode: nil)
        #expect(BinobanTransportFailure(coarse) == BinobanTransportFailure(reason: .closedEarly))
        #if os(Linux)
        let curl = CurlEventTransportError(reason: .reset, curlCode: 56)
        #expect("\(BinobanTransportFailure(curl))" == "reset (the connection was reset; curl code 56)")
        #endif
    }
}
