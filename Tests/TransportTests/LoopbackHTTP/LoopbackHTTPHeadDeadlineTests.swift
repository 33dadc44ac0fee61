import Foundation
import LoopbackHTTP
import Testing

@Suite("LoopbackHTTPServer: a deadline for a whole request head")
struct LoopbackHTTPHeadDeadlineTests {
    /// Four clients that send one header byte at a time, each well inside the idle timeout, hold all four slots
    /// only until the head deadline: each gets 408, and a fifth client is then served. Before the deadline the
    /// idle timeout, which counts per read, never fired and the fifth got 503 for as long as they trickled.
    @Test("heads trickled byte by byte get 408 at the head deadline, then a fifth client is served")
    func trickledHeadsMeetTheDeadline() throws {
        var configuration = LoopbackHTTPServer.Configuration(maxConnections: 4)
        configuration.idleTimeout = .seconds(5)
        configuration.headTimeout = .seconds(1)
        let server = LoopbackHTTPServer(configuration: configuration)
        let port = try server.start()
        defer { server.stop() }

        let tricklers = try (0..<4).map { _ in
            let client = try RawHTTPClient(port: port)
            try client.send("POST /upload HTTP/1.1\r\n")
            return client
        }
        // One byte each every 250 ms (a twentieth of the idle timeout) for 3 s: three head deadlines.
        for _ in 0..<12 {
            for client in tricklers { try? client.send("X") }
            Thread.sleep(forTimeInterval: 0.25)
        }
        // The slots are free now, well before an idle timeout after the last byte could have freed them.
        #expect(waitUntil(limitSeconds: 1) { server.openConnectionCount == 0 })
        let fifth = try RawHTTPClient(port: port)
        try fifth.send("GET /fifth HTTP/1.1\r\n\r\n")
        #expect(try fifth.readAnswer().status == 200)
        #expect(server.requests.map(\.path) == ["/fifth"])
        for client in tricklers {
            let answer = try client.readAnswer()
            #expect(answer.status == 408)
            #expect(try client.readUntilClosed().isEmpty)
        }
    }

    @Test("a body is not under the head deadline: a slow body within the idle timeout is received")
    func aSlowBodyIsNotCutByTheHeadDeadline() throws {
        var configuration = LoopbackHTTPServer.Configuration()
        configuration.headTimeout = .milliseconds(300)
        let server = LoopbackHTTPServer(configuration: configuration)
        let port = try server.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: port)
        try client.send("POST /b HTTP/1.1\r\nContent-Length: 4\r\n\r\n")
        for byte in ["a", "b", "c", "d"] {
            Thread.sleep(forTimeInterval: 0.2)
            try client.send(byte)
        }
        #expect(try client.readAnswer().status == 200)
        #expect(server.requests.map { String(decoding: $0.body, as: UTF8.self) } == ["abcd"])
    }
}
