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

/// Reads the bytes a command was pointed at: a file path, or standard input for `-`.
enum CommandInput {
    /// Why an input could not be read.
    struct Failure: Error {
        var message: String
    }

    /// The contents of `path`, or of standard input when `path` is `-`.
    static func contents(of path: String) throws(Failure) -> Data {
        if path == "-" { return readStandardInput() }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(message: "\(path): no such file")
        }
        guard !isDirectory else { throw Failure(message: "\(path): is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(message: "\(path): cannot be read")
        }
        return data
    }

    private static func readStandardInput() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }
}
