import Foundation
import TestSupport
import Testing

@testable import BinobanCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("File key-value store: temporaries, bounds and non-regular files")
struct FileKeyValueStoreDurabilityTests {
    static let fileName = "ns.identity.json"

    /// A process id that no longer runs: a child that has exited and been reaped.
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test("Temporary names: only the store's own pattern for this file yields a process id")
    func temporaryNames() {
        let name = IdentityTemporaryName.make(for: Self.fileName)
        #expect(IdentityTemporaryName.processID(in: name, for: Self.fileName) == getpid())
        #expect(IdentityTemporaryName.processID(in: name, for: "other.identity.json") == nil)
        let cases: [(String, Int32?)] = [
            (".ns.identity.json.123.0123456789abcdef.tmp", 123),
            (".ns.identity.json.123.tmp", 123),  // the format of earlier versions
            (".ns.identity.json.123.0123456789ABCDEF.tmp", nil),
            (".ns.identity.json.123.0123456789abcde.tmp", nil),
            (".ns.identity.json.123.0123456789abcdef0.tmp", nil),
            (".ns.identity.json..0123456789abcdef.tmp", nil),
            (".ns.identity.json.12a.0123456789abcdef.tmp", nil),
            (".ns.identity.json.-1.0123456789abcdef.tmp", nil),
            (".ns.identity.json.123.0123456789abcdef.tmp.bak", nil),
            (".ns.identity.json.123.0123456789abcdef.x.tmp", nil),
            ("ns.identity.json.123.0123456789abcdef.tmp", nil),
            (".ns.identity.json.tmp", nil),
            (".ns.identity.json..tmp", nil),
            (".xns.identity.json.123.tmp", nil),
            (".ns.identity.json.99999999999.tmp", nil),
            ("ns.identity.json", nil),
        ]
        for (candidate, expected) in cases {
            #expect(IdentityTemporaryName.processID(in: candidate, for: Self.fileName) == expected, "\(candidate)")
        }
    }

    @Test("load and save delete stale temporaries of this file and nothing else")
    func staleTemporaries() async throws {
        let dead = try Self.deadProcessID()
        try await withTemporaryDirectory { directory in
            let stale = [
                ".ns.identity.json.\(dead).0123456789abcdef.tmp", ".ns.identity.json.\(dead).tmp",
            ]
            let kept = [
                ".ns.identity.json.\(getpid()).0123456789abcdef.tmp",  // this process: may be in flight
                ".ns.identity.json.1.0123456789abcdef.tmp",  // a live process (init)
                ".ns.identity.json.\(dead).0123456789abcdef.tmp.bak",
                ".other.identity.json.\(dead).0123456789abcdef.tmp",
                "ns.identity.json.\(dead).tmp",
                "unrelated.tmp",
            ]
            for name in stale + kept { try StorageFiles.write(Data("x".utf8), directory, name) }
            let store = FileKeyValueStore(fileURL: directory.appendingPathComponent(Self.fileName))
            #expect(try store.load().values.isEmpty)
            #expect(try StorageFiles.names(directory) == kept.sorted())

            for name in stale { try StorageFiles.write(Data("x".utf8), directory, name) }
            try await store.save(BinobanKeyValueSnapshot(values: ["anonymousId": "a"]))
            #expect(try StorageFiles.names(directory) == (kept + [Self.fileName]).sorted())
            #expect(try store.load().values == ["anonymousId": "a"])
        }
    }

    @Test("A file of exactly 1 MiB loads; a larger one is refused, and its bytes are never all read")
    func sizeBound() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent(Self.fileName)
            let head = #"{"padding":""#
            let tail = #""}"#
            let padding = String(repeating: "p", count: FileKeyValueStore.maximumFileBytes - head.count - tail.count)
            try Data((head + padding + tail).utf8).write(to: file)
            #expect(try FileKeyValueStore(fileURL: file).load().values["padding"]?.count == padding.count)

            try Data((head + padding + "p" + tail).utf8).write(to: file)
            let error = #expect(throws: FileKeyValueStore.Failure.self) { try FileKeyValueStore(fileURL: file).load() }
            #expect(error?.description.contains("larger than 1048576 bytes") == true)

            // A 4 GiB (sparse) file is refused from its size, before anything is read or allocated.
            #expect(truncate(file.path, 1 << 32) == 0)
            #expect(throws: FileKeyValueStore.Failure.self) { try FileKeyValueStore(fileURL: file).load() }
        }
    }

    @Test("A directory, a symbolic link or a FIFO in the file's place is refused, never followed or waited on")
    func nonRegularFiles() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent(Self.fileName)
            let store = FileKeyValueStore(fileURL: file)

            try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
            var error = #expect(throws: FileKeyValueStore.Failure.self) { try store.load() }
            #expect(error?.description.contains("not a regular file") == true)
            // Saving over a directory fails, and leaves no temporary behind.
            await #expect(throws: FileKeyValueStore.Failure.self) {
                try await store.save(BinobanKeyValueSnapshot(values: ["a": "b"]))
            }
            #expect(try StorageFiles.names(directory) == [Self.fileName])
            try FileManager.default.removeItem(at: file)

            let target = directory.appendingPathComponent("target.json")
            try Data(#"{"a":"b"}"#.utf8).write(to: target)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
            error = #expect(throws: FileKeyValueStore.Failure.self) { try store.load() }
            #expect(error?.description.contains("not a regular file") == true)
            try FileManager.default.removeItem(at: file)

            #expect(mkfifo(file.path, 0o600) == 0)
            error = #expect(throws: FileKeyValueStore.Failure.self) { try store.load() }
            #expect(error?.description.contains("not a regular file") == true)
        }
    }

    @Test("The saved file is 0600 in a 0700 directory; a save the directory refuses leaves the old file (non-root)")
    func modeAndFailedSave() async throws {
        try await withTemporaryDirectory { directory in
            let nested = directory.appendingPathComponent("nested", isDirectory: true)
            let file = nested.appendingPathComponent(Self.fileName)
            let store = FileKeyValueStore(fileURL: file)
            try await store.save(BinobanKeyValueSnapshot(values: ["anonymousId": "first"]))
            #expect(try StorageFiles.permissions(file) == 0o600)
            #expect(try StorageFiles.permissions(nested) == 0o700)
            // A directory that refuses new files: the save fails and the old snapshot stays.
            #expect(chmod(nested.path, 0o500) == 0)
            defer { _ = chmod(nested.path, 0o700) }
            if geteuid() != 0 {
                await #expect(throws: FileKeyValueStore.Failure.self) {
                    try await store.save(BinobanKeyValueSnapshot(values: ["anonymousId": "second"]))
                }
                #expect(try store.load().values == ["anonymousId": "first"])
                #expect(try StorageFiles.names(nested) == [Self.fileName])
            }
        }
    }
}

@Suite("File key-value store: a real process killed with SIGKILL mid-save")
struct FileKeyValueStoreCrashTests {
    /// Snapshot `sequence` as the crash writer saves it (`identitySnapshot` in Tests/StorageCrashWriter).
    static func snapshot(_ sequence: Int) -> [String: String] {
        [
            "sequence": "\(sequence)",
            "anonymousId": "anonymous-\(sequence)",
            "padding": String(repeating: "p", count: (sequence &* 7_919) % 100_000),
        ]
    }

    @Test(
        "Killed at random moments, the file is a complete snapshot, temporaries are owner-only and load removes them",
        .enabled(if: CrashWriter.executable != nil, "the BinobanStorageCrashWriter executable was not built"))
    func killedSaver() async throws {
        let executable = try #require(CrashWriter.executable)
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("ns.identity.json")
            var random = SplitMix64(seed: 0x1DE7_0210)
            for round in 0..<8 {
                let threshold = 1 + Int(random.next() % 30)
                let run = try await CrashWriter.runAndKill(
                    executable, arguments: ["identity", file.path], threshold: threshold)
                #expect(run.otherOutput.isEmpty, "round \(round)")
                #expect(run.terminationReason == .uncaughtSignal, "round \(round)")
                #expect(run.reportedEvents >= threshold, "round \(round)")

                // What the kill left: no file but the identity file may be readable by group or others.
                for name in try StorageFiles.names(directory) where name != file.lastPathComponent {
                    let mode = try StorageFiles.permissions(directory.appendingPathComponent(name))
                    #expect(mode & 0o077 == 0, "round \(round): \(name) has mode \(String(mode, radix: 8))")
                    #expect(IdentityTemporaryName.processID(in: name, for: file.lastPathComponent) != nil, "\(name)")
                }
                // The file is a complete snapshot, at least the last one reported saved.
                let raw = try JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))
                let sequence = try #require(raw["sequence"].flatMap { Int($0) }, "round \(round)")
                #expect(raw == Self.snapshot(sequence), "round \(round)")
                #expect(sequence >= run.reportedEvents - 1, "round \(round)")
                #expect(try StorageFiles.permissions(file) == 0o600, "round \(round)")

                #expect(try FileKeyValueStore(fileURL: file).load().values == raw, "round \(round)")
                #expect(try StorageFiles.names(directory) == [file.lastPathComponent], "round \(round)")
            }
        }
    }
}
