#if os(Linux)
import CurlHTTPEngine
import Foundation
import SDKCoreCommon
import TestSupport
import Testing

/// The engine keeps a request's deadline while it carries other transfers, measured on the engine's own clock
/// (``CurlRequest/ended``): the time a test task takes to resume says how busy the test process's threads are, not
/// when the engine ended the request.
@Suite("Curl engine deadlines while busy")
struct CurlEngineDeadlineTests {
    static func request(
        _ url: URL, deadline: Duration, ended: (@Sendable (Duration) -> Void)? = nil
    ) -> CurlRequest {
        var request = CurlRequest(
            method: "POST", url: url.absoluteString, headers: ["Content-Type": "application/json"],
            body: Data("{}".utf8), deadline: deadline, connectTimeout: deadline, stallTimeout: .seconds(30),
            caBundlePath: nil)
        request.ended = ended
        return request
    }

    @Test("A 600 ms deadline is kept while forty silent and trickling transfers share the engine")
    func shortDeadlineWhileBusy() async throws {
        let server = try ScriptedPythonServer()
        let engine = try CurlEngine.shared.get()
        let busy = (0..<40).map { index in
            let url = server.url(index.isMultiple(of: 2) ? "/silent" : "/trickle")
            return Task { _ = try? await engine.send(Self.request(url, deadline: .seconds(20))) }
        }
        defer { for task in busy { task.cancel() } }
        // Until the server has read all forty: the engine is then carrying them.
        var seen = 0
        for _ in 0..<2000 where seen < 41 {
            let probe = try await engine.send(Self.request(server.url("/status/200"), deadline: .seconds(20)))
            seen = Int(probe.headers["X-Requests"] ?? "") ?? 0
        }
        #expect(seen >= 41)

        let reported = ReportedRequestDurations()
        do {
            let answer = try await engine.send(
                Self.request(server.url("/silent"), deadline: .milliseconds(600), ended: reported.hook))
            Issue.record("a silent server answered \(answer.statusCode)")
        } catch let failure as CurlFailure {
            #expect(failure.reason == .timeout)
            #expect(failure.curlCode == 28)
        }
        let took = try #require(await reported.total())
        // libcurl counts the deadline in whole milliseconds from its own start, a little after the engine's.
        #expect(took >= .milliseconds(550))
        // Far below the 30 s stall limit, loose for a loaded machine: the engine's thread is not the test's pool.
        #expect(took < .seconds(5), "the engine ended a 600 ms request after \(took)")
    }
}
#endif
