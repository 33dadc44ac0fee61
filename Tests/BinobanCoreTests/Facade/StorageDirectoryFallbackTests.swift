import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("An instance refuses a storage directory that is not its user's alone")
struct StorageDirectoryFallbackTests {
    @Test(
        "A directory others may write to: memory, one storage report naming it, counted; a planted batch and identity are not adopted",
        arguments: [0o777, 0o775])
    func writableByOthers(mode: Int) async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("shared", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            // What someone with write access could leave: a batch with this source's name and an identity.
            let batch = try await BinobanFileEventStorageOwnershipTests.batchFile([
                Data(#"{"type":"track","event":"planted","messageId":"m","anonymousId":"planted"}"#.utf8)
            ])
            try batch.write(to: directory.appendingPathComponent(StorageFiles.name("SRC", 1)))
            let identity = directory.appendingPathComponent("SRC.identity.json")
            try Data(#"{"anonymousId":"planted-identity"}"#.utf8).write(to: identity)
            #expect(chmod(directory.path, mode_t(mode)) == 0)

            let reports = ReportRecorder()
            let transport = ScriptedTransport()
            let metrics = InMemoryMetricsObserver()
            let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SRC") { config in
                config.apiHost = "api.binoban.io"
                config.storageDirectory = directory
                config.transport = transport
                config.errorHandler = reports.handler
                config.metricsObserver = metrics
            }
            #expect(binoban.anonymousId() != "planted-identity")
            binoban.track(name: "mine")
            #expect(await binoban.flushAndWait().outcome == .completed)
            _ = await binoban.shutdown(gracePeriod: .seconds(5))

            #expect(try transport.uploadedEvents().map(\.event) == ["mine"])
            let storage = reports.all.filter { $0.kind == .storage }
            #expect(storage.count == 1)
            #expect(storage.first?.message.contains(directory.path) == true, "\(storage)")
            #expect(storage.first?.message.contains("in memory") == true)
            #expect(!reports.contains(.keyValueStore))
            #expect(binoban.statistics.storageFallbacks == 1)
            #expect(metrics.counter("binoban_storage_fallbacks_total") == 1)
            // Nothing in the directory was changed.
            #expect(try Data(contentsOf: identity) == Data(#"{"anonymousId":"planted-identity"}"#.utf8))
            #expect(try StorageFiles.names(directory) == [StorageFiles.name("SRC", 1), "SRC.identity.json"])
        }
    }

    @Test("The directory an instance creates is 0700 and its lock, identity and batches are 0600")
    func createdModes() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("made/binoban", isDirectory: true)
            let transport = ScriptedTransport(defaultAnswer: 500)
            let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SRC") { config in
                config.apiHost = "api.binoban.io"
                config.storageDirectory = directory
                config.transport = transport
                config.uploadMaxRetries = 0
            }
            binoban.track(name: "kept")
            _ = await binoban.flushAndWait()
            _ = await binoban.shutdown(gracePeriod: .seconds(5))
            #expect(binoban.statistics.storageFallbacks == 0)
            for path in ["made", "made/binoban"] {
                #expect(try StorageFiles.permissions(base.appendingPathComponent(path)) == 0o700, "\(path)")
            }
            let names = try StorageFiles.names(directory)
            #expect(names.contains("SRC.lock"))
            #expect(names.contains("SRC.identity.json"))
            #expect(names.contains { $0.hasSuffix(".batch") }, "\(names)")
            for name in names {
                #expect(try StorageFiles.permissions(directory.appendingPathComponent(name)) == 0o600, "\(name)")
            }
        }
    }
}
