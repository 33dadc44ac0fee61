import Foundation

/// Decompresses gzip members with `python3`'s `gzip` module (zlib underneath), the reference the encoder is
/// checked against. One child process handles a whole list of members, so a test starts Python once.
package enum PythonGunzip {
    /// Python was missing or rejected a member; the description is its error output.
    package struct Failure: Error, CustomStringConvertible {
        /// Python's error output, shortened.
        package let description: String
    }

    /// The decompressed bytes of each member, in order; throws when Python is missing or rejects a member.
    package static func decompress(_ members: [[UInt8]]) throws -> [[UInt8]] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gunzip-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, member) in members.enumerated() {
            try Data(member).write(to: directory.appendingPathComponent("\(index).gz"))
        }
        let script = """
            import gzip, sys, os
            d = sys.argv[1]
            for i in range(int(sys.argv[2])):
                with open(os.path.join(d, f"{i}.gz"), "rb") as f:
                    data = gzip.decompress(f.read())
                with open(os.path.join(d, f"{i}.raw"), "wb") as f:
                    f.write(data)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, directory.path, String(members.count)]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: String(decoding: message.prefix(500), as: UTF8.self))
        }
        return try members.indices.map { index in
            [UInt8](try Data(contentsOf: directory.appendingPathComponent("\(index).raw")))
        }
    }
}
