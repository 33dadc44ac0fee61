import Dispatch

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A key-value store in one JSON file, replaced atomically and readable by its owner only (`0600`, in a `0700`
/// directory it creates).
///
/// ``save(_:)`` writes the snapshot to a temporary file it creates itself (`O_CREAT | O_EXCL | O_NOFOLLOW`, mode
/// `0600`) in the same directory, named `.<file name>.<process id>.<16 hex digits>.tmp`, flushes it with `fsync`,
/// and renames it over the file; on any failure it deletes the temporary. A process killed at any moment therefore leaves the
/// file either as it was or holding the complete new snapshot, plus at most one owner-only temporary.
///
/// ``load()`` and ``save(_:)`` delete *stale* temporaries: names that match exactly the pattern above for this
/// file (or the older `.<file name>.<process id>.tmp`) and whose process id is neither this process nor a live
/// process. No other file in the directory is ever touched.
///
/// ``load()`` refuses a file larger than ``maximumFileBytes``, that is not a regular file (a directory, a
/// symbolic link, a FIFO) or that is owned by another user than the effective one with a ``Failure``, and never
/// reads more than that bound.
public struct FileKeyValueStore: BinobanKeyValueStore {
    /// Why the file store failed.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A value-free explanation.
        public var description: String
    }

    /// The largest identity file ``load()`` accepts: 1 MiB.
    public static let maximumFileBytes = 1 << 20

    /// The file that holds the snapshot.
    public let fileURL: URL

    /// Where saves run: the blocking calls (write, `fsync`, rename) never run on the awaiting task's thread.
    private let queue: DispatchQueue

    /// Creates a store backed by `fileURL`; nothing is read or written until ``load()`` or ``save(_:)``.
    public init(fileURL: URL) {
        self.fileURL = fileURL
        queue = DispatchQueue(label: "binoban.identity-file")
    }

    /// Reads the file; an empty snapshot when it does not exist.
    public func load() throws -> BinobanKeyValueSnapshot {
        let files = self.files
        removeStaleTemporaries(files)
        var info = stat()
        if lstat(files.path(fileName), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG,
            info.st_size > Self.maximumFileBytes
        {
            throw Failure(description: "the identity file \(fileName) is larger than \(Self.maximumFileBytes) bytes")
        }
        // Read at most one byte past the bound, in case the file grew since lstat.
        let read: (bytes: [UInt8], fileSize: Int)?
        do throws(BinobanFileStorageError) {
            read = try files.readRegularFile(fileName, maxBytes: Self.maximumFileBytes + 1)
        } catch {
            throw Failure(description: "could not read the identity file: \(error.message)")
        }
        guard let read else {
            if lstat(files.path(fileName), &info) != 0, errno == ENOENT { return BinobanKeyValueSnapshot() }
            throw Failure(description: "the identity file \(fileName) is not a regular file")
        }
        guard read.fileSize <= Self.maximumFileBytes, read.bytes.count <= Self.maximumFileBytes else {
            throw Failure(
                description: "the identity file \(fileName) is larger than \(Self.maximumFileBytes) bytes")
        }
        do {
            let values = try JSONDecoder().decode([String: String].self, from: Data(read.bytes))
            return BinobanKeyValueSnapshot(values: values)
        } catch {
            throw Failure(description: "the identity file is not a JSON object of strings")
        }
    }

    /// Writes the snapshot to a new owner-only temporary file in the same directory, flushes it to the device and
    /// renames it over the old file, on the store's own dispatch queue.
    public func save(_ snapshot: BinobanKeyValueSnapshot) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { continuation.resume(with: Result { try saveNow(snapshot) }) }
        }
    }

    /// ``save(_:)`` on the calling thread.
    func saveNow(_ snapshot: BinobanKeyValueSnapshot) throws {
        let files = self.files
        do throws(BinobanFileStorageError) {
            try StorageDirectory.createIfMissing(files.directory)
        } catch {
            throw Failure(description: "could not create the identity directory: \(error.message)")
        }
        removeStaleTemporaries(files)
        var bytes: [UInt8] = []
        JSONValue.object(snapshot.values.mapValues { .string($0) }).write(to: &bytes)

        let temporary = IdentityTemporaryName.make(for: fileName)
        let descriptor: Int32
        do throws(BinobanFileStorageError) {
            descriptor = try files.createExclusive(temporary)
        } catch {
            throw Failure(description: "could not create the temporary identity file: \(error.message)")
        }
        var closed = false
        do throws(BinobanFileStorageError) {
            try files.writeAll(descriptor, bytes, name: temporary)
            guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw files.failure("fsync", temporary) }
            closed = true
            guard close(descriptor) == 0 else { throw files.failure("close", temporary) }
            try files.rename(temporary, to: fileName)
        } catch {
            if !closed { close(descriptor) }
            _ = unlink(files.path(temporary))
            throw Failure(description: "could not replace the identity file: \(error.message)")
        }
    }

    private var fileName: String { fileURL.lastPathComponent }

    private var files: POSIXFileSystem {
        var directory = fileURL.deletingLastPathComponent().path
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return POSIXFileSystem(directory: directory.isEmpty ? "." : directory)
    }

    /// Deletes the temporaries of this file left by processes that no longer run; failures are ignored (the next
    /// load or save tries again).
    private func removeStaleTemporaries(_ files: POSIXFileSystem) {
        guard let names = try? files.listNames() else { return }
        let ownProcess = getpid()
        // The file's name once, not per entry (a URL's last component is costly, and the directory may be
        // shared and large); a temporary's name starts with a dot.
        let identityName = fileName
        for name in names where name.utf8.first == UInt8(ascii: ".") {
            guard let process = IdentityTemporaryName.processID(in: name, for: identityName), process != ownProcess,
                !Self.isRunning(process)
            else { continue }
            _ = unlink(files.path(name))
        }
    }

    /// Whether a process with this id exists (`kill(pid, 0)` fails with `ESRCH` only when none does).
    private static func isRunning(_ process: pid_t) -> Bool {
        guard process > 0 else { return false }
        return kill(process, 0) == 0 || errno != ESRCH
    }
}

/// The names of the store's temporary files: `.<file name>.<process id>.<16 lowercase hex digits>.tmp`.
enum IdentityTemporaryName {
    /// A fresh temporary name for `fileName` in this process.
    static func make(for fileName: String) -> String {
        var random = SystemRandomNumberGenerator()
        let token = String(random.next() as UInt64, radix: 16)
        let padded = String(repeating: "0", count: 16 - token.count) + token
        return ".\(fileName).\(getpid()).\(padded).tmp"
    }

    /// The process id in `name` when `name` is exactly a temporary of `fileName` (this pattern, or the older
    /// `.<file name>.<process id>.tmp`); `nil` for every other name.
    static func processID(in name: String, for fileName: String) -> pid_t? {
        let prefix = ".\(fileName)."
        let suffix = ".tmp"
        guard name.utf8.count > prefix.utf8.count + suffix.utf8.count, name.hasPrefix(prefix), name.hasSuffix(suffix)
        else { return nil }
        let middle = name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count)
        let parts = middle.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2 else { return nil }
        let digits = parts[0]
        guard (1...10).contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let process = pid_t(String(decoding: digits, as: UTF8.self))
        else { return nil }
        if parts.count == 2 {
            let token = parts[1]
            let isHex = token.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
            guard token.count == 16, isHex else { return nil }
        }
        return process
    }
}
