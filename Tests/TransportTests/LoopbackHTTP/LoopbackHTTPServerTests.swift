import Foundation
import LoopbackHTTP
import Testing

@Suite("LoopbackHTTPServer")
struct LoopbackHTTPServerTests {
    // MARK: Recording and answering

    @Test("records method, path, query, headers and version, and answers 200 by default")
    func recordsARequest() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send(
            "GET /v1/items?name=a%20b&flag&x=1%2B2 HTTP/1.1\r\nHost: x\r\nX-Trace-Id: abc\r\nX-Trace-Id: def\r\n\r\n")
        let answer = try client.readAnswer()

        #expect(answer.status == 200)
        #expect(answer.header("Content-Length") == "0")
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/v1/items?name=a%20b&flag&x=1%2B2")
        #expect(request.path == "/v1/items")
        #expect(request.query == "name=a%20b&flag&x=1%2B2")
        #expect(
            request.queryItems == [
                LoopbackHTTPQueryItem(name: "name", value: "a b"),
                LoopbackHTTPQueryItem(name: "flag", value: nil),
                LoopbackHTTPQueryItem(name: "x", value: "1+2"),
            ]
        )
        #expect(request.version == "HTTP/1.1")
        #expect(request.value(forHeader: "host") == "x")
        #expect(request.value(forHeader: "x-trace-id") == "abc, def")
        #expect(request.headers.values(for: "X-TRACE-ID") == ["abc", "def"])
        #expect(request.headers.fields.map(\.name) == ["Host", "X-Trace-Id", "X-Trace-Id"])
        #expect(request.body.isEmpty)
        #expect(request.arrivalIndex == 0)
    }

    @Test("reduces an absolute-form target to its path and query")
    func absoluteTarget() {
        let request = LoopbackHTTPRequest(
            arrivalIndex: 0,
            connectionIndex: 0,
            method: "GET",
            target: "http://example.test:8080/a/b?c=d",
            headers: [:],
            body: Data()
        )
        let bare = LoopbackHTTPRequest(
            arrivalIndex: 0,
            connectionIndex: 0,
            method: "GET",
            target: "http://example.test?x=1",
            headers: [:],
            body: Data()
        )

        #expect(request.path == "/a/b")
        #expect(request.query == "c=d")
        #expect(bare.path == "/")
        #expect(bare.query == "x=1")
    }

    @Test("keeps a connection alive for several requests and numbers them in arrival order")
    func keepAlive() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        for index in 0..<3 {
            try client.send("POST /n/\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n\(index)")
            let answer = try client.readAnswer()
            #expect(answer.status == 200)
            #expect(answer.header("Connection") == nil)
        }

        let requests = server.requests
        #expect(requests.map(\.path) == ["/n/0", "/n/1", "/n/2"])
        #expect(requests.map(\.bodyText) == ["0", "1", "2"])
        #expect(requests.map(\.arrivalIndex) == [0, 1, 2])
        #expect(Set(requests.map(\.connectionIndex)) == [0])
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("answers pipelined requests in order")
    func pipelining() throws {
        let server = LoopbackHTTPServer(responder: .handler { .init(text: $0.path) })
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("GET /first HTTP/1.1\r\n\r\nGET /second HTTP/1.1\r\n\r\n")

        #expect(try client.readAnswer().bodyText == "/first")
        #expect(try client.readAnswer().bodyText == "/second")
    }

    @Test("reads a Content-Length body byte for byte, including NUL and non-UTF-8 bytes")
    func contentLengthBody() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)
        let body: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }

        try client.send("PUT /blob HTTP/1.1\r\nContent-Length: \(body.count)\r\n\r\n")
        try client.send(body)
        #expect(try client.readAnswer().status == 200)

        #expect(server.requests.first?.body == Data(body))
    }

    @Test("decodes a chunked body sent in pieces, with extensions and trailers")
    func chunkedBody() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("POST /chunked HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        try client.send("5;name=value\r\nhello\r\n")
        try client.send("0")
        try client.send("F\r\n, chunked world\r\n")
        try client.send("0\r\nX-Checksum: 1\r\n\r\n")
        #expect(try client.readAnswer().status == 200)
        // The connection stays usable after a chunked request.
        try client.send("GET /after HTTP/1.1\r\n\r\n")
        #expect(try client.readAnswer().status == 200)

        #expect(server.requests.map(\.bodyText) == ["hello, chunked world", ""])
        #expect(server.requests.first?.value(forHeader: "transfer-encoding") == "chunked")
    }

    @Test("answers Expect: 100-continue before the body is sent")
    func expectContinue() throws {
        let server = LoopbackHTTPServer(responder: .always(.init(status: 201)))
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("POST /big HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readAnswer()
        #expect(interim.status == 100)
        #expect(server.requestCount == 0)

        try client.send("data")
        #expect(try client.readAnswer().status == 201)
        #expect(server.requests.first?.bodyText == "data")
    }

    @Test("answers HEAD with the length but no body")
    func head() throws {
        let server = LoopbackHTTPServer(responder: .always(.init(text: "12345")))
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("HEAD / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
        let head = try client.readAnswer(bodyExpected: false)
        #expect(head.header("Content-Length") == "5")
        // A HEAD answer has no body, so the very next bytes are the GET answer.
        let get = try client.readAnswer()
        #expect(get.status == 200)
        #expect(get.bodyText == "12345")
    }

    // MARK: Responders

    @Test("plays a script in arrival order, then the fallback for ever")
    func script() throws {
        let server = LoopbackHTTPServer(
            responder: .script([.status(500), .status(429, headers: ["Retry-After": "2"])], then: .status(202))
        )
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        var answers: [RawHTTPClient.Answer] = []
        for _ in 0..<4 {
            try client.send("POST /b HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
            answers.append(try client.readAnswer())
        }

        #expect(answers.map(\.status) == [500, 429, 202, 202])
        #expect(answers[1].header("Retry-After") == "2")
        #expect(answers[0].header("Retry-After") == nil)
    }

    @Test("setting a new responder takes effect at the next request and restarts the script")
    func replaceResponder() throws {
        let server = LoopbackHTTPServer(responder: .script([.status(503)], then: .ok))
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("GET / HTTP/1.1\r\n\r\n")
        #expect(try client.readAnswer().status == 503)
        server.responder = .script([.status(418)], then: .status(204))
        try client.send("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")

        #expect(try client.readAnswer().status == 418)
        #expect(try client.readAnswer().status == 204)
    }

    @Test("a handler computes the answer from the request; its headers are sent, framing headers are not")
    func handler() throws {
        let server = LoopbackHTTPServer(
            responder: .handler { request in
                LoopbackHTTPResponse(
                    status: 200,
                    headers: ["X-Echo-Length": "\(request.body.count)", "Content-Length": "999"],
                    body: Data(request.body.reversed())
                )
            }
        )
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("POST / HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc")
        let answer = try client.readAnswer()

        #expect(answer.bodyText == "cba")
        #expect(answer.header("X-Echo-Length") == "3")
        #expect(answer.headers.filter { $0.0.lowercased() == "content-length" }.map(\.1) == ["3"])
    }

    @Test("can hang up without answering")
    func hangUp() throws {
        let server = LoopbackHTTPServer(responder: .always(.closeConnectionWithoutAnswer))
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi")

        #expect(try client.readUntilClosed().isEmpty)
        #expect(server.requests.first?.bodyText == "hi")
    }

    @Test("closes after answering when the request or the response says Connection: close")
    func connectionClose() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }

        let byRequest = try RawHTTPClient(port: port)
        try byRequest.send("GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(try byRequest.readAnswer().header("Connection") == "close")
        #expect(try byRequest.readUntilClosed().isEmpty)

        server.responder = .always(.status(200, headers: ["Connection": "close"]))
        let byResponse = try RawHTTPClient(port: port)
        try byResponse.send("GET / HTTP/1.1\r\n\r\n")
        #expect(try byResponse.readAnswer().header("Connection") == "close")
        #expect(try byResponse.readUntilClosed().isEmpty)
    }

    @Test("closes an HTTP/1.0 connection unless it asks for keep-alive")
    func http10() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }

        let plain = try RawHTTPClient(port: port)
        try plain.send("GET / HTTP/1.0\r\n\r\n")
        #expect(try plain.readAnswer().status == 200)
        #expect(try plain.readUntilClosed().isEmpty)

        let keepAlive = try RawHTTPClient(port: port)
        try keepAlive.send("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try keepAlive.readAnswer().header("Connection") == "keep-alive")
        try keepAlive.send("GET /again HTTP/1.0\r\n\r\n")
        #expect(try keepAlive.readAnswer().status == 200)
        #expect(server.requests.map(\.version) == ["HTTP/1.0", "HTTP/1.0", "HTTP/1.0"])
    }

    // MARK: Bad input

    static let malformed: [(String, Int)] = [
        ("GARBAGE\r\n\r\n", 400),
        ("GET /\r\n\r\n", 400),
        ("GET  / HTTP/1.1\r\n\r\n", 400),
        ("G(T / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/2.0\r\n\r\n", 505),
        ("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nNo-Colon\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 12abc\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", 400),
        ("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", 413),
        ("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX", 400),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("POST / HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx", 417),
    ]

    @Test("rejects a malformed request with an error status and a closed connection", arguments: malformed)
    func malformedRequest(bytes: String, status: Int) throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send(bytes)
        let answer = try client.readAnswer()

        #expect(answer.status == status)
        #expect(answer.header("Connection") == "close")
        #expect(try client.readUntilClosed().isEmpty)
        #expect(server.requestCount == 0)
        // The server keeps serving other connections.
        let next = try RawHTTPClient(port: port)
        try next.send("GET / HTTP/1.1\r\n\r\n")
        #expect(try next.readAnswer().status == 200)
    }

    @Test("rejects a body over the limit with 413 and a head over the limit with 431")
    func limits() throws {
        let server = LoopbackHTTPServer(configuration: .init(maxHeadBytes: 2048, maxBodyBytes: 10))
        let port = try server.start()
        defer { server.stop() }

        let body = try RawHTTPClient(port: port)
        try body.send("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n")
        #expect(try body.readAnswer().status == 413)

        let chunked = try RawHTTPClient(port: port)
        try chunked.send("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n")
        #expect(try chunked.readAnswer().status == 413)

        let head = try RawHTTPClient(port: port)
        try head.send("GET / HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 4096))\r\n\r\n")
        #expect(try head.readAnswer().status == 431)
        #expect(server.requestCount == 0)
    }

    @Test("survives a client that disconnects in the middle of a request")
    func truncatedRequest() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }

        do {
            let client = try RawHTTPClient(port: port)
            try client.send("POST / HTTP/1.1\r\nContent-Length: 100\r\n\r\nonly part")
        }
        let next = try RawHTTPClient(port: port)
        try next.send("GET / HTTP/1.1\r\n\r\n")
        #expect(try next.readAnswer().status == 200)
        #expect(server.requests.map(\.method) == ["GET"])
    }

    // MARK: Concurrency

    @Test("serves many concurrent connections, keeping each connection's order")
    func concurrentConnections() async throws {
        let server = LoopbackHTTPServer(responder: .handler { .init(text: $0.path) })
        let port = try server.start()
        defer { server.stop() }

        try await withThrowingTaskGroup(of: Void.self) { group in
            for client in 0..<16 {
                group.addTask {
                    let connection = try RawHTTPClient(port: port)
                    for request in 0..<10 {
                        try connection.send("POST /\(client)/\(request) HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
                        let answer = try connection.readAnswer()
                        guard answer.bodyText == "/\(client)/\(request)" else {
                            throw RawHTTPClient.Failure(description: "wrong answer \(answer.bodyText)")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        let requests = server.requests
        #expect(requests.count == 160)
        #expect(server.acceptedConnectionCount == 16)
        #expect(requests.map(\.arrivalIndex) == Array(0..<160))
        let byConnection = Dictionary(grouping: requests, by: \.connectionIndex)
        #expect(byConnection.count == 16)
        for (_, sequence) in byConnection {
            let numbers = sequence.map { Int($0.path.split(separator: "/")[1]) ?? -1 }
            #expect(numbers == Array(0..<10))
        }
    }

    @Test("answers 503 and closes connections beyond the cap, then accepts again when one ends")
    func connectionCap() throws {
        let server = LoopbackHTTPServer(configuration: .init(maxConnections: 1))
        let port = try server.start()
        defer { server.stop() }

        var first: RawHTTPClient? = try RawHTTPClient(port: port)
        try first?.send("GET /first HTTP/1.1\r\n\r\n")
        #expect(try first?.readAnswer().status == 200)

        let second = try RawHTTPClient(port: port)
        #expect(try second.readAnswer().status == 503)
        #expect(try second.readUntilClosed().isEmpty)

        try first?.send("GET /last HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(try first?.readAnswer().status == 200)
        #expect(try first?.readUntilClosed().isEmpty == true)
        first = nil
        #expect(server.requests.map(\.path) == ["/first", "/last"])
    }

    // MARK: Stalled clients

    @Test("half-sent request heads hold every slot until the idle timeout")
    func stalledHeadsHoldSlots() throws {
        var configuration = LoopbackHTTPServer.Configuration(maxConnections: 4)
        configuration.idleTimeout = .seconds(600)
        let server = LoopbackHTTPServer(configuration: configuration)
        let port = try server.start()
        defer { server.stop() }

        let stalled = try (0..<4).map { _ in try RawHTTPClient(port: port) }
        for client in stalled { try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-") }
        let fifth = try RawHTTPClient(port: port)
        try fifth.send("GET /fifth HTTP/1.1\r\n\r\n")

        #expect(try fifth.readAnswer().status == 503)
        #expect(server.openConnectionCount == 4)
        #expect(server.requestCount == 0)
    }

    @Test("closes half-sent heads after the idle timeout with 408, then serves a fifth client")
    func idleTimeoutFreesSlots() throws {
        var configuration = LoopbackHTTPServer.Configuration(maxConnections: 4)
        // Long enough that each half head is surely read before it passes, even on a loaded machine.
        configuration.idleTimeout = .seconds(1)
        let server = LoopbackHTTPServer(configuration: configuration)
        let port = try server.start()
        defer { server.stop() }

        var stalled = try (0..<4).map { _ in
            let client = try RawHTTPClient(port: port)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-")
            return client
        }
        for client in stalled {
            let answer = try client.readAnswer()
            #expect(answer.status == 408)
            #expect(answer.header("Connection") == "close")
            #expect(try client.readUntilClosed().isEmpty)
        }
        stalled.removeAll()
        #expect(waitUntil { server.openConnectionCount == 0 })

        let fifth = try RawHTTPClient(port: port)
        try fifth.send("GET /fifth HTTP/1.1\r\n\r\n")
        #expect(try fifth.readAnswer().status == 200)
        #expect(server.requests.map(\.path) == ["/fifth"])
        #expect(server.acceptedConnectionCount == 5)
    }

    @Test("a body that stops arriving gets 408; an idle keep-alive connection is closed without an answer")
    func idleTimeoutInsideABodyAndBetweenRequests() throws {
        var configuration = LoopbackHTTPServer.Configuration()
        configuration.idleTimeout = .seconds(1)
        let server = LoopbackHTTPServer(configuration: configuration)
        let port = try server.start()
        defer { server.stop() }

        let partBody = try RawHTTPClient(port: port)
        try partBody.send("POST /b HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
        #expect(try partBody.readAnswer().status == 408)
        #expect(try partBody.readUntilClosed().isEmpty)

        let keepAlive = try RawHTTPClient(port: port)
        try keepAlive.send("GET /a HTTP/1.1\r\n\r\n")
        #expect(try keepAlive.readAnswer().status == 200)
        #expect(try keepAlive.readUntilClosed().isEmpty)
        #expect(server.requests.map(\.path) == ["/a"])
    }

    @Test("a client that does not read its answer is dropped after the idle timeout")
    func idleTimeoutWhileWriting() async throws {
        var configuration = LoopbackHTTPServer.Configuration(maxConnections: 1)
        configuration.idleTimeout = .milliseconds(200)
        let body = Data(count: 32 * 1024 * 1024)
        let server = LoopbackHTTPServer(responder: .always(.init(body: body)), configuration: configuration)
        let port = try server.start()
        defer { server.stop() }

        let reader = try RawHTTPClient(port: port)
        try reader.send("GET /large HTTP/1.1\r\n\r\n")
        _ = try await server.waitForRequests(count: 1)
        // It never reads: the socket buffers fill, the server's write stalls and the connection is closed.
        #expect(waitUntil { server.openConnectionCount == 0 })
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("keeps no bodies when told not to, while a handler still sees them")
    func unrecordedBodies() throws {
        let server = LoopbackHTTPServer(
            responder: .handler { .init(text: "\($0.body.count)") },
            configuration: .init(recordsBodies: false)
        )
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)

        try client.send("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello")

        #expect(try client.readAnswer().bodyText == "5")
        #expect(server.requests.first?.body.isEmpty == true)
        #expect(server.requestCount == 1)
    }

    // MARK: Waiting for requests

    @Test("waitForRequests resumes when the N-th request arrives")
    func waitForRequests() async throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        defer { server.stop() }

        async let arrived = server.waitForRequests(count: 3)
        for index in 0..<3 {
            let client = try RawHTTPClient(port: port)
            try client.send("POST /\(index) HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
            _ = try client.readAnswer()
        }

        #expect(try await arrived.map(\.path).sorted() == ["/0", "/1", "/2"])
        // Already satisfied: returns at once.
        #expect(try await server.waitForRequests(count: 2).count == 3)
    }

    @Test("waitForRequests fails after its timeout instead of hanging")
    func waitTimesOut() async throws {
        let server = LoopbackHTTPServer()
        try server.start()
        defer { server.stop() }

        await #expect(throws: LoopbackHTTPError.timedOut(expected: 1, received: 0)) {
            try await server.waitForRequests(count: 1, timeout: .milliseconds(20))
        }
    }

    @Test("waitForRequests fails when the server stops first, and when its task is cancelled")
    func waitEndsOnStopAndCancel() async throws {
        let server = LoopbackHTTPServer()
        try server.start()

        let waiting = Task { try await server.waitForRequests(count: 1) }
        let cancelled = Task { try await server.waitForRequests(count: 1) }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        server.stop()
        await #expect(throws: LoopbackHTTPError.stoppedWhileWaiting(expected: 1, received: 0)) {
            try await waiting.value
        }
        await #expect(throws: LoopbackHTTPError.stoppedWhileWaiting(expected: 1, received: 0)) {
            try await server.waitForRequests(count: 1)
        }
    }

    // MARK: Lifecycle

    @Test("after stop the port refuses connections and open connections are closed")
    func stopRefuses() throws {
        let server = LoopbackHTTPServer()
        let port = try server.start()
        let idle = try RawHTTPClient(port: port)
        try idle.send("GET / HTTP/1.1\r\n\r\n")
        _ = try idle.readAnswer()
        #expect(server.openConnectionCount == 1)
        #expect(server.isRunning)

        server.stop()

        #expect(!server.isRunning)
        #expect(server.openConnectionCount == 0)
        #expect(try idle.readUntilClosed().isEmpty)
        #expect(RawHTTPClient.isRefused(port: port))
        #expect(server.port == port)
        server.stop()  // a second stop is harmless
    }

    @Test("start reports misuse instead of trapping")
    func startMisuse() throws {
        let server = LoopbackHTTPServer()
        #expect(server.port == nil)
        #expect(server.url(path: "/b") == nil)
        let port = try server.start()
        #expect(server.url(path: "/b")?.absoluteString == "http://127.0.0.1:\(port)/b")
        #expect(throws: LoopbackHTTPError.alreadyStarted) { try server.start() }
        server.stop()
        #expect(throws: LoopbackHTTPError.alreadyStopped) { try server.start() }

        let neverStarted = LoopbackHTTPServer()
        neverStarted.stop()
        #expect(throws: LoopbackHTTPError.alreadyStopped) { try neverStarted.start() }
    }

    @Test("withRunningServer stops the server when the body ends")
    func scoped() async throws {
        let port = try await LoopbackHTTPServer.withRunningServer { server in
            let port = try #require(server.port)
            let client = try RawHTTPClient(port: port)
            try client.send("GET / HTTP/1.1\r\n\r\n")
            #expect(try client.readAnswer().status == 200)
            return port
        }
        #expect(RawHTTPClient.isRefused(port: port))
    }
}
