import FalconCore
import FalconCoreURLSession
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

@Suite("URLSessionBeaconTransport")
struct URLSessionBeaconTransportTests {
    private static let body = Data(
        #"{"code":"loadTimeout","layoutId":"L-1","placement":"home","platform":"linux","sdkv":"1.0.0","ts":1700000000000}"#
            .utf8
    )

    private func beacon(to server: LoopbackHTTPServer, path: String = "/v1/diagnostics") throws -> FalconBeaconRequest {
        FalconBeaconRequest(
            url: try #require(server.url(path: path)),
            headers: ["Content-Type": "application/json"],
            body: Self.body
        )
    }

    @Test("posts the exact body with a JSON content type and no credentials or cookies")
    func postsTheBeacon() async throws {
        let server = LoopbackHTTPServer(
            responder: .always(.status(204, headers: ["Set-Cookie": "session=secret; Path=/"]))
        )
        try server.start()
        defer { server.stop() }
        let transport = URLSessionBeaconTransport()

        let first = try await transport.send(try beacon(to: server))
        let second = try await transport.send(try beacon(to: server))

        #expect(first.statusCode == 204)
        #expect(second.statusCode == 204)
        let requests = server.requests
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.method == "POST")
            #expect(request.path == "/v1/diagnostics")
            #expect(request.query == nil)
            #expect(request.value(forHeader: "content-type") == "application/json")
            #expect(request.value(forHeader: "content-length") == "\(Self.body.count)")
            #expect(request.body == Self.body)
            #expect(!request.headers.contains("Authorization"))
            // The Set-Cookie of the first answer is not stored or sent back.
            #expect(!request.headers.contains("Cookie"))
        }
    }

    @Test("returns a 500 answer as a status, without throwing")
    func serverError() async throws {
        let server = LoopbackHTTPServer(responder: .always(.init(status: 500, text: "boom")))
        try server.start()
        defer { server.stop() }

        let response = try await URLSessionBeaconTransport().send(try beacon(to: server))

        #expect(response.statusCode == 500)
        #expect(server.requestCount == 1)
    }

    @Test("returns a redirect as it is instead of following it")
    func redirect() async throws {
        let server = LoopbackHTTPServer(responder: .always(.status(302, headers: ["Location": "/elsewhere"])))
        try server.start()
        defer { server.stop() }

        let response = try await URLSessionBeaconTransport().send(try beacon(to: server))

        #expect(response.statusCode == 302)
        #expect(server.requests.map(\.path) == ["/v1/diagnostics"])
    }

    @Test("throws a URL-free error when the server is down")
    func serverDown() async throws {
        // Held for the whole test: a port released at once could be taken by another test's server (a listener of
        // the hostile matrix, whose script this beacon would then use up).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let request = FalconBeaconRequest(
            url: try #require(URL(string: "http://127.0.0.1:\(refusing.port)/v1/diagnostics?key=private-value")),
            headers: ["Content-Type": "application/json"], body: Self.body)

        let error = await #expect(throws: URLSessionBeaconTransportError.self) {
            try await URLSessionBeaconTransport().send(request)
        }

        #expect(error?.reason == .cannotConnect)
        let text = "\(String(describing: error)) \(error?.localizedDescription ?? "")"
        #expect(!text.contains("127.0.0.1"))
        #expect(!text.contains("private-value"))
    }

    @Test("throws when the server hangs up without answering")
    func hangUp() async throws {
        let server = LoopbackHTTPServer(responder: .always(.closeConnectionWithoutAnswer))
        try server.start()
        defer { server.stop() }

        await #expect(throws: URLSessionBeaconTransportError.self) {
            try await URLSessionBeaconTransport().send(try beacon(to: server))
        }
        #expect(server.requests.first?.body == Self.body)
    }
}
