import Foundation
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file of an uploaded batch is kept empty and used again for the next batch (Decision 0232), without ever
/// letting a spare's bytes be read as events, and without taking a name that is not free.
@Suite("File storage: an uploaded batch's file is used again for the next batch")
struct SpareBatchFileTests {
    private static func inode(_ url: URL) throws -> UInt64 {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return UInt64(info.st_ino)
    }

    @Test("a removed batch's file, cut to its header, becomes the next batch's file: same inode, only the new events")
    func spareBecomesTheNextBatch() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<3))
            try await storage.closeOpenBatch()
            let first = try #require(try await storage.finishedBatches(limit: 1).first)
            let firstInode = try Self.inode(directory.appending(path: StorageFiles.name("src", 1)))

            try await storage.remove(first)
            let spare = directory.appending(path: SpareBatchFile.fileName(sequence: 1, namespace: "src"))
            #expect(try Self.inode(spare) == firstInode)
            #expect(try Data(contentsOf: spare) == Data(BatchRecordFormat.magic))

            _ = try await storage.append(TestEvents.events(3..<5))
            #expect(try Self.inode(directory.appending(path: StorageFiles.name("src", 2, open: true))) == firstInode)
            #expect(!FileManager.default.fileExists(atPath: spare.path))
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == [3, 4])
            #expect(
                try StorageFiles.names(directory) == [StorageFiles.name("src", 2), StorageFiles.lock("src")].sorted())
        }
    }

    @Test("at most one spare: further removals delete their files")
    func oneSpareAtMost() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            for range in [0..<2, 2..<4, 4..<6] {
                _ = try await storage.append(TestEvents.events(range))
                try await storage.closeOpenBatch()
            }
            for id in try await storage.finishedBatches(limit: 20) {
                try await storage.remove(id)
            }
            #expect(
                try StorageFiles.names(directory)
                    == [SpareBatchFile.fileName(sequence: 1, namespace: "src"), StorageFiles.lock("src")].sorted())
        }
    }

    @Test("a spare a crash left behind, even holding a batch, is deleted at open and never read")
    func leftoverSpareIsDeletedAtOpen() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
                _ = try await storage.append(TestEvents.events(0..<2))
                try await storage.closeOpenBatch()
                _ = try await storage.append(TestEvents.events(2..<4))
                try await storage.closeOpenBatch()
            }
            // As if a crash came between the rename to `.spare` and the cut: the file still holds its batch.
            try FileManager.default.moveItem(
                at: directory.appending(path: StorageFiles.name("src", 1)),
                to: directory.appending(path: SpareBatchFile.fileName(sequence: 1, namespace: "src")))
            // Another namespace's spare is not this storage's.
            let foreign = directory.appending(path: SpareBatchFile.fileName(sequence: 7, namespace: "other"))
            try Data("keep".utf8).write(to: foreign)

            let reopened = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(try await TestEvents.storedIndices(reopened) == [2, 3])
            #expect(reopened.recoveryReport.removedCorruptFiles == 0)
            #expect(
                try StorageFiles.names(directory)
                    == [StorageFiles.name("src", 2), StorageFiles.lock("src"), foreign.lastPathComponent].sorted())
        }
    }

    @Test("a spare is never linked over a name that is taken, and a tampered spare is not used")
    func takenNamesAndTamperedSpares() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try await BinobanFileEventStorage.withSpare(in: directory)
            // A file that appeared under the next batch's name is left alone; the spare goes to the sequence after.
            let squatter = directory.appending(path: StorageFiles.name("src", 2, open: true))
            try Data("not ours".utf8).write(to: squatter)
            _ = try await storage.append(TestEvents.events(2..<4))
            #expect(try Data(contentsOf: squatter) == Data("not ours".utf8))
            #expect(
                FileManager.default.fileExists(
                    atPath: directory.appending(path: StorageFiles.name("src", 3, open: true)).path))
            #expect(
                !FileManager.default.fileExists(
                    atPath: directory.appending(path: SpareBatchFile.fileName(sequence: 1, namespace: "src")).path))
            try await storage.closeOpenBatch()
            try await storage.remove(try #require(try await storage.finishedBatches(limit: 1).first))

            // The spare changed behind the storage's back (written to): a new file is made instead, and the spare deleted.
            let spare = directory.appending(path: SpareBatchFile.fileName(sequence: 3, namespace: "src"))
            try Data(#"{"i":99,"p":""}"#.utf8).write(to: spare)
            // A second name keeps the changed spare's inode allocated, so a new file cannot be given its number again
            // once the storage deletes the spare.
            try FileManager.default.linkItem(at: spare, to: directory.appending(path: "changed-spare"))
            let spareInode = try Self.inode(spare)
            _ = try await storage.append(TestEvents.events(4..<6))
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == [4, 5])
            #expect(!FileManager.default.fileExists(atPath: spare.path))
            #expect(try Self.inode(directory.appending(path: StorageFiles.name("src", 4))) != spareInode)
        }
    }

    @Test("a reused spare keeps its header, which is not written again: the batch reads back from the file")
    func reusedSpareKeepsItsHeader() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try await BinobanFileEventStorage.withSpare(in: directory)
            _ = try await storage.append(TestEvents.events(2..<4))
            _ = try await storage.append(TestEvents.events(4..<5))
            let open = directory.appending(path: StorageFiles.name("src", 2, open: true))
            var expected = BatchRecordFormat.magic
            for event in TestEvents.events(2..<5) { BatchRecordFormat.appendRecord(event, to: &expected) }
            #expect(try Data(contentsOf: open) == Data(expected))
            try await storage.closeOpenBatch()
            await storage.close()

            // Read from the file, not from the body the storage kept in memory.
            let reopened = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(try await TestEvents.storedIndices(reopened) == [2, 3, 4])
        }
    }

    @Test("a spare whose header bytes changed (same size) is deleted, not used")
    func spareWithAnotherHeaderIsNotUsed() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try await BinobanFileEventStorage.withSpare(in: directory)
            let spare = directory.appending(path: SpareBatchFile.fileName(sequence: 1, namespace: "src"))
            try Data("XXXXXXX\n".utf8).write(to: spare)
            _ = try await storage.append(TestEvents.events(2..<4))
            #expect(!FileManager.default.fileExists(atPath: spare.path))
            let open = directory.appending(path: StorageFiles.name("src", 2, open: true))
            #expect(try Data(contentsOf: open).prefix(BatchRecordFormat.magic.count) == Data(BatchRecordFormat.magic))
            try await storage.closeOpenBatch()
            await storage.close()
            let reopened = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(try await TestEvents.storedIndices(reopened) == [2, 3])
        }
    }

    @Test("spare names: only `<namespace>-<20 digits>.spare` of this namespace")
    func spareNames() {
        let name = SpareBatchFile.fileName(sequence: 12, namespace: "src")
        #expect(name == "src-00000000000000000012.spare")
        #expect(SpareBatchFile.isSpare(name, namespace: "src"))
        #expect(!SpareBatchFile.isSpare(name, namespace: "sr"))
        #expect(!SpareBatchFile.isSpare("src-12.spare", namespace: "src"))
        #expect(!SpareBatchFile.isSpare("src-00000000000000000012.batch", namespace: "src"))
        #expect(!SpareBatchFile.isSpare("src.spare", namespace: "src"))
    }
}
