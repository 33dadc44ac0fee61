#if os(Linux)
import FalconCore
import Foundation
import TestSupport
import Testing

/// `CurlBeaconTransport` against the scripted server: the status is returned (a redirect included, not followed)
/// and a failure carries its reason.
@Suite("CurlBeaconTransport against a real server")
struct CurlBeaconTransportTests {
    @Test("The answer's status comes back; a 307 is returned, not followed")
    func statuses() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlBeaconTransport()
        let body = Data("{\"code\":\"x\"}".utf8)
        let headers = ["Content-Type": "application/json"]
        let ok = try await transport.send(.init(url: server.url("/status/204"), headers: headers, body: body))
        #expect(ok.statusCode == 204)
        let moved = try await transport.send(.init(url: server.url("/redirect"), headers: headers, body: body))
        #expect(moved.statusCode == 307)
    }

    @Test("A silent server: timeout at the beacon's limit")
    func timeout() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlBeaconTransport(timeout: .milliseconds(500))
        do {
            _ = try await transport.send(.init(url: server.url("/silent"), headers: [:], body: Data()))
            Issue.record("expected a timeout")
        } catch let error as CurlBeaconTransportError {
            #expect(error.reason == .timeout)
            #expect(error.description.hasPrefix("beacon got no HTTP answer: timeout"))
        }
    }
}
#endif
