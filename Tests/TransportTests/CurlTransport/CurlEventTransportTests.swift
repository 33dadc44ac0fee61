#if os(Linux)
import BinobanCore
import Foundation
import TestSupport
import Testing

/// `CurlEventTransport` against real servers on 127.0.0.1 (the scripted Python server, plain and TLS): answers
/// returned whatever their status, redirects returned, headers sent as built, connections reused, every phase
/// bounded by the deadline, the body cap, the CA setting, and each failure with its reason.
@Suite("CurlEventTransport against real servers")
struct CurlEventTransportTests {
    static func request(_ url: URL, body: Data = Data("{\"batch\":[]}".utf8)) -> BinobanTransportRequest {
        BinobanTransportRequest(
            url: url,
            headers: [
                "Content-Type": "application/json", "User-Agent": "binoban-core-swift/test",
                "Authorization": "Basic S0VZOg==",
            ],
            body: body)
    }

    static func failure(
        _ transport: CurlEventTransport, _ url: URL
    ) async -> CurlEventTransportError? {
        do {
            let answer = try await transport.send(request(url))
            Issue.record("expected a failure, got status \(answer.statusCode)")
            return nil
        } catch let error as CurlEventTransportError {
            #expect(!error.description.contains("127.0.0.1"))
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// The failure of one request to `url` through a transport with these limits, and the time the request took
    /// on the engine's own clock. How long this test's task takes to resume says how busy the test process's threads
    /// are (in the whole suite under the address sanitizer it has been 70 s), not when libcurl ended the request.
    static func timedFailure(
        _ url: URL, requestTimeout: Duration, resourceTimeout: Duration
    ) async throws -> (error: CurlEventTransportError?, took: Duration) {
        let reported = ReportedRequestDurations()
        let transport = CurlEventTransport(
            requestTimeout: requestTimeout, resourceTimeout: resourceTimeout, caBundlePath: nil, ended: reported.hook)
        let error = await failure(transport, url)
        let took = try #require(await reported.total())
        return (error, took)
    }

    @Test("Every status from 2xx to 5xx is an answer, with its headers; the request carries exactly its headers")
    func statusesAreAnswers() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        for status in [200, 201, 204, 301, 400, 404, 413, 429, 500, 503] {
            let answer = try await transport.send(Self.request(server.url("/status/\(status)")))
            #expect(answer.statusCode == status)
            #expect(answer.value(forHeader: "x-request-body") == "12")
            let sent = Set(answer.value(forHeader: "X-Request-Headers")?.split(separator: ",").map(String.init) ?? [])
            // No Accept, no Expect: 100-continue, no libcurl User-Agent: the core's headers, Host and the length.
            #expect(sent == ["host", "content-type", "user-agent", "authorization", "content-length"])
        }
    }

    @Test("A 307 to another origin is returned, not followed: nothing reaches the other origin")
    func redirectIsAnAnswer() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        let answer = try await transport.send(Self.request(server.url("/redirect")))
        #expect(answer.statusCode == 307)
        #expect(answer.value(forHeader: "location")?.contains("\(server.otherPort)") == true)
        let after = try await transport.send(Self.request(server.url("/status/200")))
        #expect(after.value(forHeader: "x-landings") == "0")
    }

    @Test("Thirty uploads in a row share one connection")
    func connectionIsReused() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        var last: BinobanTransportResponse?
        for _ in 0..<30 { last = try await transport.send(Self.request(server.url("/status/200"))) }
        #expect(last?.value(forHeader: "x-requests") == "30")
        #expect(last?.value(forHeader: "x-connections") == "1")
    }

    @Test("Forty requests held open by a silent host do not push another host's kept connection out")
    func keptConnectionSurvivesOtherTraffic() async throws {
        let kept = try ScriptedPythonServer()
        let silent = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        _ = try await transport.send(Self.request(kept.url("/status/200")))
        let stalled = CurlEventTransport(resourceTimeout: .seconds(20))
        let silentURL = silent.url("/silent")
        let held = (0..<40).map { _ in Task { try? await stalled.send(Self.request(silentURL)) } }
        defer { for task in held { task.cancel() } }
        // Until the silent server has read all forty (each probe is one more request on its own kept connection).
        var seen = 0
        for _ in 0..<2000 where seen < 41 {
            let probe = try await transport.send(Self.request(silent.url("/status/200")))
            seen = Int(probe.value(forHeader: "x-requests") ?? "") ?? 0
        }
        #expect(seen >= 41)
        let last = try await transport.send(Self.request(kept.url("/status/200")))
        #expect(last.value(forHeader: "x-connections") == "1")
    }

    @Test("Kept connections the server closed without saying so: every request is answered")
    func closedKeptConnections() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        for _ in 0..<10 {
            #expect(try await transport.send(Self.request(server.url("/answer-then-close"))).statusCode == 200)
        }
        let last = try await transport.send(Self.request(server.url("/status/200")))
        #expect(last.value(forHeader: "x-requests") == "11")
    }

    @Test("A request that meets a hang-up on a kept connection starts over once, on a fresh connection, then fails")
    func startsOverAtMostOnce() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        _ = try await transport.send(Self.request(server.url("/status/200")))
        let error = await Self.failure(transport, server.url("/hangup"))
        #expect(error?.reason == .closedEarly)
        let last = try await transport.send(Self.request(server.url("/status/200")))
        // 1 + the hang-up twice (kept connection, then a fresh one) + this one.
        #expect(last.value(forHeader: "x-requests") == "4")
        #expect(last.value(forHeader: "x-connections") == "3")
    }

    @Test("A server that never answers: the request ends at its deadline as a timeout")
    func silentServerTimesOut() async throws {
        let server = try ScriptedPythonServer()
        // The stall limit is 120 s (it would end the request after about 125 s), so only the 600 ms deadline ends it
        // within 5 s on the engine's clock (the bound of CurlEngineDeadlineTests, which holds with forty transfers
        // on the engine); a stall limit of a second, were the two limits swapped, would take about 7 s. libcurl
        // counts the deadline in whole milliseconds from its own start, a little after the engine's.
        let (error, took) = try await Self.timedFailure(
            server.url("/silent"), requestTimeout: .seconds(120), resourceTimeout: .milliseconds(600))
        #expect(error?.reason == .timeout)
        #expect(error?.curlCode == 28)
        #expect(took >= .milliseconds(550))
        #expect(took < .seconds(5), "the engine ended a request with a 600 ms deadline after \(took)")
    }

    @Test("A request that makes no progress fails after its request timeout, before the resource timeout")
    func stallTimesOut() async throws {
        let server = try ScriptedPythonServer()
        let (error, took) = try await Self.timedFailure(
            server.url("/silent"), requestTimeout: .seconds(1), resourceTimeout: .seconds(300))
        #expect(error?.reason == .timeout)
        #expect(error?.curlCode == 28)
        // libcurl averages the speed over five seconds, so the stall ends the request after about 7 s on the
        // engine's clock: later than a 1 s deadline would (were the two limits swapped), and far below the 300 s one.
        #expect(took >= .seconds(2))
        #expect(took < .seconds(60), "the engine ended a request stalled for 1 s after \(took)")
    }

    @Test("A body that trickles in is cut at the deadline")
    func trickleTimesOut() async throws {
        let server = try ScriptedPythonServer()
        let (error, took) = try await Self.timedFailure(
            server.url("/trickle"), requestTimeout: .seconds(30), resourceTimeout: .milliseconds(700))
        #expect(error?.reason == .timeout)
        // The deadline, not the 30 s stall limit (which a trickle never meets anyway).
        #expect(took >= .milliseconds(650))
        #expect(took < .seconds(5), "the engine ended a request with a 700 ms deadline after \(took)")
    }

    @Test("A listener that accepts and stays silent: the TLS handshake is bounded by the deadline")
    func silentListenerTimesOut() async throws {
        let server = try ScriptedPythonServer()
        let url = URL(string: "https://127.0.0.1:\(server.silentPort)/b")!
        let (error, took) = try await Self.timedFailure(
            url, requestTimeout: .seconds(30), resourceTimeout: .milliseconds(500))
        #expect(error?.reason == .timeout)
        // The deadline, not the 30 s limit on connecting (the handshake included).
        #expect(took >= .milliseconds(450))
        #expect(took < .seconds(5), "the engine ended a handshake with a 500 ms deadline after \(took)")
    }

    @Test("Answers of 2000 MiB or endless chunks end with their status once 64 KiB of body was seen")
    func bodyIsCapped() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport(resourceTimeout: .seconds(20))
        for path in ["/big", "/endless-chunked"] {
            let answer = try await transport.send(Self.request(server.url(path)))
            #expect(answer.statusCode == 200)
        }
    }

    @Test(
        "Failures carry their reason",
        arguments: [
            ("/close-after-status", CurlEventTransportError.Reason.closedEarly),
            ("/close-in-body", .closedEarly),
            ("/lying-chunked", .closedEarly),
            ("/reset", .reset),
            ("/huge-head", .protocolViolation),
            ("/huge-line", .protocolViolation),
            ("/bad-chunk", .protocolViolation),
            ("/reset-in-head", .reset),
        ])
    func hostileAnswers(path: String, reason: CurlEventTransportError.Reason) async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport(resourceTimeout: .seconds(10))
        let error = await Self.failure(transport, server.url(path))
        #expect(error?.reason == reason, "\(path): \(String(describing: error))")
    }

    @Test(
        "A protocol violation says what the peer did",
        arguments: [
            ("/huge-head", "its head passed the 64 KiB limit"),
            ("/huge-line", "a line of its head passed libcurl's 100 KiB limit"),
            ("/bad-chunk", "its chunked body was malformed"),
        ])
    func protocolViolationsSayWhat(path: String, circumstance: String) async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport(resourceTimeout: .seconds(10))
        let error = try #require(await Self.failure(transport, server.url(path)))
        #expect(error.reason == .protocolViolation)
        let code = try #require(error.curlCode)
        #expect(BinobanTransportFailure(error).detail == "\(circumstance); curl code \(code)", "\(path)")
        #expect(error.description.contains("; \(circumstance); curl code"), "\(path): \(error)")
    }

    @Test("Nothing listens: refused")
    func refused() async throws {
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let error = await Self.failure(CurlEventTransport(), URL(string: "http://127.0.0.1:\(refusing.port)/b")!)
        #expect(error?.reason == .refused)
        #expect(error?.curlCode == 7)
    }

    @Test("A name that cannot be resolved: dns")
    func unresolvable() async throws {
        // A label of 64 characters is longer than DNS allows, so the resolver refuses it without a query.
        let host = String(repeating: "a", count: 64) + ".invalid"
        let error = await Self.failure(CurlEventTransport(), URL(string: "http://\(host)/b")!)
        #expect(error?.reason == .dns)
        #expect(error?.description.contains("invalid") == false)
    }

    @Test("Cancelling the calling task ends the wait at once")
    func cancellation() async throws {
        let server = try ScriptedPythonServer()
        let transport = CurlEventTransport()
        let task = Task { try await transport.send(Self.request(server.url("/silent"))) }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

}

/// The same transport over TLS with a throwaway CA.
@Suite("CurlEventTransport over TLS")
struct CurlEventTransportTLSTests {
    @Test("The configured CA verifies the server; connections are kept")
    func trustedAuthority() async throws {
        let certificates = try TestCertificates.shared.get()
        let server = try ScriptedPythonServer(
            certificate: certificates.serverCertificate, key: certificates.serverKey)
        let transport = CurlEventTransport(caBundlePath: certificates.authority)
        var last: BinobanTransportResponse?
        for _ in 0..<10 {
            last = try await transport.send(CurlEventTransportTests.request(server.url("/status/202")))
        }
        #expect(last?.statusCode == 202)
        #expect(last?.value(forHeader: "x-connections") == "1")
    }

    @Test("Another CA, or the system's store: certificate")
    func untrustedAuthority() async throws {
        let certificates = try TestCertificates.shared.get()
        let server = try ScriptedPythonServer(
            certificate: certificates.serverCertificate, key: certificates.serverKey)
        for transport in [CurlEventTransport(caBundlePath: certificates.otherAuthority), CurlEventTransport()] {
            let error = await CurlEventTransportTests.failure(transport, server.url("/status/200"))
            #expect(error?.reason == .certificate)
        }
        let missing = CurlEventTransport(caBundlePath: certificates.authority + ".missing")
        #expect(await CurlEventTransportTests.failure(missing, server.url("/status/200"))?.reason == .certificate)
    }

    @Test("The host name is verified: a certificate for 127.0.0.1 does not serve another name")
    func hostNameVerified() async throws {
        let certificates = try TestCertificates.shared.get()
        let server = try ScriptedPythonServer(
            certificate: certificates.serverCertificate, key: certificates.serverKey)
        let transport = CurlEventTransport(caBundlePath: certificates.authority)
        // localhost reaches the same listener, but the certificate names only the address 127.0.0.1.
        let url = URL(string: "https://localhost:\(server.port)/status/200")!
        let error = await CurlEventTransportTests.failure(transport, url)
        #expect(error?.reason == .certificate)
    }

    @Test(
        "Over TLS too: a reset inside the head is a reset, a close there closedEarly, a 1 MiB line a protocol violation"
    )
    func hostileOverTLS() async throws {
        let certificates = try TestCertificates.shared.get()
        let server = try ScriptedPythonServer(
            certificate: certificates.serverCertificate, key: certificates.serverKey)
        let transport = CurlEventTransport(resourceTimeout: .seconds(10), caBundlePath: certificates.authority)
        #expect(await CurlEventTransportTests.failure(transport, server.url("/reset-in-head"))?.reason == .reset)
        // A close without close_notify inside the head.
        #expect(
            await CurlEventTransportTests.failure(transport, server.url("/close-after-status"))?.reason == .closedEarly)
        #expect(
            await CurlEventTransportTests.failure(transport, server.url("/huge-line"))?.reason == .protocolViolation)
    }

    @Test("A plain HTTP server asked for TLS: notTLS, and the description names http://")
    func plainAnswerToTLS() async throws {
        let server = try ScriptedPythonServer()
        let url = URL(string: "https://127.0.0.1:\(server.port)/status/200")!
        let error = await CurlEventTransportTests.failure(CurlEventTransport(), url)
        #expect(error?.reason == .notTLS)
        #expect(error?.description.contains("http://") == true)
    }
}
#endif
