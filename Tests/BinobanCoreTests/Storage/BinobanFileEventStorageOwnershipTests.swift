import Foundation
import TestSupport
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user tests run as in CI is root, who can give a file to another user; elsewhere those tests are skipped.
private let runsAsRoot = geteuid() == 0
/// `nobody`: a user other than the one running the tests.
private let otherUser: uid_t = 65_534

/// The storage helper process (target `BinobanStorageCrashWriter`).
private let helper = LineProcess.builtExecutable(named: "BinobanStorageCrashWriter")

@Suite("File event storage: one owner per namespace, a directory of the user's alone")
struct BinobanFileEventStorageOwnershipTests {
    @Test("A second storage on a namespace in use in this process is refused; another namespace is not")
    func secondStorageInThisProcess() async throws {
        try await withTemporaryDirectory { directory in
            var first: BinobanFileEventStorage? = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await first?.append(TestEvents.events(0..<3))
            do {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
                Issue.record("a second storage on the same namespace must be refused")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .directoryInUse)
                #expect(error.message.contains(directory.path))
            }
            _ = try BinobanFileEventStorage(directory: directory, namespace: "src-2")
            #expect(
                try StorageFiles.names(directory)
                    == [StorageFiles.name("src", 1, open: true), StorageFiles.lock("src"), StorageFiles.lock("src-2")]
                    .sorted())
            first = nil  // the lock goes with the storage
            let reopened = try await reopenStorage {
                try BinobanFileEventStorage(directory: directory, namespace: "src")
            }
            #expect(reopened.recoveryReport == BinobanStorageRecoveryReport(repairedBatches: 1))
            #expect(try await TestEvents.storedIndices(reopened) == [0, 1, 2])
        }
    }

    @Test(
        "A storage another process holds is refused before it touches a file; the holder's open batch stays open",
        .enabled(if: helper != nil, "the BinobanStorageCrashWriter executable was not built"))
    func storageHeldByAnotherProcess() async throws {
        let executable = try #require(helper)
        try await withTemporaryDirectory { directory in
            let holder = try LineProcess(executable: executable, arguments: ["hold", directory.path, "src", "5"])
            #expect(try await holder.nextLine(startingWith: "holding") == "holding 5")
            let openName = StorageFiles.name("src", 1, open: true)
            let before = try StorageFiles.contents(directory, openName)
            do {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
                Issue.record("the namespace another process holds must be refused")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .directoryInUse)
                #expect(error.message.contains(directory.path), "\(error.message)")
            }
            // Start-up recovery did not run: the holder's batch is still open, byte for byte.
            #expect(try StorageFiles.contents(directory, openName) == before)
            #expect(try StorageFiles.names(directory) == [openName, StorageFiles.lock("src")].sorted())

            holder.send("stop")
            #expect(await holder.waitForExit() == 0)
            #expect(holder.output.last == "stopped")
            // Once the holder is gone (its lock dies with it), the next open finishes its batch with every event.
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(storage.recoveryReport == BinobanStorageRecoveryReport(repairedBatches: 1))
            let batch = try #require(try await storage.read(BinobanBatchID(sequence: 1)))
            #expect(batch.eventCount == 5)
        }
    }

    @Test(
        "A helper process finds the namespace this process holds in use and says so",
        .enabled(if: helper != nil, "the BinobanStorageCrashWriter executable was not built"))
    func anotherProcessIsRefused() async throws {
        let executable = try #require(helper)
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append(TestEvents.events(0..<2))
            let second = try LineProcess(executable: executable, arguments: ["hold", directory.path, "src", "1"])
            let line = try await second.nextLine(startingWith: "refused")
            #expect(line.hasPrefix("refused directoryInUse "), "\(line)")
            #expect(line.contains(directory.path))
            #expect(await second.waitForExit() == 2)
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == [0, 1])
        }
    }

    @Test("After a batch name is taken by a file that appeared later, the sequence moves on and appends go on")
    func takenBatchNameIsSkipped() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            // Files that appear after the opening under the next names, as a copy or a writer without the lock
            // would leave them: the `.open` of sequence 1 and the `.batch` of sequence 2.
            let planted = Data("not ours".utf8)
            try StorageFiles.write(planted, directory, StorageFiles.name("src", 1, open: true))
            try StorageFiles.write(planted, directory, StorageFiles.name("src", 2))
            let report = try await storage.append(TestEvents.events(0..<2))
            #expect(report.storedEvents == 2)
            try await storage.closeOpenBatch()
            _ = try await storage.append(TestEvents.events(2..<4))
            try await storage.closeOpenBatch()
            #expect(
                try await storage.finishedBatches(limit: 20) == [
                    BinobanBatchID(sequence: 3), BinobanBatchID(sequence: 4),
                ])
            #expect(try await TestEvents.storedIndices(storage) == [0, 1, 2, 3])
            #expect(try StorageFiles.contents(directory, StorageFiles.name("src", 1, open: true)) == planted)
            #expect(try StorageFiles.contents(directory, StorageFiles.name("src", 2)) == planted)
        }
    }

    @Test("A sequence whose file cannot be created is used up: the failure does not repeat on every later append")
    func failedCreationAdvancesTheSequence() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            // A directory under the next `.open` name: creating the file fails (EEXIST), as for any planted name.
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(StorageFiles.name("src", 1, open: true)),
                withIntermediateDirectories: false)
            for round in 0..<3 {
                _ = try await storage.append(TestEvents.events(round * 2..<round * 2 + 2))
                try await storage.closeOpenBatch()
            }
            #expect(try await TestEvents.storedIndices(storage) == Array(0..<6))
            #expect(try await storage.finishedBatches(limit: 20).map(\.sequence) == [2, 3, 4])
        }
    }

    @Test("Taken names are skipped a bounded number of times, then the append fails and a later one succeeds")
    func manyTakenNamesFailOnce() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            let taken = UInt64(BinobanFileEventStorage.maximumSkippedSequences)
            for sequence in 1...taken {
                try StorageFiles.write(Data("x".utf8), directory, StorageFiles.name("src", sequence))
            }
            do {
                _ = try await storage.append([TestEvents.event(0)])
                Issue.record("an append after \(taken) taken names in a row must fail")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .ioFailure)
                #expect(error.storedEventsBeforeFailure == 0)
            }
            _ = try await storage.append([TestEvents.event(1)])
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20) == [BinobanBatchID(sequence: taken + 1)])
        }
    }

    @Test(
        "A directory writable by its group or by others is refused, naming it; nothing in it is read",
        arguments: [0o777, 0o775, 0o770, 0o730, 0o722, 0o1777])
    func groupOrOtherWritableIsRefused(mode: Int) async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("shared", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            try StorageFiles.write(
                try await Self.batchFile([TestEvents.event(7)]), directory, StorageFiles.name("src", 1))
            #expect(chmod(directory.path, mode_t(mode)) == 0)
            do {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
                Issue.record("mode \(String(mode, radix: 8)) must be refused")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .unsafeOwnership)
                #expect(error.message.contains(directory.path), "\(error.message)")
            }
            #expect(try StorageFiles.names(directory) == [StorageFiles.name("src", 1)])  // no lock file either
        }
    }

    @Test("A directory of the user that others may only read or search is used", arguments: [0o700, 0o750, 0o755])
    func readableByOthersIsFine(mode: Int) async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("mine", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect(chmod(directory.path, mode_t(mode)) == 0)
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append([TestEvents.event(0)])
            try await storage.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(storage) == [0])
        }
    }

    @Test(
        "A directory owned by another user is refused, naming it",
        .enabled(if: runsAsRoot, "giving a directory to another user needs root"))
    func otherOwnerIsRefused() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("theirs", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
            #expect(chown(directory.path, otherUser, otherUser) == 0)
            do {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
                Issue.record("a directory of another user must be refused")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .unsafeOwnership)
                #expect(error.message.contains(directory.path))
                #expect(error.message.contains("\(otherUser)"))
            }
        }
    }

    @Test(
        "A batch file owned by another user is never read: left in place, reported, not uploaded; new batches follow it",
        .enabled(if: runsAsRoot, "giving a file to another user needs root"))
    func batchOfAnotherUserIsNotRead() async throws {
        try await withTemporaryDirectory { directory in
            let planted = try await Self.batchFile([TestEvents.event(99)])
            for name in [StorageFiles.name("src", 4), StorageFiles.name("src", 5, open: true)] {
                try StorageFiles.write(planted, directory, name)
                #expect(chown(directory.appendingPathComponent(name).path, otherUser, otherUser) == 0)
            }
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(storage.recoveryReport == BinobanStorageRecoveryReport())
            #expect(storage.recoveryIssues.count == 2)
            #expect(storage.recoveryIssues.allSatisfy { $0.code == .unsafeOwnership })
            #expect(try await storage.finishedBatches(limit: 20).isEmpty)
            _ = try await storage.append([TestEvents.event(0)])
            try await storage.closeOpenBatch()
            #expect(try await storage.finishedBatches(limit: 20) == [BinobanBatchID(sequence: 6)])
            #expect(try await TestEvents.storedIndices(storage) == [0])
            #expect(try StorageFiles.contents(directory, StorageFiles.name("src", 4)) == planted)
            #expect(try StorageFiles.contents(directory, StorageFiles.name("src", 5, open: true)) == planted)
        }
    }

    @Test(
        "An identity file owned by another user is not read",
        .enabled(if: runsAsRoot, "giving a file to another user needs root"))
    func identityOfAnotherUserIsNotRead() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ns.identity.json")
            try Data(#"{"anonymousId":"planted"}"#.utf8).write(to: file)
            #expect(chown(file.path, otherUser, otherUser) == 0)
            do {
                _ = try FileKeyValueStore(fileURL: file).load()
                Issue.record("an identity file of another user must not be read")
            } catch let failure as FileKeyValueStore.Failure {
                #expect(failure.description.contains("owned by user \(otherUser)"), "\(failure)")
            }
        }
    }

    @Test("A symbolic link in the lock file's place is refused and not followed")
    func lockFileLinkIsRefused() async throws {
        try await withTemporaryDirectory { directory in
            let target = directory.appendingPathComponent("target")
            try Data("keep".utf8).write(to: target)
            try FileManager.default.createSymbolicLink(
                at: directory.appendingPathComponent(StorageFiles.lock("src")), withDestinationURL: target)
            do {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
                Issue.record("a link in the lock's place must be refused")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .unsafeOwnership)
                #expect(error.message.contains(directory.path))
            }
            #expect(try Data(contentsOf: target) == Data("keep".utf8))
        }
    }

    @Test("The lock file and the batch files are 0600 and regular; the directory the storage creates is 0700")
    func createdModes() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("made", isDirectory: true)
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            _ = try await storage.append([TestEvents.event(0)])
            #expect(try StorageFiles.permissions(directory) == 0o700)
            for name in [StorageFiles.lock("src"), StorageFiles.name("src", 1, open: true)] {
                #expect(try StorageFiles.permissions(directory.appendingPathComponent(name)) == 0o600, "\(name)")
            }
        }
    }

    /// The bytes of a finished batch holding `events`, written by a real storage in a scratch directory.
    static func batchFile(_ events: [Data]) async throws -> Data {
        try await withTemporaryDirectory { scratch in
            let storage = try BinobanFileEventStorage(directory: scratch, namespace: "src")
            _ = try await storage.append(events)
            try await storage.closeOpenBatch()
            return try StorageFiles.contents(scratch, StorageFiles.name("src", 1))
        }
    }
}
