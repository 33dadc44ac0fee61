import Foundation
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Directory entries and limits that would make a storage trap: foreign sequence numbers and huge limits.
@Suite("Storage robustness: foreign sequences and huge limits")
struct StorageRobustnessTests {
    enum Entry: String, CaseIterable, Sendable {
        case file, directory, symlink, fifo
    }

    private static func plant(_ entry: Entry, named name: String, in directory: URL) throws {
        let path = directory.appendingPathComponent(name).path
        switch entry {
        case .file: try StorageFiles.write(Data("x".utf8), directory, name)
        case .directory: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .symlink: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        }
    }

    /// Before: the entry's sequence, 2^64 − 2, became the highest sequence, so the storage opened with
    /// `nextSequence == UInt64.max` and the first append trapped on `nextSequence += 1`.
    @Test("An entry named with a sequence near UInt64.max is foreign", arguments: Entry.allCases)
    func sequenceNearTheTop(entry: Entry) async throws {
        try await withTemporaryDirectory { directory in
            for name in ["src-18446744073709551614.open", "src-18446744073709551615.batch"] {
                try Self.plant(entry, named: name, in: directory)
            }
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            let report = try await storage.append(TestEvents.events(0..<3))
            #expect(report.storedEvents == 3)
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 10) == [BinobanBatchID(sequence: 1)])
            // The foreign entries are left as they were.
            let names = try StorageFiles.names(directory)
            #expect(names.contains("src-18446744073709551614.open"))
            #expect(names.contains("src-18446744073709551615.batch"))
        }
    }

    @Test("A storage whose last sequence is the SDK's largest refuses to start a batch, without trapping")
    func exhaustedSequence() async throws {
        try await withTemporaryDirectory { directory in
            let name = BatchFileName(sequence: BatchFileName.maximumSequence, state: .open).fileName(namespace: "src")
            try Self.plant(.directory, named: name, in: directory)
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            let error = await #expect(throws: BinobanFileStorageError.self) {
                try await storage.append(TestEvents.events(0..<1))
            }
            #expect(error?.code == .ioFailure)
        }
    }

    static let hugeLimits: [BinobanStorageLimits] = [
        BinobanStorageLimits(
            maxEventBytes: .max, maxBatchBytes: .max, envelopeOverheadBytes: .max, maxFinishedBatches: .max,
            maxTotalBytes: .max),
        BinobanStorageLimits(maxEventBytes: .max, maxBatchBytes: .max, envelopeOverheadBytes: 0),
        BinobanStorageLimits(
            maxEventBytes: .min, maxBatchBytes: .min, envelopeOverheadBytes: .min, maxFinishedBatches: .min,
            maxTotalBytes: .min),
    ]

    /// Before: `event.count + envelopeOverheadBytes` and the forecast's sums overflowed and trapped.
    @Test("The file storage clamps huge limits", arguments: hugeLimits)
    func fileStorageClampsLimits(limits: BinobanStorageLimits) async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            #expect(storage.limits == limits.validated())
            let events = TestEvents.events(0..<4)
            let refusing = try await storage.append(events, whenFull: .refuse)
            #expect(refusing.storedEvents + refusing.rejectedOversizeEvents + refusing.refusedEvents == 4)
            let report = try await storage.append(events)
            #expect(report.storedEvents + report.rejectedOversizeEvents == 4)
            try await storage.closeOpenBatch()
        }
    }

    @Test("The in-memory storage clamps huge limits", arguments: hugeLimits)
    func memoryStorageClampsLimits(limits: BinobanStorageLimits) async throws {
        let storage = InMemoryEventStorage(limits: limits)
        let events = TestEvents.events(0..<4)
        let refusing = try await storage.append(events, whenFull: .refuse)
        #expect(refusing.storedEvents + refusing.rejectedOversizeEvents + refusing.refusedEvents == 4)
        let report = try await storage.append(events)
        #expect(report.storedEvents + report.rejectedOversizeEvents == 4)
        try await storage.closeOpenBatch()
    }

    @Test("Negative limits are reported as configuration adjustments; huge ones mean no limit")
    func limitAdjustments() {
        #expect(BinobanStorageLimits().adjustments.isEmpty)
        #expect(BinobanStorageLimits(maxTotalBytes: .max).adjustments.isEmpty)
        #expect(
            BinobanStorageLimits(envelopeOverheadBytes: -1).adjustments
                == ["storageLimits.envelopeOverheadBytes -1 is negative; using 0"])
        #expect(
            BinobanStorageLimits(maxEventBytes: .max).validated().maxEventBytes == BinobanStorageLimits.maximumValue)
    }
}
