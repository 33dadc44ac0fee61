import Foundation
import Testing

@testable import BinobanCore

@Suite("File event storage: directory, permissions, namespaces")
struct BinobanFileEventStorageDirectoryTests {
    @Test("A missing directory is created with its parents, owner-only; batch files are created 0600")
    func createsDirectoryOwnerOnly() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("a/b/c", isDirectory: true)
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            for path in ["a", "a/b", "a/b/c"] {
                #expect(try StorageFiles.permissions(base.appendingPathComponent(path)) == 0o700, "\(path)")
            }
            _ = try await storage.append([TestEvents.event(0)])
            #expect(
                try StorageFiles.permissions(directory.appendingPathComponent(StorageFiles.name("src", 1, open: true)))
                    == 0o600)
            try await storage.closeOpenBatch()
            #expect(
                try StorageFiles.permissions(directory.appendingPathComponent(StorageFiles.name("src", 1))) == 0o600)
        }
    }

    @Test("An existing directory keeps the permissions it had")
    func existingDirectoryUntouched() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("shared", isDirectory: true)
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(try StorageFiles.permissions(directory) == 0o755)
        }
    }

    @Test("A path that is a regular file, or lies under one, is refused with directoryUnusable")
    func regularFileIsUnusable() async throws {
        try await withTemporaryDirectory { base in
            let file = base.appendingPathComponent("plain-file")
            try StorageFiles.write(Data("x".utf8), base, "plain-file")
            for url in [file, file.appendingPathComponent("below", isDirectory: true)] {
                do {
                    _ = try BinobanFileEventStorage(directory: url, namespace: "src")
                    Issue.record("\(url.lastPathComponent) must be refused")
                } catch let error as BinobanFileStorageError {
                    #expect(error.code == .directoryUnusable)
                    #expect(!error.message.isEmpty)
                }
            }
            #expect(try StorageFiles.contents(base, "plain-file") == Data("x".utf8))
        }
    }

    @Test(
        "A read-only directory is refused (not asserted as root, who may write anywhere)", .enabled(if: getuid() != 0))
    func readOnlyDirectoryIsUnusable() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appendingPathComponent("locked", isDirectory: true)
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o500])
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path) }
            #expect(throws: BinobanFileStorageError.self) {
                _ = try BinobanFileEventStorage(directory: directory, namespace: "src")
            }
        }
    }

    @Test("A URL that is not a file URL is refused")
    func nonFileURL() throws {
        let url = try #require(URL(string: "https://example.com/queue"))
        #expect(throws: BinobanFileStorageError.self) {
            _ = try BinobanFileEventStorage(directory: url, namespace: "src")
        }
    }

    @Test(
        "Namespaces that cannot be file-name prefixes are refused",
        arguments: ["", "a/b", ".hidden", "a b", "é", String(repeating: "n", count: 101)])
    func invalidNamespace(_ namespace: String) async throws {
        try await withTemporaryDirectory { base in
            do {
                _ = try BinobanFileEventStorage(directory: base, namespace: namespace)
                Issue.record("namespace \(namespace) must be refused")
            } catch let error as BinobanFileStorageError {
                #expect(error.code == .invalidNamespace)
            }
        }
    }

    @Test("namespace(forSourceIdentifier:) keeps safe identifiers and makes any other one safe and distinct")
    func namespaceFromSourceIdentifier() async throws {
        #expect(BinobanFileEventStorage.namespace(forSourceIdentifier: "Abc_12-x") == "Abc_12-x")
        let identifiers = ["a/b", "a:b", "", "é", "../..", String(repeating: "k", count: 65), "a b", "a_b"]
        let namespaces = identifiers.map(BinobanFileEventStorage.namespace(forSourceIdentifier:))
        #expect(Set(namespaces).count == identifiers.count)
        #expect(namespaces[0] != namespaces[1])
        try await withTemporaryDirectory { base in
            for namespace in namespaces {
                #expect(BatchFileName.isValidNamespace(namespace), "\(namespace)")
                _ = try BinobanFileEventStorage(directory: base, namespace: namespace)
            }
        }
    }

    @Test("Two namespaces in one directory keep separate, ordered batches")
    func sharedDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let first = try BinobanFileEventStorage(directory: directory, namespace: "a")
            let second = try BinobanFileEventStorage(directory: directory, namespace: "a-1")
            _ = try await first.append(TestEvents.events(0..<3))
            _ = try await second.append(TestEvents.events(10..<13))
            try await first.closeOpenBatch()
            try await second.closeOpenBatch()
            #expect(try await TestEvents.storedIndices(first) == [0, 1, 2])
            #expect(try await TestEvents.storedIndices(second) == [10, 11, 12])
            try await first.remove(try #require(try await first.finishedBatches(limit: 1).first))
            #expect(try await TestEvents.storedIndices(second) == [10, 11, 12])
        }
    }
}
