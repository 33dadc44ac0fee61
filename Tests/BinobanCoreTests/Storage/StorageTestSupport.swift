import Foundation
import Testing

@testable import BinobanCore

/// A fresh directory under the system's temporary directory, removed when `body` returns.
func withTemporaryDirectory<Result>(
    _ body: (URL) async throws -> Result
) async throws -> Result {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("binoban-storage-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try await body(url)
}

/// Encoded test events: `{"i":<index>,"p":"<padding>"}`, compact JSON objects like the pipeline produces.
enum TestEvents {
    /// One event with index `index`, padded so that it is exactly `bytes` long (at least 16).
    static func event(_ index: Int, bytes: Int = 100) -> Data {
        let head = #"{"i":\#(index),"p":""#
        let padding = max(0, bytes - head.utf8.count - 2)
        return Data((head + String(repeating: "x", count: padding) + #""}"#).utf8)
    }

    /// Events `range`, each `bytes` long.
    static func events(_ range: Range<Int>, bytes: Int = 100) -> [Data] {
        range.map { event($0, bytes: bytes) }
    }

    /// One decoded event.
    struct Decoded: Codable, Equatable {
        var i: Int
        var p: String
    }

    private struct Envelope: Decodable {
        var batch: [Decoded]
    }

    /// Decodes a batch body the way the server would: wrapped in the upload envelope, with `JSONDecoder`.
    static func decode(_ body: Data) throws -> [Decoded] {
        var envelope = Data(#"{"batch":["#.utf8)
        envelope.append(body)
        envelope.append(contentsOf: Data(#"],"sentAt":"2026-08-02T12:00:30.004Z","writeKey":"k"}"#.utf8))
        return try JSONDecoder().decode(Envelope.self, from: envelope).batch
    }

    /// The indices of every event in every finished batch of `storage`, oldest first, checking that each body
    /// decodes and that `eventCount` matches.
    static func storedIndices(_ storage: BinobanFileEventStorage) async throws -> [Int] {
        var indices: [Int] = []
        for id in try await storage.finishedBatches(limit: Int.max) {
            let batch = try #require(try await storage.read(id))
            let decoded = try decode(batch.events)
            #expect(decoded.count == batch.eventCount)
            indices += decoded.map(\.i)
        }
        return indices
    }
}

/// Directory helpers for the storage tests.
enum StorageFiles {
    /// Names in `directory`, sorted.
    static func names(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    /// The name of `namespace`'s lock file, which every opened storage leaves in its directory.
    static func lock(_ namespace: String) -> String {
        NamespaceLock.fileName(namespace: namespace)
    }

    /// The file name of batch `sequence` in `namespace`.
    static func name(_ namespace: String, _ sequence: UInt64, open: Bool = false) -> String {
        BatchFileName(sequence: sequence, state: open ? .open : .finished).fileName(namespace: namespace)
    }

    /// POSIX permission bits of `url`.
    static func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// The bytes of `name` in `directory`.
    static func contents(_ directory: URL, _ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    /// Writes `data` as `name` in `directory`.
    static func write(_ data: Data, _ directory: URL, _ name: String) throws {
        try data.write(to: directory.appendingPathComponent(name))
    }
}

/// Opens a directory's storage again after the test dropped its last reference to the previous storage there,
/// as a restarted process would.
///
/// The previous storage's lock goes with its deinit, and an actor is deinitialized when its executor lets go of
/// it, which can be a moment after the last `await` on it returned, on another thread. So `directoryInUse` is
/// retried, yielding between tries, for at most 10 seconds; any other error, or a lock still held then, fails.
/// Only for a test of that deallocation itself: a test that reopens a namespace calls `close()` on the previous
/// storage first and opens at once.
func reopenStorage(_ open: () throws -> BinobanFileEventStorage) async throws -> BinobanFileEventStorage {
    let deadline = ContinuousClock.now + .seconds(10)
    while true {
        do {
            return try open()
        } catch let error as BinobanFileStorageError where error.code == .directoryInUse {
            guard ContinuousClock.now < deadline else { throw error }
            await Task.yield()
        }
    }
}

extension BinobanStorageWriteReport {
    /// The report with these placements: runs of (batch sequence, event count), in the order of the call.
    func placing(_ runs: (UInt64, Int)...) -> BinobanStorageWriteReport {
        var report = self
        report.placements = runs.map { BinobanBatchPlacement(batch: BinobanBatchID(sequence: $0.0), eventCount: $0.1) }
        return report
    }
}

extension BinobanFileEventStorage {
    /// A storage of namespace "src" in `directory` holding one finished batch per range of events, in order
    /// (sequences 1, 2, …).
    static func withFinishedBatches(
        _ ranges: Range<Int>..., in directory: URL
    ) async throws -> BinobanFileEventStorage {
        let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
        for range in ranges {
            _ = try await storage.append(TestEvents.events(range))
            try await storage.closeOpenBatch()
        }
        return storage
    }

    /// A storage of namespace "src" in `directory` whose first batch (events 0 and 1) was finished and removed: its
    /// file is the spare, `src-00000000000000000001.spare`, and the next batch is sequence 2.
    static func withSpare(in directory: URL) async throws -> BinobanFileEventStorage {
        let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
        _ = try await storage.append(TestEvents.events(0..<2))
        try await storage.closeOpenBatch()
        try await storage.remove(try #require(try await storage.finishedBatches(limit: 1).first))
        return storage
    }
}
