#if os(Linux)
import BinobanCore
import Foundation
import TestSupport
import Testing

/// The engine keeps the last request's header list for the next request with the same headers: every request
/// must still carry exactly its own headers, whatever came before it.
@Suite("CurlEventTransport header lists")
struct CurlHeaderListTests {
    private static let base = [
        "Content-Type": "application/json", "User-Agent": "binoban-core-swift/test", "Authorization": "Basic S0VZOg==",
    ]

    private static func sentNames(_ transport: CurlEventTransport, _ url: URL, _ headers: [String: String])
        async throws -> Set<String>
    {
        let answer = try await transport.send(
            BinobanTransportRequest(url: url, headers: headers, body: Data("{\"batch\":[]}".utf8)))
        #expect(answer.statusCode == 200)
        return Set(answer.value(forHeader: "X-Request-Headers")?.split(separator: ",").map(String.init) ?? [])
    }

    @Test("Requests whose headers change and change back each carry exactly their own headers")
    func changingHeaders() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        let url = server.url("/status/200")
        var gzip = Self.base
        gzip["Content-Encoding"] = "gzip"
        var noType = Self.base
        noType["Content-Type"] = nil
        let plain: Set = ["host", "content-type", "user-agent", "authorization", "content-length"]
        for (headers, expected) in [
            (Self.base, plain), (Self.base, plain), (gzip, plain.union(["content-encoding"])), (Self.base, plain),
            // Without a Content-Type libcurl would add a form one; the list removes it, as for the first list.
            (noType, plain.subtracting(["content-type"])), (Self.base, plain),
        ] {
            #expect(try await Self.sentNames(transport, url, headers) == expected)
        }
    }

    @Test("A header that would end its line early is refused, and the next request is sent as given")
    func refusedHeaderLeavesNoList() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        let url = server.url("/status/200")
        var broken = Self.base
        broken["X-Broken"] = "a\r\nX-Injected: 1"
        do {
            _ = try await transport.send(BinobanTransportRequest(url: url, headers: broken, body: Data()))
            Issue.record("a header with CR LF was sent")
        } catch let error as CurlEventTransportError {
            #expect(error.reason == .invalidRequest)
        }
        let sent = try await Self.sentNames(transport, url, Self.base)
        #expect(sent == ["host", "content-type", "user-agent", "authorization", "content-length"])
    }
}
#endif
