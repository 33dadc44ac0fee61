import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The default storage when its directory goes away while the instance runs: real files, uploads to an ingest on
/// 127.0.0.1, the instance's clock a manual one so that the directory's retry comes when the test says.
@Suite("A storage directory removed, replaced or made read-only while the instance runs")
struct StorageDirectoryLossTests {
    /// Batches of 8 000 bytes (about 25 events each), so that a few hundred events make finished batches and an
    /// open one; no upload before the test flushes.
    static func configuration(
        _ directory: URL, _ port: UInt16, _ clock: ManualClock, _ reports: LockedValue<[BinobanError]>
    ) -> Configuration {
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "lost")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.transport = URLSessionEventTransport()
        configuration.storageDirectory = directory
        configuration.flushAt = 100_000
        configuration.flushInterval = 3_600
        configuration.clock = clock
        configuration.storageLimits = BinobanStorageLimits(
            maxBatchBytes: 8_000, maxFinishedBatches: 1_000, maxTotalBytes: 50_000_000)
        configuration.errorHandler = { error in reports.withLock { $0.append(error) } }
        return configuration
    }

    /// What each test starts from: an ingest on 127.0.0.1 that answers 200, and an instance of ``configuration``
    /// on `<base>/binoban` with its manual clock and the errors it reports. ``stop()`` ends the server and
    /// deletes the base (made writable again first).
    struct Rig {
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port: UInt16
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("loss-\(UUID().uuidString)")
        let clock = ManualClock()
        let reports = LockedValue<[BinobanError]>([])
        let directory: URL
        let binoban: Binoban

        init() throws {
            directory = base.appendingPathComponent("binoban", isDirectory: true)
            port = try server.start()
            binoban = Binoban.create(
                configuration: StorageDirectoryLossTests.configuration(directory, port, clock, reports))
        }

        func stop() {
            server.stop()
            chmod(directory.path, 0o700)
            try? FileManager.default.removeItem(at: base)
        }
    }

    /// Tracks `e-<n>` for each n and waits until the loop wrote them.
    static func track(_ binoban: Binoban, _ range: Range<Int>) async {
        for index in range { binoban.track(name: "e-\(index)", properties: ["padding": .string("p")]) }
        await binoban.waitUntilQuiet()
    }

    /// The events the ingest received, by name; fails the test on one received twice.
    static func delivered(_ server: LoopbackHTTPServer) throws -> Set<String> {
        let events = try server.requests.flatMap { try UploadedBatch.decode($0.body).batch }
        let names = events.compactMap(\.event)
        #expect(Set(events.map(\.messageId)).count == events.count, "an event arrived twice")
        return Set(names)
    }

    /// The finished and open batch files' events in `directory` (read without the lock).
    static func storedEvents(_ directory: URL) throws -> (finished: Int, open: Int) {
        let batches = try StoredBacklogReader(directory: directory, namespace: "lost").batches()
        return (
            batches.filter { !$0.isOpen }.reduce(0) { $0 + $1.eventCount },
            batches.filter(\.isOpen).reduce(0) { $0 + $1.eventCount }
        )
    }

    @Test(
        "rm -rf of the directory: the open batch is kept through its descriptor, the directory made again at once, the finished batches counted as lost, later events kept"
    )
    func directoryRemoved() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let (server, base, directory, reports, binoban) = (
            rig.server, rig.base, rig.directory, rig.reports, rig.binoban
        )

        await Self.track(binoban, 0..<150)
        let before = try Self.storedEvents(directory)
        #expect(before.finished > 0 && before.open > 0, "\(before)")
        #expect(before.finished + before.open == 150)
        try FileManager.default.removeItem(at: base)

        await Self.track(binoban, 150..<300)
        #expect(binoban.isStorageDurable)
        #expect(await binoban.flushAndWait().outcome == .completed)
        _ = await binoban.shutdown(gracePeriod: .seconds(10))

        let statistics = binoban.statistics
        let delivered = try Self.delivered(server)
        // Every event is delivered or counted as lost, exactly: the finished batches' files went with the
        // directory; the open batch's events were read back through its descriptor.
        #expect(statistics.dropped.storageFailure == before.finished)
        #expect(delivered.count + statistics.dropped.storageFailure == 300)
        #expect(statistics.dropped.total == statistics.dropped.storageFailure)
        #expect(delivered.isSuperset(of: (150 - before.open..<300).map { "e-\($0)" }))
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.uploadedEvents == delivered.count)
        #expect(statistics.storageFallbacks == 0)
        #expect(statistics.storageIsDurable)
        let storage = reports.withLock { $0 }.filter { $0.kind == .storage }
        #expect(storage.contains { $0.message.contains("opened again") }, "\(storage)")
        // The lost events are reported with their number (a rate-limited report's number reaches its summary).
        #expect(storage.reduce(0) { $0 + $1.eventCount } == before.finished, "\(storage)")
        // The directory exists again, 0700, with its lock file.
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("lost.lock").path))
    }

    @Test(
        "A regular file put in the directory's place: memory with one report, back to disk once it can be made again; nothing read back is lost"
    )
    func directoryReplacedThenUsableAgain() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let (server, directory, clock, reports, binoban) = (
            rig.server, rig.directory, rig.clock, rig.reports, rig.binoban
        )

        await Self.track(binoban, 0..<100)
        let before = try Self.storedEvents(directory)
        try FileManager.default.removeItem(at: directory)
        // What a tmp cleaner and a careless script could leave: a file where the directory was.
        try Data("not a directory".utf8).write(to: directory)

        await Self.track(binoban, 100..<200)
        #expect(!binoban.isStorageDurable)
        #expect(!binoban.statistics.storageIsDurable)
        #expect(binoban.isOperational)
        #expect(binoban.statistics.storageFallbacks == 1)
        let fallbackReports = reports.withLock { $0 }.filter {
            $0.kind == .storage && $0.message.contains("keeps its batches in memory")
        }
        #expect(fallbackReports.count == 1, "\(reports.withLock { $0 })")
        // Uploaded from memory meanwhile.
        #expect(await binoban.flushAndWait().outcome == .completed)
        await Self.track(binoban, 200..<260)
        // Still unusable at the next try: nothing new is reported.
        clock.advance(by: .seconds(5))
        await Self.track(binoban, 260..<270)
        #expect(!binoban.isStorageDurable)

        try FileManager.default.removeItem(at: directory)
        clock.advance(by: .seconds(5))
        await Self.track(binoban, 270..<300)
        #expect(binoban.isStorageDurable)
        #expect(binoban.statistics.storageIsDurable)
        // What was kept in memory is on disk now (the write that came back moved it).
        let onDisk = try Self.storedEvents(directory)
        #expect(onDisk.finished + onDisk.open == 100, "\(onDisk)")
        #expect(await binoban.flushAndWait().outcome == .completed)
        _ = await binoban.shutdown(gracePeriod: .seconds(10))

        let statistics = binoban.statistics
        let delivered = try Self.delivered(server)
        #expect(statistics.dropped.storageFailure == before.finished)
        #expect(delivered.count + statistics.dropped.storageFailure == 300)
        #expect(delivered.isSuperset(of: (100 - before.open..<300).map { "e-\($0)" }))
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.storageFallbacks == 1)
        let storage = reports.withLock { $0 }.filter { $0.kind == .storage }
        #expect(storage.filter { $0.message.contains("keeps its batches in memory") }.count == 1, "\(storage)")
        #expect(storage.filter { $0.message.contains("used again") }.count == 1, "\(storage)")
        #expect(storage.reduce(0) { $0 + $1.eventCount } == before.finished, "\(storage)")
    }

    @Test(
        "chmod 0500 of the directory: memory with one report, nothing lost; back to disk after chmod 0700, the files left behind deleted, nothing sent twice",
        .enabled(
            if: geteuid() != 0, "permissions do not bite for root; the replaced-directory test covers the same path"))
    func directoryMadeReadOnly() async throws {
        let rig = try Rig()
        defer { rig.stop() }
        let (server, port, directory, clock, reports, binoban) = (
            rig.server, rig.port, rig.directory, rig.clock, rig.reports, rig.binoban
        )

        await Self.track(binoban, 0..<100)
        #expect(chmod(directory.path, 0o500) == 0)
        await Self.track(binoban, 100..<200)
        #expect(!binoban.isStorageDurable)
        #expect(await binoban.flushAndWait().outcome == .completed)
        #expect(try Self.delivered(server).count == 200)

        #expect(chmod(directory.path, 0o700) == 0)
        clock.advance(by: .seconds(5))
        await Self.track(binoban, 200..<250)
        #expect(binoban.isStorageDurable)
        #expect(await binoban.flushAndWait().outcome == .completed)
        _ = await binoban.shutdown(gracePeriod: .seconds(10))

        let statistics = binoban.statistics
        #expect(try Self.delivered(server) == Set((0..<250).map { "e-\($0)" }))
        #expect(statistics.dropped.total == 0)
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.storageFallbacks == 1)
        // A later run finds nothing to send a second time.
        let requests = server.requestCount
        let later = Binoban.create(configuration: Self.configuration(directory, port, clock, reports))
        #expect(later.statistics.recoveredEvents == 0)
        #expect(await later.flushAndWait().outcome == .completed)
        _ = await later.shutdown(gracePeriod: .seconds(10))
        #expect(server.requestCount == requests)
    }
}
