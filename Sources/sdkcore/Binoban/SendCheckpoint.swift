import BinobanCore

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

/// The progress file of `sdkcore binoban send --storage DIR`: how many input lines are already in the
/// durable storage, so a resumed run skips them.
///
/// The file holds `{"format":1,"linesStored":N,"inputHash":"…"}`: every input line numbered `N` or lower was
/// either bad (reported) or accepted *and* confirmed stored by the event storage, and `inputHash` is the FNV-1a
/// hash of those `N` lines, so a resumed run can tell that it reads the same input. It is replaced atomically (write to
/// an owner-only temporary file, then rename), so a kill leaves the old or the new value, never a torn one; it is
/// `0600`, like every file in the storage directory.
struct SendCheckpoint: Sendable {
    /// The file.
    let url: URL

    /// The file for `namespace` inside `directory`.
    init(directory: URL, namespace: String) {
        url = directory.appendingPathComponent("\(namespace).send-progress.json")
    }

    /// Why the file cannot be used.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What an earlier run recorded.
    struct Position: Sendable, Hashable {
        /// Lines `1...linesStored` are done.
        var linesStored: Int
        /// The hash of those lines (``InputHash``).
        var inputHash: UInt64
    }

    /// The largest progress file read: a real one is under 100 bytes.
    static let maximumFileBytes = 4_096

    /// The position recorded by earlier runs (`nil` when the file does not exist).
    ///
    /// Only a regular file of this user is read (never a symbolic link's target), and at most
    /// ``maximumFileBytes`` of it.
    func load() throws(Failure) -> Position? {
        let bytes: [UInt8]?
        do {
            bytes = try OwnerOnlyFile.read(fileName, in: directoryPath, maxBytes: Self.maximumFileBytes + 1)
        } catch {
            throw Failure(description: "\(url.path): cannot be read: \(error.message)")
        }
        guard let bytes else { return nil }
        guard bytes.count <= Self.maximumFileBytes,
            let value = try? JSONValue(parsing: Data(bytes), limits: .untrusted),
            case .int(let lines)? = value["linesStored"], lines >= 0,
            let hashText = value["inputHash"]?.stringValue, let hash = UInt64(hashText, radix: 16)
        else {
            throw Failure(description: "\(url.path): not a progress file of sdkcore binoban send")
        }
        return Position(linesStored: lines, inputHash: hash)
    }

    /// Records that every line up to `lines` is stored. Throws when the file cannot be written.
    ///
    /// The new content goes to `<file>.tmp`, created exclusively with mode 0600 without following a link (whatever
    /// is found under that name is removed first), then renamed over the file.
    func save(_ position: Position) throws(Failure) {
        let text: JSONValue = [
            "format": 1, "linesStored": .int(position.linesStored),
            "inputHash": .string(String(position.inputHash, radix: 16)),
        ]
        do {
            try OwnerOnlyFile.replace(fileName, in: directoryPath, with: Array(text.jsonString().utf8))
        } catch {
            throw Failure(description: "\(url.path): cannot be replaced: \(error.message)")
        }
    }

    private var fileName: String { url.lastPathComponent }

    private var directoryPath: String { url.deletingLastPathComponent().path }
}
