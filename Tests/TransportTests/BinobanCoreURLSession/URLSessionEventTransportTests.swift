import BinobanCore
import BinobanCoreURLSession
import Dispatch
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionEventTransport")
struct URLSessionEventTransportTests {
    private static let apiKey = "test-api-key"

    /// A server that keeps an idle connection open for five minutes instead of five seconds: on a loaded machine
    /// a test can pause longer than the default between two requests, and the server's own close would then
    /// look like a connection the client failed to keep.
    private static var keepingConnections: LoopbackHTTPServer.Configuration {
        var configuration = LoopbackHTTPServer.Configuration()
        configuration.idleTimeout = .seconds(300)
        return configuration
    }

    private func upload(
        to server: LoopbackHTTPServer,
        body: Data = Data(
            #"{"batch":[{"type":"track","event":"Opened"}],"sentAt":"2026-01-01T00:00:00.000Z","writeKey":"src"}"#.utf8)
    ) throws -> BinobanTransportRequest {
        upload(to: try #require(server.url(path: "/b")), body: body)
    }

    private func upload(
        to url: URL,
        body: Data = Data(
            #"{"batch":[{"type":"track","event":"Opened"}],"sentAt":"2026-01-01T00:00:00.000Z","writeKey":"src"}"#.utf8)
    ) -> BinobanTransportRequest {
        BinobanTransportRequest(
            url: url,
            headers: [
                "Content-Type": "application/json",
                "User-Agent": "binoban-core-swift/1.2.3",
                "Authorization": "Basic " + Data("\(Self.apiKey):".utf8).base64EncodedString(),
            ],
            body: body
        )
    }

    /// A started server whose handler holds every answer until `release` is signalled (30 s at most).
    private func startServerThatHoldsItsAnswer() throws -> (LoopbackHTTPServer, release: DispatchSemaphore) {
        let release = DispatchSemaphore(value: 0)
        let server = LoopbackHTTPServer(
            responder: .handler { _ in
                _ = release.wait(timeout: .now() + 30)
                return .ok
            }
        )
        try server.start()
        return (server, release)
    }

    @Test("sends the method, headers, Basic authorization and body exactly")
    func sendsTheRequest() async throws {
        let server = LoopbackHTTPServer()
        try server.start()
        defer { server.stop() }
        let request = try upload(to: server)

        let response = try await URLSessionEventTransport().send(request)

        #expect(response.statusCode == 200)
        let received = try #require(server.requests.first)
        #expect(server.requestCount == 1)
        #expect(received.method == "POST")
        #expect(received.path == "/b")
        #expect(received.body == request.body)
        #expect(received.value(forHeader: "Content-Type") == "application/json")
        #expect(received.value(forHeader: "User-Agent") == "binoban-core-swift/1.2.3")
        #expect(received.value(forHeader: "Authorization") == "Basic dGVzdC1hcGkta2V5Og==")
        #expect(received.value(forHeader: "Content-Length") == "\(request.body.count)")
        #expect(!received.headers.contains("Cookie"))
    }

    @Test("uses the request's method")
    func method() async throws {
        let server = LoopbackHTTPServer()
        try server.start()
        defer { server.stop() }
        var request = try upload(to: server)
        request.method = "PUT"

        _ = try await URLSessionEventTransport().send(request)

        #expect(server.requests.map(\.method) == ["PUT"])
    }

    static let statuses = [200, 202, 204, 301, 302, 307, 400, 401, 413, 429, 500, 502, 503]

    @Test("returns every status class as it is, with the response headers", arguments: statuses)
    func statusClasses(status: Int) async throws {
        let server = LoopbackHTTPServer(
            responder: .always(
                .init(status: status, headers: ["Location": "/moved", "X-Request-Id": "r-\(status)"], text: "x")
            )
        )
        try server.start()
        defer { server.stop() }

        let response = try await URLSessionEventTransport().send(try upload(to: server))

        #expect(response.statusCode == status)
        #expect(response.value(forHeader: "x-request-id") == "r-\(status)")
        // Redirects are not followed: exactly one request reached the server.
        #expect(server.requests.map(\.path) == ["/b"])
    }

    @Test("exposes Retry-After of a 429 through value(forHeader:)")
    func retryAfter() async throws {
        let server = LoopbackHTTPServer(
            responder: .script([.status(429, headers: ["Retry-After": "2"])], then: .ok)
        )
        try server.start()
        defer { server.stop() }
        let transport = URLSessionEventTransport()

        let limited = try await transport.send(try upload(to: server))
        let accepted = try await transport.send(try upload(to: server))

        #expect(limited.statusCode == 429)
        #expect(limited.value(forHeader: "retry-after") == "2")
        #expect(limited.value(forHeader: "RETRY-AFTER") == "2")
        #expect(accepted.statusCode == 200)
        #expect(accepted.value(forHeader: "Retry-After") == nil)
    }

    @Test("throws cannotConnect when the server is down, without the URL in the error")
    func serverDown() async throws {
        // Held for the whole test: a port released at once could be taken by another test's server (a listener of
        // the hostile matrix, whose script this request would then use up).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let request = upload(to: try #require(URL(string: "http://127.0.0.1:\(refusing.port)/b")))

        let error = await #expect(throws: URLSessionEventTransportError.self) {
            try await URLSessionEventTransport().send(request)
        }

        #expect(error?.reason == .cannotConnect)
        #expect(error?.description.contains("127.0.0.1") == false)
        #expect(error?.description.contains(Self.apiKey) == false)
    }

    @Test("throws when the server hangs up without an answer")
    func hangUp() async throws {
        let server = LoopbackHTTPServer(responder: .always(.closeConnectionWithoutAnswer))
        try server.start()
        defer { server.stop() }

        await #expect(throws: URLSessionEventTransportError.self) {
            try await URLSessionEventTransport().send(try upload(to: server))
        }
    }

    @Test("a kept connection the server closed unanswered: the request starts over on a fresh one, without waiting")
    func hangUpOnAReusedConnection() async throws {
        let server = LoopbackHTTPServer(
            responder: .script([.ok, .closeConnectionWithoutAnswer], then: .ok), configuration: Self.keepingConnections)
        try server.start()
        defer { server.stop() }
        // libcurl re-sends a request whose kept connection was closed before any answer byte; under
        // FoundationNetworking that re-send carried the headers but not the body, and the request waited out its
        // whole timeout (Decision 0307). The exchange stops such a re-send and sends the request again.
        // A request that waited for its body would wait out this timeout: two minutes, far beyond any slow run.
        let transport = URLSessionEventTransport(requestTimeout: .seconds(120), resourceTimeout: .seconds(300))
        let request = try upload(to: server)

        let first = try await transport.send(request)
        let second = try await transport.send(request)

        // A request that waited for its body would have failed with `timedOut` after two minutes instead.
        #expect(first.statusCode == 200)
        #expect(second.statusCode == 200)
        // The closed request and the new attempt both reached the server whole; libcurl's headers-only re-send,
        // stopped at once, never completed a request.
        #expect(server.requests.map(\.body) == [request.body, request.body, request.body])
        #expect(server.acceptedConnectionCount <= 3)
    }

    @Test("throws timedOut when no answer comes within the request timeout")
    func timeout() async throws {
        let (server, release) = try startServerThatHoldsItsAnswer()
        defer {
            release.signal()
            server.stop()
        }

        let error = await #expect(throws: URLSessionEventTransportError.self) {
            try await URLSessionEventTransport(requestTimeout: .seconds(1)).send(try upload(to: server))
        }

        #expect(error?.reason == .timedOut)
        #expect(server.requestCount == 1)
    }

    @Test("a sub-second timeout still lets a prompt answer through (it is rounded up to a second)")
    func subSecondTimeout() async throws {
        let server = LoopbackHTTPServer()
        try server.start()
        defer { server.stop() }

        let response = try await URLSessionEventTransport(requestTimeout: .milliseconds(300)).send(
            try upload(to: server)
        )

        #expect(response.statusCode == 200)
    }

    @Test("rethrows the cancellation of the calling task as CancellationError")
    func cancellation() async throws {
        let (server, release) = try startServerThatHoldsItsAnswer()
        defer {
            release.signal()
            server.stop()
        }
        // A timeout far past any wait for the server, so that on a starved machine (seen under the thread sanitizer
        // beside the whole suite: 92 s before the cancel) the cancellation, not the timeout, ends the request.
        let transport = URLSessionEventTransport(requestTimeout: .seconds(600))
        let request = try upload(to: server)

        let upload = Task { try await transport.send(request) }
        _ = try await server.waitForRequests(count: 1)
        upload.cancel()

        await #expect(throws: CancellationError.self) { try await upload.value }
    }

    @Test("delivers a 500 KB body byte for byte")
    func largeBody() async throws {
        let server = LoopbackHTTPServer()
        try server.start()
        defer { server.stop() }
        var generator = SplitMix64(seed: 42)
        let body = Data((0..<500_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })

        let response = try await URLSessionEventTransport().send(try upload(to: server, body: body))

        #expect(response.statusCode == 200)
        #expect(server.requests.first?.body == body)
    }

    @Test("uploads one after another share one connection, with a plain Content-Length body")
    func connectionReuse() async throws {
        let server = LoopbackHTTPServer(configuration: Self.keepingConnections)
        try server.start()
        defer { server.stop() }
        let transport = URLSessionEventTransport()
        let request = try upload(to: server)

        for _ in 0..<20 {
            _ = try await transport.send(request)
        }

        #expect(server.requestCount == 20)
        #expect(server.acceptedConnectionCount == 1)
        for received in server.requests {
            #expect(received.body == request.body)
            #expect(received.value(forHeader: "Content-Length") == "\(request.body.count)")
            #expect(received.value(forHeader: "Transfer-Encoding") == nil)
            #expect(received.value(forHeader: "Connection")?.lowercased() != "close")
        }
    }

    @Test("a cross-origin 307 on a host-supplied session is the answer: nothing reaches the other origin")
    func crossOriginRedirectOnAHostSession() async throws {
        let elsewhere = LoopbackHTTPServer()
        try elsewhere.start()
        defer { elsewhere.stop() }
        let target = try #require(elsewhere.url(path: "/collect")).absoluteString
        let server = LoopbackHTTPServer(responder: .always(.init(status: 307, headers: ["Location": target])))
        try server.start()
        defer { server.stop() }
        // A session as a host makes one, with no delegate: FoundationNetworking follows redirects on it.
        let hostSession = URLSession(configuration: .default)
        defer { hostSession.finishTasksAndInvalidate() }

        let response = try await URLSessionEventTransport(session: hostSession).send(try upload(to: server))

        #expect(response.statusCode == 307)
        #expect(response.value(forHeader: "Location") == target)
        #expect(server.requestCount == 1)
        #expect(elsewhere.requestCount == 0)
    }

    @Test("a 10 MB answer body is not read: the status comes back once the head is in")
    func hugeAnswerBody() async throws {
        let bodySize = 10_000_000
        let server = try ScriptedAnswerServer { write in
            guard write(Array("HTTP/1.1 200 OK\r\nContent-Length: \(bodySize)\r\n\r\n".utf8)) else { return }
            // 64 KiB every 5 ms: about 0.8 s for the whole body, far longer than the client needs to stop.
            let piece = [UInt8](repeating: 0x61, count: 64 * 1024)
            for _ in 0..<(bodySize / piece.count) {
                guard write(piece) else { return }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        let request = BinobanTransportRequest(url: server.url(), headers: [:], body: Data("{}".utf8))

        let response = try await URLSessionEventTransport().send(request)

        #expect(response.statusCode == 200)
        // The client stopped reading and closed the connection once it had the status: the server's writes
        // failed before the end of the body (about a tenth of it on an idle machine).
        #expect(waitUntil { server.finishedAnswerCount == 1 })
        #expect(server.bytesWritten < bodySize)
    }

    @Test("an answer that trickles in byte by byte ends at the whole-request deadline")
    func tricklingAnswer() async throws {
        let server = try ScriptedAnswerServer { write in
            guard write(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".utf8)) else { return }
            // One byte every 200 ms keeps the no-progress timeout from ever firing; 120 s at most, after which the
            // connection closes with the body incomplete (`connectionLost`, not `timedOut`).
            for _ in 0..<600 {
                Thread.sleep(forTimeInterval: 0.2)
                guard write([0x61]) else { return }
            }
        }
        let request = BinobanTransportRequest(url: server.url(), headers: [:], body: Data("{}".utf8))
        let reported = ReportedRequestDurations()
        let transport = URLSessionEventTransport(
            session: nil, requestTimeout: .seconds(30), resourceTimeout: .seconds(2), ended: reported.hook)

        let error = await #expect(throws: URLSessionEventTransportError.self) { try await transport.send(request) }

        #expect(error?.reason == .timedOut)
        // Reported on the thread that ended the request, not this task's resumption (which a busy test process can
        // delay).
        let ended = try #require(await reported.total(), "the transport did not say when the request ended")
        #expect(ended < .seconds(30))
    }

    @Test("sends concurrent uploads intact")
    func concurrentUploads() async throws {
        let server = LoopbackHTTPServer()
        try server.start()
        defer { server.stop() }
        let transport = URLSessionEventTransport()
        let requests = try (0..<20).map { index in
            try upload(to: server, body: Data(String(repeating: "\(index % 10)", count: 1000 + index).utf8))
        }

        try await withThrowingTaskGroup(of: Int.self) { group in
            for request in requests {
                group.addTask { try await transport.send(request).statusCode }
            }
            for try await status in group {
                #expect(status == 200)
            }
        }

        #expect(Set(server.requests.map(\.body)) == Set(requests.map(\.body)))
    }
}
