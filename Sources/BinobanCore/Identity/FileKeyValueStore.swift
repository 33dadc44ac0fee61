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

/// A key-value store in one JSON file, replaced atomically (temporary file + rename) and readable by its
/// owner only (`0600`, in a `0700` directory it creates).
public struct FileKeyValueStore: BinobanKeyValueStore {
    /// Why the file store failed.
    public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// A value-free explanation.
        public var description: String
    }

    /// The file that holds the snapshot.
    public let fileURL: URL

    /// Creates a store backed by `fileURL`; nothing is read or written until ``load()`` or ``save(_:)``.
    public init(fileURL: URL) {
        self.fileURL = fileURL
    }

    /// Reads the file; an empty snapshot when it does not exist.
    public func load() throws -> BinobanKeyValueSnapshot {
        let path = fileURL.path
        guard FileManager.default.fileExists(atPath: path) else { return BinobanKeyValueSnapshot() }
        let data = try Data(contentsOf: fileURL)
        do {
            return BinobanKeyValueSnapshot(values: try JSONDecoder().decode([String: String].self, from: data))
        } catch {
            throw Failure(description: "the identity file is not a JSON object of strings")
        }
    }

    /// Writes the snapshot to a temporary file in the same directory and renames it over the old one.
    public func save(_ snapshot: BinobanKeyValueSnapshot) throws {
        let directory = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        var bytes: [UInt8] = []
        JSONValue.object(snapshot.values.mapValues { .string($0) }).write(to: &bytes)
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(getpid()).tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path,
                contents: Data(bytes),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw Failure(description: "could not write the temporary identity file") }
        guard rename(temporary.path, fileURL.path) == 0 else {
            _ = unlink(temporary.path)
            throw Failure(description: "could not replace the identity file (errno \(errno))")
        }
    }
}
