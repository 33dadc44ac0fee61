import BinobanCore
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

@testable import sdkcore

/// A failing ingest ends a run in the time `--max-retries` says, and the lines say why.
@Suite("sdkcore binoban send: failures in bounded time, with their reasons")
struct SendFailureTests {
    /// A persistent 503 with `--max-retries 3`: each batch is retried on its own schedule (1, 2 and 4 s of backoff
    /// at most, Docs/Decisions/0540) and the final flush ends once a batch has used its retries (over 100 s for
    /// 10 000 lines before). The exact instants are pinned on virtual time by the scenario
    /// `retries-persistent-503-ends-on-its-schedule`; here, with real time, each wait is checked against its ceiling
    /// with a second of room for a loaded machine.
    @Test(.timeLimit(.minutes(10)))
    func aPersistent503EndsInTheTimeItsRetriesSay() async throws {
        let ingest = try CountingIngest(status: 503)
        let lines = (1...10_000).map { #"{"type": "track", "name": "e", "properties": {"line": \#($0)}}"# }
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--max-retries", "3", "--api-host", "http://127.0.0.1:\(ingest.port)",
                "--api-key", "K", "--source", "S", "-",
            ], input: lines.joined(separator: "\n"))
        let posts = try ingest.stop()
        #expect(output.status == 1, "\(output.standardError)")
        #expect(output.standardError.contains("still failed (status 503) after 3 retries"), "\(output.standardError)")
        let first = try #require(posts.first?.at)
        let last = try #require(posts.last?.at)
        // One pass of 7 s of backoff at most; on a loaded machine the reading may outlast a first pass, whose
        // kept batch then makes the final flush wait up to 8 s before its own pass: room for both.
        #expect(last - first < 40, "POSTs over \(last - first) s: \(posts.map(\.at))")
        // The first batch posted opens the first pass, and no batch of that pass can use its retries before it:
        // its first four POSTs are that pass's try and 3 retries, retry n at most 2^(n-1) s (plus a second of room)
        // after the try before it. Later batches may straddle two passes, with the wait between passes in the gap.
        let firstBatch = posts[0].ids.first
        let tries = posts.filter { $0.ids.first == firstBatch }
        // At most two passes (one while reading, the final flush) and one try of the shutdown's own pass.
        #expect(tries.count <= 9, "\(tries.map(\.at))")
        let pass = tries.prefix(4)
        for (retry, pair) in zip(pass, pass.dropFirst()).enumerated() {
            let ceiling = Double(1 << retry)
            #expect(pair.1.at - pair.0.at < ceiling + 1, "retry \(retry + 1): \(tries.map(\.at))")
        }
        let summary = try #require(SendSummary(output.standardError))
        #expect(summary.addsUp && summary.notSent == 10_000, "\(summary)")
    }

    @Test func aRequestWithoutAnAnswerSaysWhy() async throws {
        // Nothing listens there while the test runs (the port is held, so no other test's server can take it).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--max-retries", "0", "--api-host", "http://127.0.0.1:\(port)", "--api-key", "K",
                "--source", "S", "-",
            ], input: #"{"type": "track", "name": "a"}"#)
        #expect(output.status == 1)
        #if os(Linux)
        // The libcurl transport, the CLI's transport on Linux, names the refusal; the instance's report says it.
        let words = "(no answer: refused (the server refused the connection; curl code 7))"
        #else
        let words = "(no answer: refused (the server refused the connection; URLError -1004))"
        #endif
        #expect(output.standardError.contains(words), "\(output.standardError)")
    }

    #if os(Linux)
    @Test func aPlainHTTPIngestAddressedWithoutASchemeEndsAtOnceNamingHTTP() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "127.0.0.1:\(port)", "--api-key", "K", "--source", "S", "-"],
            input: #"{"type": "track", "name": "a"}"#)
        #expect(output.status == 1)
        #expect(output.standardError.contains("needs http://, not https://"), "\(output.standardError)")
        // Ended by the first failure that names the wrong scheme, not after the three retries' backoff.
        #expect(!output.standardError.contains("after 3 retries"), "\(output.standardError)")
        #expect(server.requests.isEmpty)
    }

    /// The same mismatch against a Python ingest (`http.server` answers the TLS hello with a plain-text 400): the
    /// instance's own report names the reason (`notTLS`), the run ends on the first failure, nothing is posted.
    @Test func aPythonPlainIngestAddressedOverTLSFailsAtOnceWithItsReason() async throws {
        let ingest = try CountingIngest(status: 200)
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "127.0.0.1:\(ingest.port)", "--api-key", "K", "--source", "S", "-"],
            input: #"{"type": "track", "name": "a"}"#)
        let posts = try ingest.stop()
        #expect(output.status == 1)
        #expect(output.standardError.contains("got no answer (notTLS ("), "\(output.standardError)")
        #expect(output.standardError.contains("needs http://, not https://"), "\(output.standardError)")
        #expect(!output.standardError.contains("after 3 retries"), "\(output.standardError)")
        #expect(posts.isEmpty)
    }
    #endif

    @Test func theAddedReasonGoesAfterNoAnswer() {
        #expect(
            TransportFailureWords.adding("timed out", to: "batch-2 still failed (no answer) after 3 retries")
                == "batch-2 still failed (no answer: timed out) after 3 retries")
        #expect(TransportFailureWords.adding("x", to: "other words") == "other words; the transport said: x")
    }

    /// A rate-limit summary states its count once.
    @Test func aRateLimitSummaryStatesItsCountOnce() {
        let summary = BinobanError(
            kind: .uploadFailed,
            message: "3 reports of this kind suppressed by the rate limit, summarised; the last: batch-4 got no "
                + "answer; it will be retried",
            suppressedCount: 3)
        #expect(
            SendMessages.text(of: summary)
                == "batch-4 got no answer; it will be retried (3 similar reports suppressed by the rate limit, "
                + "summarised here)")
    }
}
