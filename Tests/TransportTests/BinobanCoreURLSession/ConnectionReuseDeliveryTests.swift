import BinobanCore
import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import Testing

@Suite("Binoban over kept-alive connections (127.0.0.1)")
struct ConnectionReuseDeliveryTests {
    @Test("an ingest that closes every seventh request's connection unanswered: every event arrives, none waits")
    func hangUpsOnReusedConnections() async throws {
        let delivered = LockedValue<[String]>([])
        let requests = LockedValue(0)
        // Idle connections stay open for five minutes (five seconds by default), so that every close the client
        // meets is one of the ingest's deliberate hang-ups, also on a machine slow enough to pause between requests.
        var keepingConnections = LoopbackHTTPServer.Configuration()
        keepingConnections.idleTimeout = .seconds(300)
        let server = LoopbackHTTPServer(
            responder: .handler { request in
                let index = requests.withLock { count -> Int in
                    count += 1
                    return count
                }
                if index % 7 == 0 { return .closeConnectionWithoutAnswer }
                guard let batch = try? UploadedBatch.decode(request.body) else { return .status(400) }
                delivered.withLock { $0 += batch.batch.map(\.messageId) }
                return .ok
            },
            configuration: keepingConnections
        )
        let port = try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reuse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        // The defaults but for the host, the directory and the request timeout: two minutes, longer than any slow
        // run (sanitizers, a loaded machine) takes, so that a timeout is a request that waited for a body.
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "reuse")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        let transport = TimeoutCountingTransport(
            URLSessionEventTransport(requestTimeout: .seconds(120), resourceTimeout: .seconds(300)))
        configuration.transport = transport
        configuration.storageDirectory = directory
        let binoban = Binoban.create(configuration: configuration)

        let tracked = 600
        for index in 0..<tracked { binoban.track(name: "e\(index)", properties: ["i": .int(index)]) }
        var rounds = 0
        while binoban.statistics.uploadedEvents < tracked, rounds < 50 {
            _ = await binoban.flushAndWait()
            rounds += 1
        }
        _ = await binoban.shutdown(gracePeriod: .seconds(5))

        let statistics = binoban.statistics
        #expect(Set(delivered.withLock { $0 }).count == tracked)
        #expect(statistics.uploadedEvents == tracked)
        #expect(statistics.dropped.total == 0)
        // A request that waited for a body that never came would have timed out.
        #expect(transport.timeouts == 0)
        // Connections are kept: one per hang-up, plus the few that concurrent uploads open.
        #expect(server.acceptedConnectionCount <= server.requestCount / 7 + 6)
    }
}

/// Passes every request to `base` and counts the ones that failed with `timedOut`.
private final class TimeoutCountingTransport: BinobanEventTransport {
    private let base: URLSessionEventTransport
    private let count = LockedValue(0)

    init(_ base: URLSessionEventTransport) {
        self.base = base
    }

    var timeouts: Int { count.withLock { $0 } }

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        do {
            return try await base.send(request)
        } catch let error as URLSessionEventTransportError {
            if error.reason == .timedOut { count.withLock { $0 += 1 } }
            throw error
        }
    }
}
