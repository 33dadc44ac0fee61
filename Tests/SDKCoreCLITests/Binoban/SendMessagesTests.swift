import Foundation
import LoopbackHTTP
import Synchronization
import Testing

@testable import sdkcore

/// What `sdkcore binoban send` prints about its own options and lines: enough to fix the mistake, never a value
/// that may be a secret.
@Suite("sdkcore binoban send: option and line messages")
struct SendMessagesTests {
    @Test func anUnknownOptionIsNamedWithoutItsValue() async throws {
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--apikey=SUPERSECRET", "--source", "S", "-"], input: "")
        #expect(output.status == 64)
        #expect(output.standardError.contains("unknown option '--apikey' (its value is not shown)"))
        #expect(!output.standardError.contains("SUPERSECRET"), "\(output.standardError)")
        let stray = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--source", "S", "a.jsonl", "SUPERSECRET"], input: "")
        #expect(stray.status == 64)
        #expect(!stray.standardError.contains("SUPERSECRET"), "\(stray.standardError)")
        let number = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--source", "S", "--flush-at=SUPERSECRET", "-"], input: "")
        #expect(number.status == 64)
        #expect(number.standardError.contains("--flush-at: expected an integer of at least 1"))
        #expect(!number.standardError.contains("SUPERSECRET"), "\(number.standardError)")
    }

    @Test func anUnknownFieldIsQuotedOnlyAsALikelyMisspelling() {
        #expect(SendLine.fieldName("usrId") == #""usrId" (did you mean "userId"?)"#)
        #expect(SendLine.fieldName("Properties") == #""Properties" (did you mean "properties"?)"#)
        // An identifier that is no field's misspelling may be data: a token, an id used as a key.
        #expect(SendLine.fieldName("sk_live_4eC39HqLyjWDarjtT1zdp7dc") == "(a name of 32 characters, not shown)")
        #expect(SendLine.fieldName("u12345") == "(a name of 6 characters, not shown)")
        #expect(SendLine.fieldName("x") == "(a name of 1 character, not shown)")
    }

    @Test func aDryRunNeedsNoAPIKey() async throws {
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--source", "S", "-"], input: #"{"type": "track", "name": "a"}"#)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains(#""event":"a""#), "\(output.standardOutput)")
        // Without --dry-run the key is still required.
        let real = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:9", "--source", "S", "-"], input: "")
        #expect(real.status == 64)
        #expect(real.standardError.contains("the API key is required"), "\(real.standardError)")
    }

    @Test func aPathInTheHostIsKeptAndTheNoteSaysWhereBatchesGo() async throws {
        #expect(
            BinobanSend.pathNote(forHost: "http://127.0.0.1:8080/ingest", allowsCleartext: false)
                == "--api-host has the path /ingest, which is kept: batches go to http://127.0.0.1:8080/ingest/b "
                + "(the host's path, then /b)")
        #expect(BinobanSend.pathNote(forHost: "api.example.com", allowsCleartext: false) == nil)
        #expect(BinobanSend.pathNote(forHost: "https://api.example.com/", allowsCleartext: false) == nil)
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--api-host", "http://127.0.0.1:\(port)/ingest", "--api-key", "K", "--source",
                "S", "-",
            ], input: #"{"type": "track", "name": "a"}"#)
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("batches go to http://127.0.0.1:\(port)/ingest/b"))
        #expect(server.requests.map(\.path) == ["/ingest/b"])
    }
}

/// Text written by the progress display, recorded.
private final class RecordedText: Sendable {
    private let chunks = Mutex<[String]>([])
    func append(_ text: String) { chunks.withLock { $0.append(text) } }
    var text: String { chunks.withLock { $0.joined() } }
}

@Suite("sdkcore binoban send: the progress line and message lines")
struct SendProgressLineTests {
    /// Progress redraws from one thread and messages from another: every message starts a line of its own,
    /// never after a progress line's text.
    @Test func aMessageNeverRunsIntoTheProgressLine() {
        let recorded = RecordedText()
        var progress = SendProgress(mode: .tty)
        progress.sink = { recorded.append($0) }
        let shown = progress
        var counts = SendLedger.Counts()
        counts.read = 7
        let fixed = counts
        // Two threads at once (not tasks, which the pool may run one after the other).
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for index in 0..<20_000 {
                if thread == 0 { shown.show(fixed) } else { shown.printLine("sdkcore binoban send: message \(index)") }
            }
        }
        let clear = "\r\u{1B}[K"
        for line in recorded.text.split(separator: "\n") where line.contains("message") {
            // What precedes the message on its line is only a cleared progress line (or nothing).
            let before = line[..<(line.range(of: "sdkcore binoban send: ")?.lowerBound ?? line.startIndex)]
            #expect(before.isEmpty || before.hasSuffix(clear), "\(line.debugDescription)")
            #expect(!line.hasSuffix("events/s"), "\(line.debugDescription)")
        }
    }
}
