import Foundation
import LoopbackHTTP
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `count` track lines numbered from `first`, without ids (they carry the tool's own anonymousId).
private func numberedLines(_ count: Int, from first: Int = 1) -> String {
    (first..<first + count).map { #"{"type": "track", "name": "e", "properties": {"line": \#($0)}}"# }
        .joined(separator: "\n") + "\n"
}

@Suite("sdkcore binoban send --storage: one owner, the identity kept, an outage that loses nothing")
struct SendStorageTests {
    @Test func aRunOnAStorageDirectoryStaysOnDiskAndKeepsItsIdentityAcrossRuns() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let arguments = [
            "binoban", "send", "--storage", directory.url.path, "--api-host", "http://127.0.0.1:\(port)",
            "--api-key", "K", "--source", "S", "-",
        ]
        let first = try await SDKCoreProcess.run(arguments, input: numberedLines(3))
        #expect(first.status == 0, "\(first.standardError)")
        // No fallback: the command's own lock does not push the instance into memory.
        #expect(!first.standardError.contains("memory"), "\(first.standardError)")
        #expect(!first.standardError.contains("another instance"), "\(first.standardError)")
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("S.identity.json").path))
        // A new input in the same directory: another checkpoint, the same identity.
        try FileManager.default.removeItem(at: directory.url.appendingPathComponent("S.send-progress.json"))
        let second = try await SDKCoreProcess.run(arguments, input: numberedLines(2, from: 4))
        #expect(second.status == 0, "\(second.standardError)")
        #expect(!second.standardError.contains("memory"), "\(second.standardError)")
        let events = try server.requests.flatMap { request -> [[String: Any]] in
            let envelope = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            return try #require(envelope["batch"] as? [[String: Any]])
        }
        #expect(events.count == 5)
        let anonymousIds = Set(events.compactMap { $0["anonymousId"] as? String })
        #expect(anonymousIds.count == 1, "\(anonymousIds)")
    }

    /// 60 000 lines read while the ingest is down, a SIGINT part-way, then the same command with the ingest up:
    /// every event arrives exactly once, and both summaries add up.
    @Test(.timeLimit(.minutes(15)))
    func sixtyThousandLinesSentThroughAnOutageArriveExactlyOnce() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let input = try directory.write("events.jsonl", numberedLines(60_000))
        // The ingest is down: nothing listens on a port held for the whole test.
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let downPort = refusing.port
        let first = try SDKCoreChild(
            [
                "binoban", "send", "--progress", "plain", "--storage", directory.url.path, "--api-host",
                "http://127.0.0.1:\(downPort)", "--source", "S", input,
            ], environment: ["BINOBAN_API_KEY": "K"])
        defer { first.killAndWait() }
        let seen = try await onBlockingThread {
            let seen = first.waitForStandardError(seconds: 600) { text in
                // The last progress line's "stored N" is past 20 000.
                guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("progress: ") }),
                    let stored = line.components(separatedBy: " · ").first(where: { $0.hasPrefix("stored ") }),
                    let count = Int(stored.dropFirst("stored ".count))
                else { return false }
                return count >= 20_000
            }
            // Sent by the thread that saw the progress: sent after this test's task resumed (late, in the whole suite
            // under the address sanitizer), it found the child done with every line and exited 1 on its own.
            first.send(SIGINT)
            return seen
        }
        #expect(try await onBlockingThread { first.waitForExit(seconds: 600) }, "\(seen)")
        let interrupted = first.standardError
        #expect(first.status == 130, "\(interrupted)")
        let firstSummary = try #require(SendSummary(interrupted), "\(interrupted)")
        #expect(firstSummary.addsUp, "\(firstSummary)")
        #expect(firstSummary.sent == 0 && firstSummary.failed == 0, "\(interrupted)")
        #expect(firstSummary.notSent == firstSummary.accepted && firstSummary.accepted >= 20_000, "\(interrupted)")
        #expect(interrupted.contains("kept in \(directory.url.path) for the next run"), "\(interrupted)")
        #expect(!interrupted.contains("evict"), "\(interrupted)")

        let ingest = try CountingIngest()
        let second = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--storage", directory.url.path, "--api-host", "http://127.0.0.1:\(ingest.port)",
                "--source", "S", input,
            ], environment: ["BINOBAN_API_KEY": "K"])
        let posts = try ingest.stop()
        #expect(second.status == 0, "\(second.standardError)")
        let secondSummary = try #require(SendSummary(second.standardError), "\(second.standardError)")
        #expect(secondSummary.addsUp, "\(secondSummary)")
        #expect(secondSummary.leftByEarlierRuns == firstSummary.notSent, "\(second.standardError)")
        #expect(secondSummary.sent == 60_000 && secondSummary.notSent == 0, "\(second.standardError)")
        let ids = posts.flatMap(\.ids)
        #expect(ids.count == 60_000)
        #expect(Set(ids).count == 60_000)
    }

    /// SIGTERM (an orchestrator's stop) is not SIGINT: the status is 128 + 15, as a shell reports it.
    @Test func sigtermEndsTheRunWithStatus143() async throws {
        let child = try SDKCoreChild(
            [
                "binoban", "send", "--progress", "plain", "--api-host", "http://127.0.0.1:9", "--api-key", "K",
                "--source", "S", "-",
            ])
        defer { child.killAndWait() }
        try child.write(Data(numberedLines(1).utf8))
        let seen = try await onBlockingThread { child.waitForStandardError(containing: "stored 1 ", seconds: 120) }
        #expect(seen.contains("stored 1 "), "\(seen)")
        child.send(SIGTERM)
        #expect(try await onBlockingThread { child.waitForExit(seconds: 300) })
        #expect(child.status == 143, "\(child.standardError)")
        #expect(child.standardError.contains("interrupted by a signal"), "\(child.standardError)")
    }

    @Test func theSummaryAddsUpWithBadBlankAndRejectedLines() async throws {
        let server = LoopbackHTTPServer(responder: .always(.status(400)))
        let port = try server.start()
        defer { server.stop() }
        let input = numberedLines(3) + "\n   \nnot json\n" + numberedLines(2, from: 4)
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--api-key", "K", "--source", "S", "-",
            ], input: input)
        #expect(output.status == 1, "\(output.standardError)")
        let summary = try #require(SendSummary(output.standardError), "\(output.standardError)")
        #expect(summary.read == 8 && summary.accepted == 5 && summary.bad == 1 && summary.skipped == 2, "\(summary)")
        #expect(summary.failed == 5 && summary.sent == 0 && summary.notSent == 0, "\(summary)")
        #expect(summary.addsUp)
        #expect(output.standardError.contains("failed: 5 rejected by the ingest"), "\(output.standardError)")
        #expect(output.standardError.contains("2 lines skipped (2 blank)"), "\(output.standardError)")
    }
}
