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
/// hash of those `N` lines, so a resumed run can tell that it reads the same input. It is replaced atomically (write to a
/// temporary file, then rename), so a kill leaves the old or the new value, never a torn one.
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

    /// The position recorded by earlier runs (`nil` when the file does not exist).
    func load() throws(Failure) -> Position? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path),
            let value = try? JSONValue(parsing: data, limits: .untrusted),
            case .int(let lines)? = value["linesStored"], lines >= 0,
            let hashText = value["inputHash"]?.stringValue, let hash = UInt64(hashText, radix: 16)
        else {
            throw Failure(description: "\(url.path): not a progress file of sdkcore binoban send")
        }
        return Position(linesStored: lines, inputHash: hash)
    }

    /// Records that every line up to `lines` is stored. Throws when the file cannot be written.
    func save(_ position: Position) throws(Failure) {
        let temporary = url.appendingPathExtension("tmp")
        let text: JSONValue = [
            "format": 1, "linesStored": .int(position.linesStored),
            "inputHash": .string(String(position.inputHash, radix: 16)),
        ]
        do {
            try Data(text.jsonString().utf8).write(to: temporary)
        } catch {
            throw Failure(description: "\(temporary.path): cannot be written: \(error)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            throw Failure(description: "\(url.path): cannot be replaced (errno \(errno))")
        }
    }
}
