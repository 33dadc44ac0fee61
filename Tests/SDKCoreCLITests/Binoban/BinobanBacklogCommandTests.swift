import Foundation
import LoopbackHTTP
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every file of `directory` with its bytes: what the backlog commands must leave exactly as they found it.
private func snapshot(_ directory: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
        files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
    }
    return files
}

/// The JSON objects of `text`, one per line.
private func objects(_ text: String) throws -> [NSDictionary] {
    try text.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? NSDictionary)
    }
}

@Suite("sdkcore binoban backlog: the stored batches, listed and exported without changing them")
struct BinobanBacklogCommandTests {
    /// A send with the ingest down leaves its events; the listing counts them, the export gives them exactly as
    /// the next run then uploads them, and neither touches a file.
    @Test func theBacklogOfARealRunIsListedAndExportedInTheWireForm() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Nothing listens there while the test runs: the port is held, so no other test's server (a listener of the
        // hostile matrix, say) can take it and have this run's uploads use up its script.
        let down = try RefusingPort()
        defer { withExtendedLifetime(down) {} }
        let downPort = down.port
        // Line 7 carries an old timestamp: the oldest event, whatever the clock says now.
        let input = (1...30).map { line -> String in
            let stamp = line == 7 ? #", "timestamp": "2026-01-02T03:04:05.678Z""# : ""
            return #"{"type": "track", "name": "e", "properties": {"line": \#(line)}\#(stamp)}"#
        }.joined(separator: "\n")
        let stored = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--max-retries", "0", "--storage", directory.url.path, "--api-host",
                "http://127.0.0.1:\(downPort)", "--api-key", "K", "--source", "web", "-",
            ], input: input)
        #expect(stored.status == 1, "\(stored.standardError)")
        let before = try snapshot(directory.url)

        let listed = try await SDKCoreProcess.run(
            ["binoban", "backlog", "--storage", directory.url.path, "--source", "web"])
        #expect(listed.status == 0, "\(listed.standardError)")
        let total = try #require(listed.standardOutput.split(separator: "\n").last)
        // How many batches depends on when the run's flushes closed them; the events do not.
        #expect(total.hasPrefix("total: ") && total.contains(", 30 events, "), "\(listed.standardOutput)")
        #expect(total.contains(" d "), "\(total)")
        #expect(total.hasSuffix("(2026-01-02T03:04:05.678Z)"), "\(total)")
        let exported = try await SDKCoreProcess.run(
            ["binoban", "backlog", "export", "--storage", directory.url.path, "--source", "web"])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(try snapshot(directory.url) == before)

        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let sent = try await SDKCoreProcess.run(
            [
                "binoban", "send", "--storage", directory.url.path, "--api-host", "http://127.0.0.1:\(port)",
                "--api-key", "K", "--source", "web", "-",
            ], input: input)
        #expect(sent.status == 0, "\(sent.standardError)")
        let uploaded = try server.requests.flatMap { request -> [NSDictionary] in
            let envelope = try #require(try JSONSerialization.jsonObject(with: request.body) as? NSDictionary)
            return try #require(envelope["batch"] as? [NSDictionary])
        }
        let exportedEvents = try objects(exported.standardOutput)
        #expect(exportedEvents.count == 30)
        // Batches may be uploaded concurrently, so in another order; each event is the same object.
        func byId(_ events: [NSDictionary]) -> [String: NSDictionary] {
            Dictionary(events.map { ($0["messageId"] as? String ?? "", $0) }) { first, _ in first }
        }
        #expect(uploaded.count == 30)
        #expect(byId(exportedEvents) == byId(uploaded))
        let empty = try await SDKCoreProcess.run(
            ["binoban", "backlog", "--storage", directory.url.path, "--source", "web"])
        #expect(empty.standardOutput.hasPrefix("no stored batches for source web"), "\(empty.standardOutput)")
    }

    /// A writer killed with SIGKILL mid-append leaves an open batch, maybe with a torn record: the export gives
    /// every event the writer reported stored, each once, in order, and the files stay as the kill left them.
    @Test func theBacklogOfAKilledWriterIsReadWithoutRepairingIt() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let writer = Process()
        writer.executableURL = SDKCoreProcess.productsDirectory.appendingPathComponent("BinobanStorageCrashWriter")
        writer.arguments = [directory.url.path, "S"]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        let reported = try await onBlockingThread { () -> Int in
            var seen = ""
            var stored = 0
            while stored < 400 {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                seen += String(decoding: chunk, as: UTF8.self)
                let last = seen.split(separator: "\n").dropLast(seen.hasSuffix("\n") ? 0 : 1).last ?? ""
                stored = Int(last.dropFirst("stored ".count)) ?? stored
            }
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            return stored
        }
        #expect(reported >= 400)
        // Usually the kill leaves an open batch; a kill between closing one batch and the next append leaves none,
        // so the test does not require one.
        let before = try snapshot(directory.url)

        let exported = try await SDKCoreProcess.run(
            ["binoban", "backlog", "export", "--storage", directory.url.path, "--source", "S"])
        #expect(exported.status == 0, "\(exported.standardError)")
        let numbers = try objects(exported.standardOutput).map { try #require($0["i"] as? Int) }
        #expect(numbers.count >= reported)
        #expect(numbers == Array(0..<numbers.count))
        let listed = try await SDKCoreProcess.run(
            ["binoban", "backlog", "--storage", directory.url.path, "--source", "S"])
        #expect(listed.status == 0, "\(listed.standardError)")
        // An open batch with intact events is listed as open (one killed before its first record holds none).
        let openWithEvents = listed.standardOutput.split(separator: "\n").filter { $0.contains(".open  open  ") }
        #expect(openWithEvents.count <= 1, "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("total: "), "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("\(numbers.count) events"), "\(listed.standardOutput)")
        #expect(try snapshot(directory.url) == before)
    }

    /// While a send holds the directory's lock, the backlog is still read (the lock is not needed, nor taken:
    /// the send goes on and finishes normally).
    @Test func theBacklogIsReadWhileAnotherProcessHoldsTheLock() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // Held for the whole test, so that no other test's server takes the port (see above).
        let down = try RefusingPort()
        defer { withExtendedLifetime(down) {} }
        let downPort = down.port
        let sender = try SDKCoreChild(
            [
                "binoban", "send", "--progress", "plain", "--max-retries", "0", "--storage", directory.url.path,
                "--api-host", "http://127.0.0.1:\(downPort)", "--api-key", "K", "--source", "S", "-",
            ])
        defer { sender.killAndWait() }
        try sender.write(Data("{\"type\":\"track\",\"name\":\"a\"}\n{\"type\":\"track\",\"name\":\"b\"}\n".utf8))
        let seen = try await onBlockingThread { sender.waitForStandardError(containing: "stored 2 ", seconds: 60) }
        #expect(seen.contains("stored 2 "), "\(seen)")
        let exported = try await SDKCoreProcess.run(
            ["binoban", "backlog", "export", "--storage", directory.url.path, "--source", "S"])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(try objects(exported.standardOutput).compactMap { $0["event"] as? String } == ["a", "b"])
        sender.closeInput()
        #expect(try await onBlockingThread { sender.waitForExit(seconds: 60) })
        #expect(sender.status == 1, "\(sender.standardError)")
        #expect(!sender.standardError.contains("memory"), "\(sender.standardError)")
    }

    @Test func optionErrorsNameTheOptionButNeverItsValue() async throws {
        let output = try await SDKCoreProcess.run(
            ["binoban", "backlog", "--storage", "/nonexistent", "--apikey=SUPERSECRET"])
        #expect(output.status == 64)
        #expect(output.standardError.contains("unknown option '--apikey'"), "\(output.standardError)")
        #expect(!output.standardError.contains("SUPERSECRET"))
        let missing = try await SDKCoreProcess.run(
            ["binoban", "backlog", "--storage", "/nonexistent-sdkcore-dir", "--source", "S"])
        #expect(missing.status == 66)
        #expect(missing.standardError.contains("cannot be inspected"), "\(missing.standardError)")
    }
}
