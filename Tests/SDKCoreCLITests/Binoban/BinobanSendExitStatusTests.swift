import Foundation
import LoopbackHTTP
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of the events the ingest received, in arrival order.
private func receivedNames(_ server: LoopbackHTTPServer) throws -> [String] {
    try server.requests.flatMap { request -> [String] in
        let envelope = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        let batch = try #require(envelope["batch"] as? [[String: Any]])
        return batch.compactMap { $0["event"] as? String }
    }
}

private func track(_ name: String) -> String {
    #"{"type": "track", "name": "\#(name)"}"# + "\n"
}

/// The tool's limit on one input line (1 MiB).
private let lineLimit = 1 << 20

/// The exit-status contract of `sdkcore binoban send` (Docs/Decisions/0535) and the wording of its messages.
@Suite("sdkcore binoban send: exit status and messages")
struct BinobanSendExitStatusTests {
    /// A 16 MiB line (once ended by a newline, once the end of the file) is reported with its number and the
    /// limit; the lines around it are still sent, and the status says a line was bad.
    @Test func aLineLongerThanTheLimitIsRejectedWithItsNumberAndTheRunGoesOn() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let long = String(repeating: "x", count: 16 << 20)
        let file = try directory.write(
            "events.jsonl", track("e1") + track("e2") + long + "\n" + track("e4") + "{\"type\": \"track\", " + long)
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--source", "S", file],
            environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.status == 2, "\(output.standardError)")
        #expect(
            output.standardError.contains("line 3: longer than the limit of 1048576 bytes"), "\(output.standardError)")
        #expect(output.standardError.contains("line 5: longer than the limit of 1048576 bytes"))
        #expect(try receivedNames(server) == ["e1", "e2", "e4"])
        #expect(
            output.standardError.contains("5 lines read, 3 events accepted, 3 sent, 0 failed, 0 not sent, 2 bad lines"),
            "\(output.standardError)")
    }

    /// With `--strict`, a line from a pipe that is still open ends the run once it passes the limit: the tool
    /// does not wait for the rest of the line (which never comes here).
    @Test func aLongLineEndsAStrictRunBeforeItsEndArrives() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let child = try SDKCoreChild(
            ["binoban", "send", "--strict", "--api-host", "http://127.0.0.1:\(port)", "--source", "S", "-"],
            environment: ["BINOBAN_API_KEY": "K"])
        let exited = try await onBlockingThread { () throws -> Bool in
            try child.write(Data(track("e1").utf8))
            // One byte past the limit, and no newline: the tool reads every byte of it, then stops.
            try child.write(Data(repeating: UInt8(ascii: "x"), count: lineLimit + 1))
            let exited = child.waitForExit(seconds: 60)
            if !exited { child.killAndWait() }
            child.closeInput()
            return exited
        }
        #expect(exited, "still running with its input open: \(child.standardError)")
        #expect(child.status == 2)
        let errors = child.standardError
        #expect(errors.contains("line 2: longer than the limit of 1048576 bytes"), "\(errors)")
        #expect(errors.contains("stopped at the first bad line (--strict)"), "\(errors)")
        #expect(try receivedNames(server) == ["e1"])
    }

    @Test func aHostThePipelineRefusesIsAUsageErrorAndNothingIsRead() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("events.jsonl", track("e1") + track("e2"))
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "ftp://x", "--source", "S", file], environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.status == 64, "\(output.standardError)")
        #expect(output.standardError.contains("apiHost has an unknown scheme"), "\(output.standardError)")
        #expect(output.standardError.contains("nothing was read or sent"))
        #expect(!output.standardError.contains("lines read"))
    }

    /// Ten bad lines of twelve: the two good ones are sent, and the status is 2, not 0.
    @Test func badLinesMakeTheStatus2EvenWhenEveryValidLineWasSent() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let bad = [
            "not json", "[1, 2]", #"{"type": "track"}"#, #"{"type": "send", "name": "x"}"#, #"{"name": "x"}"#,
            #"{"type": "track", "name": 3}"#, #"{"type": "identify", "properties": {}}"#,
            #"{"type": "track", "name": "x", "color": "red"}"#, #"{"type": "track", "name": "x""#,
            #"{"type": "track", "name": "x", "timestamp": "yesterday"}"#,
        ]
        let input = track("first") + bad.map { $0 + "\n" }.joined() + track("last")
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--source", "S", "-"], input: input,
            environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.status == 2, "\(output.standardError)")
        #expect(try receivedNames(server) == ["first", "last"])
        #expect(
            output.standardError.contains(
                "12 lines read, 2 events accepted, 2 sent, 0 failed, 0 not sent, 10 bad lines"),
            "\(output.standardError)")
        for number in 2...11 { #expect(output.standardError.contains("line \(number): "), "line \(number)") }
    }

    /// Events lost for good outweigh bad lines: status 1.
    @Test func eventsTheIngestRejectsMakeTheStatus1EvenWithBadLines() async throws {
        let server = LoopbackHTTPServer(responder: .always(.status(400)))
        let port = try server.start()
        defer { server.stop() }
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--source", "S", "-"],
            input: track("e1") + "not json\n" + track("e3"), environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.status == 1, "\(output.standardError)")
        #expect(
            output.standardError.contains("3 lines read, 2 events accepted, 0 sent, 2 failed, 0 not sent, 1 bad line"),
            "\(output.standardError)")
    }

    /// An ingest that accepts the connection and never answers, `--max-retries 7`: one SIGINT during the final
    /// flush ends the run with status 130 and the summary, which says where the unsent events are.
    @Test(arguments: [false, true])
    func sigintDuringTheFinalFlushEndsTheRunWithTheSummary(durable: Bool) async throws {
        let listener = try UnansweringListener()
        defer { listener.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var arguments = [
            "binoban", "send", "--max-retries", "7", "--api-host", "http://127.0.0.1:\(listener.port)", "--source",
            "S", "-",
        ]
        if durable { arguments.insert(contentsOf: ["--storage", directory.url.path], at: 2) }
        let child = try SDKCoreChild(arguments, environment: ["BINOBAN_API_KEY": "K"])
        let (connected, exited) = try await onBlockingThread { () throws -> (Bool, Bool) in
            try child.write(Data((track("e1") + track("e2")).utf8))
            child.closeInput()
            // The input has ended, so the upload that connects is the final flush's.
            let connected = listener.waitForConnection(seconds: 60)
            child.send(SIGINT)
            let exited = child.waitForExit(seconds: 30)
            if !exited { child.killAndWait() }
            return (connected, exited)
        }
        #expect(connected)
        #expect(exited, "one SIGINT did not end the run: \(child.standardError)")
        #expect(child.status == 130)
        let errors = child.standardError
        let summary = try #require(errors.split(separator: "\n").last { $0.contains("lines read") })
        #expect(summary.contains("2 lines read, 2 events accepted, 0 sent, 0 failed, 2 not sent, 0 bad lines"))
        #expect(summary.contains("interrupted by a signal"), "\(summary)")
        if durable {
            #expect(summary.contains("the 2 events not sent are kept in \(directory.url.path) for the next run"))
        } else {
            #expect(summary.contains("the 2 events not sent are lost with this run"), "\(summary)")
            #expect(!summary.contains("kept in"))
        }
    }

    /// Interrupted while waiting for more input after every event was sent: nothing is said to stay in the
    /// storage, because nothing does.
    @Test func anInterruptedRunSaysEventsStayOnlyWhenSomeDo() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let child = try SDKCoreChild(
            [
                "binoban", "send", "--progress", "plain", "--flush-at", "2", "--storage", directory.url.path,
                "--api-host", "http://127.0.0.1:\(port)", "--source", "S", "-",
            ],
            environment: ["BINOBAN_API_KEY": "K"])
        let (seen, exited) = try await onBlockingThread { () throws -> (String, Bool) in
            try child.write(Data((track("e1") + track("e2")).utf8))
            let seen = child.waitForStandardError(containing: "sent 2 ", seconds: 60)
            child.send(SIGINT)
            let exited = child.waitForExit(seconds: 30)
            if !exited { child.killAndWait() }
            child.closeInput()
            return (seen, exited)
        }
        #expect(seen.contains("sent 2 "), "\(seen)")
        #expect(exited)
        #expect(child.status == 130)
        let summary = try #require(child.standardError.split(separator: "\n").last { $0.contains("lines read") })
        #expect(summary.contains("2 sent, 0 failed, 0 not sent"), "\(summary)")
        #expect(summary.contains("interrupted by a signal"))
        #expect(!summary.contains("kept in"), "\(summary)")
    }

    /// Every message about a bad line names the field and the kind of value, or where the JSON breaks, and never
    /// repeats what the line holds; errors from the libraries carry no type names.
    @Test func messagesNameTheKindOfValueNeverTheValue() async throws {
        let secret = "alice@example.com"
        let input = [
            #"{"type": "track", "name": {"email": "\#(secret)"}}"#,
            #"{"type": "track", "name": "x", "userId": ["\#(secret)"]}"#,
            #"{"type": "track", "name": "x", "properties": "\#(secret)"}"#,
            #"{"type": "track", "name": "x", "timestamp": "\#(secret)"}"#,
            #"{"type": "\#(secret)", "name": "x"}"#,
            #"{"type": "track", "name": "x", "\#(secret)": 1}"#,
            #"{"type": "track", "name" "\#(secret)"}"#,
            #"{"é": 1 "\#(secret)"}"#,
            #""\#(secret)""#,
        ].joined(separator: "\n")
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--source", "S", "-"], input: input, environment: ["BINOBAN_API_KEY": "K"])
        let errors = output.standardError
        #expect(output.status == 2, "\(errors)")
        #expect(!errors.contains("alice"), "\(errors)")
        #expect(errors.contains("line 1: name: expected a string, found an object"), "\(errors)")
        #expect(errors.contains("line 2: userId: expected a string, found an array"))
        #expect(errors.contains("line 3: properties: expected an object, found a string"))
        #expect(errors.contains("line 4: timestamp: expected an ISO-8601 time"))
        #expect(
            errors.contains(
                #"line 5: type: expected one of "track", "identify", "page", "screen", "group", "alias", found a different string"#
            ))
        #expect(errors.contains("line 6: unknown field (a name of 17 characters, not shown)"), "\(errors)")
        #expect(errors.contains("line 7: not valid JSON at column 26: expected ':' after the member name"))
        #expect(errors.contains("line 8: not valid JSON at column 9 (byte 10): expected ',' or '}'"), "\(errors)")
        #expect(errors.contains("line 9: a line must be a JSON object, found a string"))

        // A storage path that is a file: the storage's own words, not its error type.
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("not-a-directory", "")
        let storage = try await SDKCoreProcess.run(
            ["binoban", "send", "--storage", file, "--api-host", "http://127.0.0.1:9", "--source", "S", "-"],
            input: "", environment: ["BINOBAN_API_KEY": "K"])
        #expect(storage.status == 73)
        #expect(storage.standardError.contains("is not a directory"), "\(storage.standardError)")
        // The instance's reports: their explanation, without the report kind's identifier.
        let refused = try await SDKCoreProcess.run(
            ["binoban", "send", "--max-retries", "0", "--api-host", "http://127.0.0.1:9", "--source", "S", "-"],
            input: track("e1"), environment: ["BINOBAN_API_KEY": "K"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("warning: apiHost uses plain HTTP"), "\(refused.standardError)")
        for text in [storage.standardError, refused.standardError] {
            for name in [
                "BinobanFileStorageError", "NSCocoaErrorDomain", "Error Domain=", "configurationAdjusted:",
                "uploadFailed:", "directoryUnusable",
            ] {
                #expect(!text.contains(name), "\(name) in \(text)")
            }
        }
    }

    @Test func dryRunSaysWouldSendNotSent() async throws {
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--progress", "plain", "--source", "S", "-"],
            input: track("e1") + track("e2") + track("e3"), environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardError.split(separator: "\n")
        let summary = try #require(lines.last)
        #expect(summary.contains("3 lines read, 3 events accepted, would send 3, 0 failed"), "\(summary)")
        #expect(summary.contains("dry run: nothing was sent"))
        #expect(!summary.contains("3 sent"))
        let progress = try #require(lines.last { $0.hasPrefix("progress: ") })
        #expect(progress.contains("· would send 3 ·"), "\(progress)")
        #expect(!progress.contains("· sent"))
    }
}
