import Foundation
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The newest finished batch's descriptor stays open until the batch is removed; its file then becomes the spare, and
/// the next batch, through that descriptor (Decision 0232, second addendum). Every descriptor is closed once its
/// batch leaves the storage, and a file put in the spare's place is never written through the old descriptor.
@Suite("File storage: the newest finished batch's descriptor is kept for its spare")
struct KeptBatchDescriptorTests {
    #if os(Linux)
    /// The inodes of the files in `directory` that this process holds open, but the namespace lock's (read from
    /// `/proc/self/fd`, so it sees every descriptor, whoever opened it; the directory is the test's alone). Inodes,
    /// not names: a descriptor opened under a name that was then unlinked shows that name as deleted, whatever other
    /// name its file has.
    private static func openBatchFiles(in directory: URL) -> [UInt64] {
        let prefix = directory.standardizedFileURL.resolvingSymlinksInPath().path + "/"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        var inodes: [UInt64] = []
        for entry in entries {
            let link = "/proc/self/fd/\(entry)"
            var info = stat()
            // Read the link again after the `stat`: another test may close that descriptor and open one elsewhere
            // under the same number meanwhile (only this test opens files in `directory`).
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: link),
                target.hasPrefix(prefix), !target.hasSuffix(".lock"), stat(link, &info) == 0,
                (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target
            else { continue }
            inodes.append(UInt64(info.st_ino))
        }
        return inodes.sorted()
    }

    /// The inode of the file named `name` in `directory`.
    private static func inode(_ name: String, in directory: URL) throws -> [UInt64] {
        var info = stat()
        guard lstat(directory.appending(path: name).path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return [UInt64(info.st_ino)]
    }

    @Test("one descriptor follows a batch from finished to spare to the next batch, and none is left after close")
    func descriptorFollowsTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<3))
            #expect(
                try Self.openBatchFiles(in: directory)
                    == Self.inode(StorageFiles.name("src", 1, open: true), in: directory))
            try await storage.closeOpenBatch()
            #expect(try Self.openBatchFiles(in: directory) == Self.inode(StorageFiles.name("src", 1), in: directory))
            try await storage.remove(try #require(try await storage.finishedBatches(limit: 1).first))
            #expect(
                try Self.openBatchFiles(in: directory)
                    == Self.inode(SpareBatchFile.fileName(sequence: 1, namespace: "src"), in: directory))
            _ = try await storage.append(TestEvents.events(3..<5))
            #expect(
                try Self.openBatchFiles(in: directory)
                    == Self.inode(StorageFiles.name("src", 2, open: true), in: directory))
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == [3, 4])
            await storage.close()
            #expect(Self.openBatchFiles(in: directory) == [])
        }
    }

    @Test("a finished batch that is evicted, vanishes or is removed beside a spare closes its descriptor")
    func descriptorsClosedWhenBatchesLeave() async throws {
        try await withTemporaryDirectory { directory in
            let limits = BinobanStorageLimits(maxFinishedBatches: 1)
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<2))
            try await storage.closeOpenBatch()
            _ = try await storage.append(TestEvents.events(2..<4))
            // Finishing batch 2 evicts batch 1 (one finished batch at most); only batch 2's descriptor is kept.
            try await storage.closeOpenBatch()
            #expect(try Self.openBatchFiles(in: directory) == Self.inode(StorageFiles.name("src", 2), in: directory))

            // Removed by something else: the read finds it gone, counts its events lost and lets its descriptor go.
            try FileManager.default.removeItem(at: directory.appending(path: StorageFiles.name("src", 2)))
            #expect(try await storage.read(BinobanBatchID(sequence: 2)) == nil)
            #expect(Self.openBatchFiles(in: directory) == [])
            await storage.close()
        }
    }

    @Test("a second removal while a spare is kept deletes its file and closes its descriptor")
    func secondRemovalClosesItsDescriptor() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try await BinobanFileEventStorage.withFinishedBatches(0..<2, 2..<4, in: directory)
            let ids = try await storage.finishedBatches(limit: 2)
            // Batch 1's descriptor was let go when batch 2 finished: its spare is opened by name when used.
            try await storage.remove(ids[0])
            try await storage.remove(ids[1])
            #expect(Self.openBatchFiles(in: directory) == [])
            #expect(
                try StorageFiles.names(directory)
                    == [SpareBatchFile.fileName(sequence: 1, namespace: "src"), StorageFiles.lock("src")].sorted())
            _ = try await storage.append(TestEvents.events(4..<6))
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == [4, 5])
            await storage.close()
        }
    }
    #endif

    @Test("a file renamed over the kept spare, header and all, is not written through the old descriptor")
    func replacedSpareIsNotWrittenThroughTheOldDescriptor() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try await BinobanFileEventStorage.withSpare(in: directory)
            // Exactly what a spare holds, under the spare's name, but another file: the kept descriptor's file has
            // no name left.
            let spare = directory.appending(path: SpareBatchFile.fileName(sequence: 1, namespace: "src"))
            let lookalike = directory.appending(path: "lookalike")
            try Data(BatchRecordFormat.magic).write(to: lookalike)
            guard rename(lookalike.path, spare.path) == 0 else { throw CocoaError(.fileWriteUnknown) }

            _ = try await storage.append(TestEvents.events(2..<4))
            try await storage.closeOpenBatch()
            await storage.close()
            // Read from the files: events written through the old descriptor would be in no file at all.
            let reopened = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(try await TestEvents.storedIndices(reopened) == [2, 3])
            #expect(!FileManager.default.fileExists(atPath: spare.path))
        }
    }
}
