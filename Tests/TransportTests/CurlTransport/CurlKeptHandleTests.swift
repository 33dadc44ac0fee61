#if os(Linux)
import BinobanCore
import Foundation
import TestSupport
import Testing

/// The engine keeps a handle's options for the next request of the same shape and sets only the body: every
/// request must still go where it was addressed, with its own method, headers and whole body, whatever the
/// requests before it were.
@Suite("CurlEventTransport kept handles")
struct CurlKeptHandleTests {
    private static let headers = [
        "Content-Type": "application/json", "User-Agent": "binoban-core-swift/test", "Authorization": "Basic S0VZOg==",
    ]

    private static func send(
        _ transport: CurlEventTransport, _ url: URL, method: String = "POST", bodyLength: Int
    ) async throws -> BinobanTransportResponse {
        let body = Data(repeating: UInt8(ascii: "x"), count: bodyLength)
        return try await transport.send(
            BinobanTransportRequest(url: url, method: method, headers: headers, body: body))
    }

    @Test("Bodies that grow and shrink on one kept connection each arrive whole")
    func bodiesOfEverySize() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        let url = server.url("/status/200")
        let lengths = [12, 20_000, 0, 5, 70_000, 12, 1, 65_536]
        for (index, length) in lengths.enumerated() {
            let answer = try await Self.send(transport, url, bodyLength: length)
            #expect(answer.statusCode == 200)
            #expect(answer.value(forHeader: "X-Request-Body") == "\(length)")
            #expect(answer.value(forHeader: "X-Requests") == "\(index + 1)")
        }
        #expect(try await Self.send(transport, url, bodyLength: 3).value(forHeader: "X-Connections") == "1")
    }

    @Test("Requests to two origins, in turns, each reach their own origin with their own method")
    func alternatingShapes() async throws {
        let first = try ScriptedPythonServer()
        let second = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        let turns: [(ScriptedPythonServer, String, Int)] = [
            (first, "POST", 10), (second, "PUT", 300), (first, "POST", 20), (first, "PUT", 7), (second, "PUT", 0),
            (first, "POST", 40), (second, "POST", 9),
        ]
        var counts = [ObjectIdentifier(first): 0, ObjectIdentifier(second): 0]
        for (server, method, length) in turns {
            counts[ObjectIdentifier(server), default: 0] += 1
            let answer = try await Self.send(transport, server.url("/status/201"), method: method, bodyLength: length)
            #expect(answer.statusCode == 201)
            #expect(answer.value(forHeader: "X-Request-Method") == method)
            #expect(answer.value(forHeader: "X-Request-Body") == "\(length)")
            #expect(answer.value(forHeader: "X-Requests") == "\(counts[ObjectIdentifier(server)] ?? 0)")
        }
    }

    @Test("A capped body and an early close between answers of one shape: each outcome is its own")
    func outcomesBetweenKeptRequests() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        let url = server.url("/status/202")
        #expect(try await Self.send(transport, url, bodyLength: 30).statusCode == 202)
        // An answer whose body passes the cap ends as an answer; its handle is kept (and reset for another shape).
        #expect(try await Self.send(transport, server.url("/big"), bodyLength: 8).statusCode == 200)
        do {
            _ = try await Self.send(transport, server.url("/close-in-body"), bodyLength: 8)
            Issue.record("a body cut short was taken for an answer")
        } catch let error as CurlEventTransportError {
            #expect(error.reason == .closedEarly)
        }
        let answer = try await Self.send(transport, url, method: "PUT", bodyLength: 31)
        #expect(answer.statusCode == 202)
        #expect(answer.value(forHeader: "X-Request-Method") == "PUT")
        #expect(answer.value(forHeader: "X-Request-Body") == "31")
        let again = try await Self.send(transport, url, bodyLength: 32)
        #expect(again.value(forHeader: "X-Request-Method") == "POST")
        #expect(again.value(forHeader: "X-Request-Body") == "32")
    }
}
#endif
