import BinobanCore
import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

/// A hostile ingest on 127.0.0.1: a seeded mix of 500, 429 with `Retry-After` (delay-seconds and HTTP-date), 400,
/// connection resets and an outage, recording what it accepted and the windows it asked clients to stay away.
private final class HostileIngest: Sendable {
    struct Window: Sendable {
        var from: Date
        var until: Date
    }

    private struct State {
        var random: SplitMix64
        var index = 0
        var delivered: [String] = []
        var rejected = 0
        var arrivals: [Date] = []
        var windows: [Window] = []
    }

    private let state: LockedValue<State>
    /// Requests in this index range all get 503: an outage.
    let outage: Range<Int>

    init(seed: UInt64, outage: Range<Int>) {
        state = LockedValue(State(random: SplitMix64(seed: seed)))
        self.outage = outage
    }

    var delivered: [String] { state.withLock { $0.delivered } }
    var arrivals: [Date] { state.withLock { $0.arrivals } }
    var windows: [Window] { state.withLock { $0.windows } }
    var requestCount: Int { state.withLock { $0.index } }

    func answer(_ request: LoopbackHTTPRequest) -> LoopbackHTTPResponse {
        let now = Date()
        return state.withLock { state in
            defer { state.index += 1 }
            state.arrivals.append(now)
            if outage.contains(state.index) { return .status(503) }
            let roll = state.random.next() % 100
            switch roll {
            case 0..<25: return .status(500)
            case 25..<29:
                // Retry-After: alternately delay-seconds and an HTTP-date 2 s ahead (whole seconds, so 1–2 s).
                if state.index % 2 == 0 {
                    state.windows.append(Window(from: now, until: now.addingTimeInterval(1)))
                    return .status(429, headers: ["Retry-After": "1"])
                }
                let until = Date(timeIntervalSince1970: (now.timeIntervalSince1970 + 2).rounded(.down))
                state.windows.append(Window(from: now, until: until))
                return .status(503, headers: ["Retry-After": Self.httpDate(until)])
            case 29..<34: return .closeConnectionWithoutAnswer
            case 34..<36:
                state.rejected += 1
                return .status(400)
            default:
                guard let batch = try? UploadedBatch.decode(request.body) else { return .status(400) }
                state.delivered += batch.batch.map(\.messageId)
                return .ok
            }
        }
    }

    private static func httpDate(_ date: Date) -> String {
        formatter.string(from: date)
    }

    static func parseHTTPDate(_ text: String) -> Date? {
        formatter.date(from: text)
    }

    private static var formatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}

/// Wraps the real transport and notes when each request started and when its answer came back, with the
/// `Retry-After` delay it carried, so a test can check the client's side of every window.
private final class TimingTransport: BinobanEventTransport {
    struct Exchange: Sendable {
        var started: ContinuousClock.Instant
        var answered: ContinuousClock.Instant
        var retryAfter: Duration?
    }

    private let base: any BinobanEventTransport
    private let log = LockedValue<[Exchange]>([])

    init(_ base: any BinobanEventTransport) {
        self.base = base
    }

    var exchanges: [Exchange] { log.withLock { $0 } }

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let started = ContinuousClock.now
        let response = try await base.send(request)
        let answered = ContinuousClock.now
        var retryAfter: Duration?
        if let value = response.value(forHeader: "Retry-After") {
            if let seconds = Int(value) {
                retryAfter = .seconds(seconds)
            } else if let date = HostileIngest.parseHTTPDate(value) {
                retryAfter = .milliseconds(Int64(date.timeIntervalSinceNow * 1000))
            }
        }
        log.withLock { $0.append(Exchange(started: started, answered: answered, retryAfter: retryAfter)) }
        return response
    }
}

@Suite("Binoban under a hostile ingest (127.0.0.1)")
struct BinobanChaosTests {
    @Test("500s, 429/503 with Retry-After, 400s, resets and an outage: every event delivered or counted as dropped")
    func hostileMix() async throws {
        let ingest = HostileIngest(seed: 9, outage: 20..<40)
        let server = LoopbackHTTPServer(responder: .handler { ingest.answer($0) })
        let port = try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chaos-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reports = LockedValue<[BinobanError]>([])

        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "chaos")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        // A reset answered by nothing costs the request timeout: keep it short here.
        let transport = TimingTransport(URLSessionEventTransport(requestTimeout: .seconds(1)))
        configuration.transport = transport
        configuration.storageDirectory = directory
        // Short backoffs keep the test quick; Retry-After windows are honoured at full length.
        configuration.backoffBase = .milliseconds(20)
        configuration.backoffMax = .milliseconds(200)
        // Small batches (about 17 events) so that the mix meets a hundred requests and more.
        configuration.storageLimits.maxBatchBytes = 10_000
        configuration.errorHandler = { error in reports.withLock { $0.append(error) } }
        let binoban = Binoban.create(configuration: configuration)

        let tracked = 1500
        for index in 0..<tracked { binoban.track(name: "e\(index)", properties: ["i": .int(index)]) }
        // Awaited flushes end early when a batch is kept after its retries; flush again until all is settled.
        var rounds = 0
        while binoban.statistics.uploadedEvents + binoban.statistics.dropped.total < tracked, rounds < 200 {
            _ = await binoban.flushAndWait()
            rounds += 1
        }
        _ = await binoban.shutdown(gracePeriod: .seconds(5))

        let statistics = binoban.statistics
        let delivered = ingest.delivered
        let distinct = Set(delivered)
        // Nothing lost silently: what the ingest misses is exactly what the host was told, as numbers.
        #expect(statistics.acceptedEvents == tracked)
        #expect(tracked - distinct.count == statistics.dropped.total)
        let dropKinds: Set<BinobanError.Kind> = [
            .batchRejected, .storageEviction, .storageFull, .writeStageOverflow, .oversizeEvent, .pausedDrop,
        ]
        let reported = reports.withLock { $0 }.filter { dropKinds.contains($0.kind) }.reduce(0) { $0 + $1.eventCount }
        #expect(reported == statistics.dropped.total)
        #expect(statistics.dropped.total == statistics.dropped.rejected)
        #expect(statistics.uploadedEvents == distinct.count)
        // At least once, deduplicable by messageId: a batch arrives twice only when its first answer was lost (a
        // request that timed out after the ingest took it), never otherwise.
        #expect(delivered.count - distinct.count <= statistics.requests.noAnswer * 40)
        // No request started inside a Retry-After window, counted from when the client received it. Requests the
        // pipeline had issued before it processed that answer may still start in its first moments (300 ms on a
        // loaded machine); none may start after.
        let exchanges = transport.exchanges
        let windows = exchanges.compactMap { exchange in exchange.retryAfter.map { (exchange.answered, $0) } }
        for (from, delay) in windows {
            let inside = exchanges.filter {
                $0.started > from.advanced(by: .milliseconds(300))
                    && $0.started < from.advanced(by: delay - .milliseconds(5))
            }
            #expect(inside.isEmpty, "\(inside.count) requests inside a \(delay) Retry-After window")
        }
        #expect(!ingest.windows.isEmpty)
        #expect(statistics.requests.transientFailures + statistics.requests.noAnswer > 20)
    }
}
