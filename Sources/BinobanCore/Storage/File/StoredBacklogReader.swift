#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One batch file of a namespace as a read-only look at the directory found it.
package struct StoredBacklogBatch: Sendable, Hashable {
    /// The batch sequence (its file name's number).
    package var sequence: UInt64
    /// Whether the file is still `.open` (being appended to, or left unfinished by a process that was killed).
    package var isOpen: Bool
    /// The file's name in the directory.
    package var fileName: String
    /// Bytes of the file on disk.
    package var fileBytes: Int
    /// Intact events: the records before the first torn or corrupt one.
    package var eventCount: Int
    /// Bytes after the intact records (a torn tail the next open of the storage cuts off).
    package var tornBytes: Int
}

/// Reads the batch files of one namespace without taking the storage's lock and without changing any file: the
/// read side of `sdkcore binoban backlog`.
///
/// Safe beside a process that holds the lock and writes: files are only opened for reading (never following a
/// symbolic link, never blocking on a FIFO), a file that disappears between the listing and the read (uploaded
/// and removed, or renamed from `.open` to `.batch`) is looked up under its finished name once and otherwise
/// skipped, and a record being written is past the intact prefix, so it is not shown. The picture is a snapshot:
/// a running writer may have changed the directory by the time it is printed. Only this user's regular files
/// whose names match the namespace's pattern are read (Docs/Decisions/0250).
package struct StoredBacklogReader: Sendable {
    private let files: POSIXFileSystem
    private let namespace: String
    private let readLimit: Int

    /// Why the directory cannot be read.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// A reader of `namespace`'s batches in `directory`, reading at most `maxBatchBytes`' read limit of each file.
    package init(directory: URL, namespace: String, maxBatchBytes: Int = BinobanStorageLimits.server.maxBatchBytes)
        throws(Failure)
    {
        let path: String
        do {
            path = try StorageDirectory.fileSystemPath(of: directory)
        } catch {
            throw Failure(description: error.message)
        }
        guard BatchFileName.isValidNamespace(namespace) else {
            throw Failure(description: "'\(namespace)' is not a storage namespace")
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw Failure(description: "\(path) cannot be inspected: \(POSIXFileSystem.describe(errno))")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw Failure(description: "\(path) is not a directory") }
        guard info.st_uid == geteuid() else {
            throw Failure(description: "\(path) is owned by user \(info.st_uid), not by this user; not read")
        }
        self.files = POSIXFileSystem(directory: path)
        self.namespace = namespace
        self.readLimit = BatchRecordFormat.readLimit(maxBatchBytes: maxBatchBytes)
    }

    /// The namespace's batches, oldest first, each read and checked once. `events` receives each batch's intact
    /// events (JSON objects as stored, which is the form they are uploaded in) while the file is in memory, so
    /// that at most one batch is held at a time.
    package func batches(
        _ events: (StoredBacklogBatch, [Data]) throws -> Void = { _, _ in }
    ) throws -> [StoredBacklogBatch] {
        let names: [BatchFileName]
        do {
            names = try files.listNames().compactMap { BatchFileName(parsing: $0, namespace: namespace) }
        } catch {
            throw Failure(description: "\(files.directory) cannot be listed: \(error.message)")
        }
        let finished = Set(names.filter { $0.state == .finished }.map(\.sequence))
        // An `.open` file beside a `.batch` of the same sequence is never uploaded (the storage deletes it).
        let readable = names.filter { $0.state == .finished || !finished.contains($0.sequence) }
        var found: [StoredBacklogBatch] = []
        for name in readable.sorted(by: { $0.sequence < $1.sequence }) {
            guard let (batch, payloads) = try read(name) ?? renamedTwin(of: name) else { continue }
            found.append(batch)
            try events(batch, payloads)
        }
        return found
    }

    /// The finished file of an `.open` one that was renamed after the listing.
    private func renamedTwin(of name: BatchFileName) throws -> (StoredBacklogBatch, [Data])? {
        guard name.state == .open else { return nil }
        return try read(BatchFileName(sequence: name.sequence, state: .finished))
    }

    private func read(_ name: BatchFileName) throws -> (StoredBacklogBatch, [Data])? {
        let fileName = name.fileName(namespace: namespace)
        let content: (bytes: [UInt8], fileSize: Int)?
        do {
            content = try files.readRegularFile(fileName, maxBytes: readLimit)
        } catch {
            throw Failure(description: error.message)
        }
        guard let content else { return nil }
        var payloads: [Data] = []
        let scan = content.bytes.withUnsafeBytes { raw -> BatchRecordFormat.Scan in
            BatchRecordFormat.forEachIntactRecord(in: raw) { payloads.append(Data($0)) }
            return BatchRecordFormat.scan(raw)
        }
        guard scan.eventCount > 0 else { return nil }
        let batch = StoredBacklogBatch(
            sequence: name.sequence, isOpen: name.state == .open, fileName: fileName, fileBytes: content.fileSize,
            eventCount: scan.eventCount, tornBytes: content.fileSize - scan.intactBytes)
        return (batch, payloads)
    }
}
