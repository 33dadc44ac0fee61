import Foundation
import LoopbackHTTP
import TestSupport
import Testing

/// Every event the ingest received, decoded, in arrival order.
private func receivedEvents(_ server: LoopbackHTTPServer) throws -> [[String: Any]] {
    try server.requests.flatMap { request -> [[String: Any]] in
        let envelope = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        return try #require(envelope["batch"] as? [[String: Any]])
    }
}

private func lines(_ count: Int, from first: Int = 1) -> String {
    (first..<first + count).map { #"{"type": "track", "name": "e\#($0)", "properties": {"line": \#($0)}}"# }
        .joined(separator: "\n") + "\n"
}

@Suite("sdkcore binoban send")
struct BinobanSendCommandTests {
    @Test func deliversEveryLineToTheIngestFieldByField() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let input = """
            {"type": "track", "name": "purchase", "properties": {"item": "shoes"}, "userId": "u1", "timestamp": "2026-01-02T03:04:05.678Z"}
            {"type": "identify", "userId": "u2", "traits": {"plan": "pro"}}

            {"type": "screen", "name": "Checkout", "anonymousId": "anon-9"}
            """
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--api-key", "KEY", "--source", "SRC", "-"],
            input: input)
        #expect(output.status == 0, "\(output.standardError)")
        let events = try receivedEvents(server)
        #expect(events.count == 3)
        let purchase = try #require(events.first { $0["event"] as? String == "purchase" })
        #expect(purchase["type"] as? String == "track")
        #expect(purchase["userId"] as? String == "u1")
        #expect((purchase["properties"] as? [String: Any])?["item"] as? String == "shoes")
        #expect(purchase["timestamp"] as? String == "2026-01-02T03:04:05.678Z")
        let identify = try #require(events.first { $0["type"] as? String == "identify" })
        #expect(identify["userId"] as? String == "u2")
        #expect((identify["traits"] as? [String: Any])?["plan"] as? String == "pro")
        let screen = try #require(events.first { $0["type"] as? String == "screen" })
        #expect(screen["anonymousId"] as? String == "anon-9")
        #expect(screen["name"] as? String == "Checkout")
        #expect(screen["properties"] as? [String: Any] != nil)
        let request = try #require(server.requests.first)
        #expect(request.path == "/b")
        #expect(request.value(forHeader: "Authorization") == "Basic S0VZOg==")
        #expect(output.standardError.contains("3 sent, 0 failed"))
    }

    @Test func everyCallTypeAndMessageFieldIsSentAsTheLineGivesIt() async throws {
        let input = """
            {"type": "page", "name": "Pricing", "category": "Docs", "properties": {"path": "/pricing"}, "userId": "u1", "messageId": "m-page", "timestamp": "2026-01-02T03:04:05.678Z", "context": {"ip": "203.0.113.7", "library": {"name": "x"}}, "integrations": {"All": false}}
            {"type": "screen", "anonymousId": "a1", "messageId": "m-screen"}
            {"type": "group", "groupId": "g1", "traits": {"plan": "pro"}, "userId": "u1", "messageId": "m-group"}
            {"type": "alias", "userId": "u1", "previousId": "a1", "messageId": "m-alias", "timestamp": 1767323045678}
            {"type": "identify", "userId": "u2", "anonymousId": "a2", "traits": {"email": "e"}, "messageId": "m-identify"}
            {"type": "track", "event": "Bought", "userId": "u3", "messageId": "quote \\\" id"}
            """
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--api-key", "K", "--source", "SRC", "-"], input: input)
        #expect(output.status == 0, "\(output.standardError)")
        let envelopes = try output.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let events = envelopes.flatMap { ($0["batch"] as? [[String: Any]]) ?? [] }
        let byId = Dictionary(uniqueKeysWithValues: events.map { ($0["messageId"] as? String ?? "", $0) })
        #expect(byId.count == 6)
        let page = try #require(byId["m-page"])
        #expect(page["type"] as? String == "page")
        #expect(page["name"] as? String == "Pricing")
        #expect(page["category"] as? String == "Docs")
        #expect((page["properties"] as? [String: Any])?["path"] as? String == "/pricing")
        #expect(page["timestamp"] as? String == "2026-01-02T03:04:05.678Z")
        #expect(page["userId"] as? String == "u1")
        #expect(page["anonymousId"] == nil)
        #expect((page["integrations"] as? [String: Any])?["All"] as? Bool == false)
        let context = try #require(page["context"] as? [String: Any])
        #expect(context["ip"] as? String == "203.0.113.7")
        #expect((context["library"] as? [String: Any])?["name"] as? String == "binoban-core-swift")
        #expect(context["device"] == nil)
        let screen = try #require(byId["m-screen"])
        #expect(screen["type"] as? String == "screen")
        #expect(screen["name"] == nil)
        #expect(screen["anonymousId"] as? String == "a1")
        let group = try #require(byId["m-group"])
        #expect(group["type"] as? String == "group")
        #expect(group["groupId"] as? String == "g1")
        #expect((group["traits"] as? [String: Any])?["plan"] as? String == "pro")
        let alias = try #require(byId["m-alias"])
        #expect(alias["type"] as? String == "alias")
        #expect(alias["previousId"] as? String == "a1")
        #expect(alias["userId"] as? String == "u1")
        #expect(alias["anonymousId"] == nil)
        #expect(alias["timestamp"] as? String == "2026-01-02T03:04:05.678Z")
        let identify = try #require(byId["m-identify"])
        #expect(identify["anonymousId"] as? String == "a2")
        #expect(identify["userId"] as? String == "u2")
        #expect(byId["quote \" id"]?["event"] as? String == "Bought")
        // The exact text: the dry run prints the bytes the ingest would get.
        #expect(output.standardOutput.contains(#""messageId":"quote \" id""#))
    }

    @Test func linesWithFieldsOfAnotherTypeOrWithoutTheirRequiredIdsAreBad() async throws {
        let input = [
            #"{"type": "group", "traits": {}}"#,
            #"{"type": "alias", "userId": "u1"}"#,
            #"{"type": "alias", "userId": "u1", "previousId": "a1", "anonymousId": "a1"}"#,
            #"{"type": "track", "name": "x", "groupId": "g"}"#,
            #"{"type": "page", "event": "x"}"#,
            #"{"type": "track", "name": "x", "context": "c"}"#,
        ].joined(separator: "\n")
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--api-key", "K", "--source", "S", "-"], input: input)
        #expect(output.status == 2)
        let errors = output.standardError
        #expect(errors.contains("line 1: groupId: is required for group"), "\(errors)")
        #expect(errors.contains("line 2: previousId: is required for alias"), "\(errors)")
        #expect(errors.contains("line 3: anonymousId: not for alias"), "\(errors)")
        #expect(errors.contains("line 4: groupId: not for track (only group)"), "\(errors)")
        #expect(errors.contains("line 5: event: not for page (only track)"), "\(errors)")
        #expect(errors.contains("line 6: context: expected an object, found a string"), "\(errors)")
    }

    @Test func aBadLineIsReportedWithItsNumberAndTheRunContinues() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let input = lines(2) + #"{"type": "track"}"# + "\n" + lines(1, from: 4)
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--api-key", "K", "--source", "S", "-"],
            input: input)
        // Every valid line was sent, but one was bad: status 2.
        #expect(output.status == 2)
        #expect(output.standardError.contains("line 3: name: is required for track"), "\(output.standardError)")
        #expect(try receivedEvents(server).count == 3)
    }

    @Test func strictStopsAtTheFirstBadLineWithStatus2() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let input = lines(2) + "not json\n" + lines(2, from: 4)
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--strict", "--api-host", "http://127.0.0.1:\(port)", "--api-key", "K", "--source",
                "S",
                "-",
            ],
            input: input)
        #expect(output.status == 2)
        #expect(output.standardError.contains("line 3: not valid JSON"))
        let names = try receivedEvents(server).compactMap { $0["event"] as? String }
        #expect(names == ["e1", "e2"])
    }

    @Test func dryRunPrintsTheEnvelopesAndSendsNothing() async throws {
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--dry-run", "--flush-at", "2", "--api-key", "K", "--source", "SRC", "-"],
            input: lines(3))
        #expect(output.status == 0, "\(output.standardError)")
        let envelopes = try output.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(envelopes.allSatisfy { $0["writeKey"] as? String == "SRC" && $0["sentAt"] is String })
        let names = envelopes.flatMap { ($0["batch"] as? [[String: Any]]) ?? [] }.compactMap { $0["event"] as? String }
        #expect(names == ["e1", "e2", "e3"])
        #expect(output.standardError.contains("dry run: nothing was sent"))
    }

    @Test func anUnreachableIngestKeepsTheEventsAndExitsWith1() async throws {
        // Nothing listens there while the test runs (the port is held, so no other test's server can take it).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--max-retries", "0", "--storage", directory.url.path, "--api-host",
                "http://127.0.0.1:\(port)", "--api-key", "K", "--source", "S", "-",
            ],
            input: lines(3))
        #expect(output.status == 1)
        #expect(
            output.standardError.contains("kept in \(directory.url.path) for the next run"), "\(output.standardError)")
        // The counters say why the status is 1: nothing failed for good, but 3 events were not sent.
        #expect(output.standardError.contains("0 sent, 0 failed, 3 not sent"), "\(output.standardError)")
    }

    @Test func theAPIKeyComesFromBINOBAN_API_KEYSoItStaysOutOfTheArguments() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--source", "SRC", "-"],
            input: lines(2), environment: ["BINOBAN_API_KEY": "ENVKEY"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(server.requests.first?.value(forHeader: "Authorization") == "Basic RU5WS0VZOg==")  // ENVKEY:
        // --api-key still works and wins over the variable.
        let flagged = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--api-key", "KEY", "--source", "S", "-"],
            input: lines(1), environment: ["BINOBAN_API_KEY": "ENVKEY"])
        #expect(flagged.status == 0)
        #expect(server.requests.last?.value(forHeader: "Authorization") == "Basic S0VZOg==")
        // Neither: the error names the variable.
        let missing = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(port)", "--source", "S", "-"], input: "")
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("BINOBAN_API_KEY"))
    }

    @Test func aHostWithoutASchemeGetsANoteSayingWhereBatchesGo() async throws {
        // Nothing listens there while the test runs (the port is held, so no other test's server can take it).
        let refusing = try RefusingPort()
        defer { withExtendedLifetime(refusing) {} }
        let port = refusing.port
        // 127.0.0.1:PORT without http:// is reached over HTTPS; the note says so and gives the plain-HTTP spelling.
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--max-retries", "0", "--api-host", "127.0.0.1:\(port)", "--source", "S", "-"],
            input: lines(1), environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.standardError.contains("note: --api-host '127.0.0.1:\(port)' has no scheme"))
        #expect(output.standardError.contains("write http://127.0.0.1:\(port)"))
        // With a scheme there is no note.
        let live = LoopbackHTTPServer(responder: .always(.ok))
        let livePort = try live.start()
        defer { live.stop() }
        let quiet = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "http://127.0.0.1:\(livePort)", "--source", "S", "-"],
            input: lines(1), environment: ["BINOBAN_API_KEY": "K"])
        #expect(quiet.status == 0)
        #expect(!quiet.standardError.contains("note:"))
    }

    #if os(Linux)
    @Test func aPlainHTTPHostThatIsNotLoopbackIsSentToOnlyWithAllowCleartextHost() async throws {
        // Without the opt-in the batches go over HTTPS: the plain ingest gets a TLS handshake, no POST, and the
        // run says so and exits 1 with the events counted as not sent.
        let refused = try PlainHTTPIngest()
        let host = "http://\(PlainHTTPIngest.address):\(refused.port)"
        let upgraded = try await SDKCoreProcess.run(
            ["binoban", "send", "--max-retries", "0", "--api-host", host, "--source", "S", "-"],
            input: lines(3), environment: ["BINOBAN_API_KEY": "K"])
        #expect(try refused.stop().isEmpty)
        #expect(upgraded.status == 1, "\(upgraded.standardError)")
        #expect(
            upgraded.standardError.contains(
                "note: --api-host '\(host)' is not a loopback host, so batches go over HTTPS "
                    + "(https://\(PlainHTTPIngest.address):\(refused.port)); for a plain-HTTP ingest on a private "
                    + "network add --allow-cleartext-host"), "\(upgraded.standardError)")
        #expect(upgraded.standardError.contains("0 sent, 0 failed, 3 not sent"), "\(upgraded.standardError)")

        // With it every event reaches the plain ingest, the key as Basic auth, and the instance's warning says
        // that they crossed the network unencrypted.
        let ingest = try PlainHTTPIngest()
        let cleartext = "http://\(PlainHTTPIngest.address):\(ingest.port)"
        let sent = try await SDKCoreProcess.run(
            ["binoban", "send", "--allow-cleartext-host", "--api-host", cleartext, "--source", "S", "-"],
            input: lines(3), environment: ["BINOBAN_API_KEY": "K"])
        let posts = try ingest.stop()
        #expect(sent.status == 0, "\(sent.standardError)")
        #expect(posts.map(\.events).reduce(0, +) == 3)
        #expect(posts.allSatisfy { $0.path == "/b" && $0.basicAuth })
        #expect(sent.standardError.contains("events and the API key cross the network unencrypted"))
        #expect(!sent.standardError.contains("note:"))
        #expect(sent.standardError.contains("3 sent, 0 failed, 0 not sent"), "\(sent.standardError)")
    }
    #endif

    @Test func aFlagGivenAValueIsAUsageError() async throws {
        let output = try await SDKCoreProcess.run(
            ["binoban", "send", "--allow-cleartext-host=yes", "--dry-run", "--source", "S", "-"],
            input: lines(1), environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.status == 64)
        #expect(output.standardError.contains("--allow-cleartext-host takes no value"), "\(output.standardError)")
    }

    @Test func progressShowsTheRateAndThePercentageOfAFile() async throws {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("events.jsonl", lines(30))
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--progress", "plain", "--api-host", "http://127.0.0.1:\(port)", "--source", "S",
                file,
            ],
            environment: ["BINOBAN_API_KEY": "K"])
        #expect(output.status == 0, "\(output.standardError)")
        let last = try #require(output.standardError.split(separator: "\n").last { $0.hasPrefix("progress: ") })
        #expect(last.hasPrefix("progress: read 30 (100 %) · stored 30 · sent 30 · failed 0 · "), "\(last)")
        #expect(last.hasSuffix(" events/s"))
        // From a pipe the size is unknown: no percentage.
        let piped = try await SDKCoreProcess.run(
            ["binoban", "send", "--progress", "plain", "--api-host", "http://127.0.0.1:\(port)", "--source", "S", "-"],
            input: lines(3), environment: ["BINOBAN_API_KEY": "K"])
        let pipedLast = try #require(piped.standardError.split(separator: "\n").last { $0.hasPrefix("progress: ") })
        #expect(pipedLast.hasPrefix("progress: read 3 · stored 3"), "\(pipedLast)")
    }

    @Test func usageErrorsAndUnreadableInputHaveTheirStatuses() async throws {
        #expect(try await SDKCoreProcess.run(["binoban", "send", "-"]).status == 64)
        let missing = try await SDKCoreProcess.run(
            ["binoban", "send", "--api-host", "h", "--api-key", "K", "--source", "S", "/nonexistent/events.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("no such file"))
        #expect(try await SDKCoreProcess.run(["binoban", "send", "--help"]).standardOutput.contains("EXIT STATUS"))
    }

    /// Run 1 stores the first 10 lines while the ingest answers 500 and is killed (SIGKILL) once it reported
    /// them stored; run 2 gets all 20 lines and a healthy ingest: every event arrives exactly once.
    @Test func anInterruptedSendResumesWithoutLossOrDuplicates() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let failing = LoopbackHTTPServer(responder: .always(.status(500)))
        let failingPort = try failing.start()
        defer { failing.stop() }

        let arguments = [
            "binoban", "send", "--progress", "plain", "--max-retries", "50", "--storage", directory.url.path,
            "--api-host", "http://127.0.0.1:\(failingPort)", "--api-key", "K", "--source", "S", "-",
        ]
        let input = lines(10)
        let (seen, reason) = try await onBlockingThread { () throws -> (String, Process.TerminationReason) in
            let process = Process()
            process.executableURL = SDKCoreProcess.executable
            process.arguments = arguments
            let standardInput = Pipe()
            let standardError = Pipe()
            process.standardInput = standardInput
            process.standardError = standardError
            process.standardOutput = Pipe()
            try process.run()
            standardInput.fileHandleForWriting.write(Data(input.utf8))
            var seen = ""
            while !seen.contains("stored 10 ") {
                let chunk = standardError.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return (seen, process.terminationReason)
        }
        #expect(seen.contains("stored 10 "), "\(seen)")
        #expect(reason == .uncaughtSignal)

        let healthy = LoopbackHTTPServer(responder: .always(.ok))
        let healthyPort = try healthy.start()
        defer { healthy.stop() }
        let output = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--storage", directory.url.path, "--api-host", "http://127.0.0.1:\(healthyPort)",
                "--api-key", "K", "--source", "S", "-",
            ],
            input: lines(20))
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardError.contains("resuming: lines 1-10 are already stored"))
        let events = try receivedEvents(healthy)
        let numbers = events.compactMap { ($0["properties"] as? [String: Any])?["line"] as? Int }
        #expect(numbers.sorted() == Array(1...20), "\(numbers)")
        #expect(Set(events.compactMap { $0["messageId"] as? String }).count == 20)
    }

    @Test func sigintWhileWaitingForInputEndsWithStatus130() async throws {
        let status = try await onBlockingThread { () throws -> Int32 in
            let process = Process()
            process.executableURL = SDKCoreProcess.executable
            process.arguments = [
                "binoban", "send", "--api-host", "http://127.0.0.1:9", "--api-key", "K", "--source", "S", "-",
            ]
            let standardInput = Pipe()
            let standardError = Pipe()
            process.standardInput = standardInput
            process.standardError = standardError
            process.standardOutput = Pipe()
            try process.run()
            // The loopback-host report is printed after the signal handlers are installed.
            var seen = ""
            while !seen.contains("apiHost uses plain HTTP") {
                let chunk = standardError.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            try standardInput.fileHandleForWriting.close()
            return process.terminationStatus
        }
        #expect(status == 130)
    }

    @Test func aDifferentInputIsRefusedOnResume() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let arguments = [
            "binoban", "send", "--storage", directory.url.path, "--api-host", "http://127.0.0.1:\(port)", "--api-key",
            "K", "--source", "S", "-",
        ]
        #expect(try await SDKCoreProcess.run(arguments, input: lines(3)).status == 0)
        let again = try await SDKCoreProcess.run(arguments, input: lines(3, from: 7))
        #expect(again.status == 65, "\(again.standardError)")
        #expect(try receivedEvents(server).count == 3)
    }
}
