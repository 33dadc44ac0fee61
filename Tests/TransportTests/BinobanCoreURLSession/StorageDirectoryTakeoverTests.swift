import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

@testable import BinobanCore

/// The storage helper process (target `BinobanStorageCrashWriter`), run here in its `hold` and `instance` modes.
private let helper = LineProcess.builtExecutable(named: "BinobanStorageCrashWriter")

/// An instance that started in memory because another process held its directory takes the directory once that
/// process is gone: two real processes on one directory, an ingest on 127.0.0.1, this process's instance on a
/// manual clock so that its retry comes when the test says.
@Suite("A directory another process held is taken over once it frees")
struct StorageDirectoryTakeoverTests {
    static func configuration(
        _ directory: URL, _ source: String, _ port: UInt16, _ clock: ManualClock,
        _ reports: LockedValue<[BinobanError]>
    ) -> Configuration {
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: source)
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.transport = URLSessionEventTransport()
        configuration.storageDirectory = directory
        configuration.flushAt = 100_000
        configuration.flushInterval = 3_600
        configuration.clock = clock
        configuration.errorHandler = { error in reports.withLock { $0.append(error) } }
        return configuration
    }

    /// Every event of every request the ingest received: the `event` name of a tracked event, or `i-<n>` for the
    /// bare `{"i":n}` events the `hold` helper writes.
    static func received(_ server: LoopbackHTTPServer) throws -> [String] {
        try server.requests.flatMap { request -> [String] in
            let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
            let batch = try #require(body["batch"] as? [[String: Any]])
            return batch.map { event in (event["event"] as? String) ?? "i-\(event["i"] as? Int ?? -1)" }
        }
    }

    @Test(
        "Rolling restart: the second process's instance starts in memory, takes the directory when the first exits, moves what it kept there, and every event of both arrives once",
        .enabled(if: helper != nil, "the BinobanStorageCrashWriter executable was not built"))
    func rollingRestart() async throws {
        let executable = try #require(helper)
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("takeover-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 300

        // The old process runs first and holds the directory.
        let old = try LineProcess(
            executable: executable, arguments: ["instance", directory.path, "rolling", "\(port)", "\(count)", "old"])
        #expect(try await old.nextLine(startingWith: "created") == "created 0")

        let clock = ManualClock()
        let reports = LockedValue<[BinobanError]>([])
        let new = Binoban.create(configuration: Self.configuration(directory, "rolling", port, clock, reports))
        #expect(new.isOperational)
        #expect(!new.isStorageDurable)
        #expect(new.statistics.storageFallbacks == 1)
        for index in 0..<count { new.track(name: "new-\(index)") }
        await new.waitUntilQuiet()
        // Still held: a retry now stays in memory, silently.
        clock.advance(by: .seconds(5))
        new.track(name: "new-\(count)")
        await new.waitUntilQuiet()
        #expect(!new.isStorageDurable)

        // The old process drains and exits.
        old.send("go")
        _ = try await old.nextLine(startingWith: "flushed")
        old.send("stop")
        #expect(try await old.nextLine(startingWith: "done") == "done \(count) 0 0")
        #expect(await old.waitForExit() == 0)

        clock.advance(by: .seconds(5))
        new.track(name: "new-\(count + 1)")
        await new.waitUntilQuiet()
        #expect(new.isStorageDurable)
        #expect(new.statistics.storageIsDurable)
        // What was kept in memory is in the directory now.
        let onDisk = try StoredBacklogReader(directory: directory, namespace: "rolling").batches()
        #expect(onDisk.reduce(0) { $0 + $1.eventCount } == count + 2)
        let storage = reports.withLock { $0 }.filter { $0.kind == .storage }
        #expect(storage.filter { $0.message.contains("used again") }.count == 1, "\(storage)")

        #expect(await new.flushAndWait().outcome == .completed)
        _ = await new.shutdown(gracePeriod: .seconds(10))
        let received = try Self.received(server)
        let expected = (0..<count).map { "old-\($0)" } + (0...(count + 1)).map { "new-\($0)" }
        #expect(received.count == expected.count)
        #expect(Set(received) == Set(expected))
        let statistics = new.statistics
        #expect(statistics.uploadedEvents == count + 2)
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.dropped.total == 0)
        #expect(statistics.storageFallbacks == 1)
    }

    @Test(
        "The takeover counts the events the other process left (recoveredEvents, queued) and uploads them once",
        .enabled(if: helper != nil, "the BinobanStorageCrashWriter executable was not built"))
    func takeoverCountsWhatWasLeft() async throws {
        let executable = try #require(helper)
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("takeover-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // The other process holds the namespace with 40 events in an open batch, and exits without finishing it.
        let holder = try LineProcess(executable: executable, arguments: ["hold", directory.path, "held", "40"])
        #expect(try await holder.nextLine(startingWith: "holding") == "holding 40")

        let clock = ManualClock()
        let reports = LockedValue<[BinobanError]>([])
        let binoban = Binoban.create(configuration: Self.configuration(directory, "held", port, clock, reports))
        for index in 0..<60 { binoban.track(name: "e-\(index)") }
        await binoban.waitUntilQuiet()
        #expect(binoban.statistics.recoveredEvents == 0)
        #expect(binoban.statistics.queuedEvents == 60)

        holder.send("stop")
        _ = try await holder.nextLine(startingWith: "stopped")
        #expect(await holder.waitForExit() == 0)
        clock.advance(by: .seconds(5))
        for index in 60..<70 { binoban.track(name: "e-\(index)") }
        await binoban.waitUntilQuiet()

        var statistics = binoban.statistics
        #expect(binoban.isStorageDurable)
        #expect(statistics.recoveredEvents == 40)
        #expect(statistics.queuedEvents == 110)
        #expect(statistics.acceptedEvents + statistics.recoveredEvents == statistics.queuedEvents)

        #expect(await binoban.flushAndWait().outcome == .completed)
        _ = await binoban.shutdown(gracePeriod: .seconds(10))
        let received = try Self.received(server)
        #expect(received.count == 110)
        #expect(Set(received) == Set((0..<70).map { "e-\($0)" } + (0..<40).map { "i-\($0)" }))
        statistics = binoban.statistics
        #expect(statistics.uploadedEvents == 110)
        #expect(statistics.queuedEvents == 0)
        #expect(
            statistics.acceptedEvents + statistics.recoveredEvents
                == statistics.queuedEvents + statistics.uploadedEvents + statistics.dropped.total)
    }
}
