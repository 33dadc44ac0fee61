import BinobanCore
import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

/// The storage helper process (target `BinobanStorageCrashWriter`), run here in its `instance` mode.
private let helper = LineProcess.builtExecutable(named: "BinobanStorageCrashWriter")

@Suite("Two processes on one storage directory and one ingest (127.0.0.1)")
struct SharedStorageDirectoryTests {
    @Test(
        "The second process falls back to memory, reports and counts it; every event arrives exactly once",
        .enabled(if: helper != nil, "the BinobanStorageCrashWriter executable was not built"))
    func secondProcessFallsBackAndNothingIsLostOrRepeated() async throws {
        let executable = try #require(helper)
        let server = LoopbackHTTPServer(responder: .always(.ok))
        let port = try server.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shared-storage-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 1_500

        // The other process creates its instance first and holds the directory's namespace.
        let other = try LineProcess(
            executable: executable,
            arguments: ["instance", directory.path, "shared", "\(port)", "\(count)", "other"])
        #expect(try await other.nextLine(startingWith: "created") == "created 0")

        let reports = LockedValue<[BinobanError]>([])
        let binoban = Binoban.create(configuration: Self.configuration(directory, port, reports))
        #expect(binoban.statistics.storageFallbacks == 1)
        let storageReports = reports.withLock { $0 }.filter { $0.kind == .storage }
        #expect(storageReports.count == 1)
        #expect(storageReports.first?.message.contains(directory.path) == true, "\(storageReports)")
        #expect(storageReports.first?.message.contains("another instance") == true)

        // Both write and upload at the same time.
        other.send("go")
        for index in 0..<count { binoban.track(name: "this-\(index)") }
        let flush = await binoban.flushAndWait()
        #expect(flush.outcome == .completed)
        _ = try await other.nextLine(startingWith: "flushed")
        other.send("stop")
        let done = try await other.nextLine(startingWith: "done")
        #expect(await other.waitForExit() == 0)
        _ = await binoban.shutdown(gracePeriod: .seconds(10))
        #expect(done == "done \(count) 0 0", "\(other.output)")
        #expect(!other.output.contains { $0.hasPrefix("report storage") }, "\(other.output)")
        #expect(binoban.statistics.uploadedEvents == count)

        let events = try server.requests.flatMap { try UploadedBatch.decode($0.body).batch }
        let expected = Set((0..<count).flatMap { ["this-\($0)", "other-\($0)"] })
        #expect(events.count == 2 * count)
        #expect(Set(events.compactMap(\.event)) == expected)
        #expect(Set(events.map(\.messageId)).count == 2 * count)

        // A later run on the directory owns it again and finds nothing left to upload a second time.
        let requestsBefore = server.requestCount
        let later = Binoban.create(configuration: Self.configuration(directory, port, reports))
        #expect(later.statistics.storageFallbacks == 0)
        #expect(await later.flushAndWait().outcome == .completed)
        _ = await later.shutdown(gracePeriod: .seconds(10))
        #expect(server.requestCount == requestsBefore)
    }

    private static func configuration(
        _ directory: URL, _ port: UInt16, _ reports: LockedValue<[BinobanError]>
    ) -> Configuration {
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "shared")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.transport = URLSessionEventTransport()
        configuration.storageDirectory = directory
        configuration.flushAt = 50
        configuration.flushInterval = 3_600
        configuration.errorHandler = { error in reports.withLock { $0.append(error) } }
        return configuration
    }
}
