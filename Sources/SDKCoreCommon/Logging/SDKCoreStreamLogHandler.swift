#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes records at or above a level to standard output or standard error, one line each:
/// `source level: message key=value …` (metadata sorted by key).
///
/// Used when the host asks for console output (`Binoban.debugLogsEnabled`), or installed by the host.
public struct SDKCoreStreamLogHandler: SDKCoreLogHandler {
    /// Where lines go.
    public enum Stream: Sendable, Hashable {
        /// File descriptor 1.
        case standardOutput
        /// File descriptor 2.
        case standardError
    }

    /// Where lines go.
    public var stream: Stream
    /// The lowest level written.
    public var minimumLevel: SDKCoreLogLevel

    /// Creates a handler writing `minimumLevel` and above to `stream`.
    public init(stream: Stream = .standardError, minimumLevel: SDKCoreLogLevel = .warning) {
        self.stream = stream
        self.minimumLevel = minimumLevel
    }

    /// The line written for `record`, without its newline.
    public static func line(for record: SDKCoreLogRecord) -> String {
        let details = record.metadata.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        return "[\(record.source)] \(record.level.rawValue): \(record.message)\(details)"
    }

    /// Writes the record's line with one `write` call, so lines from several threads do not interleave.
    public func log(_ record: SDKCoreLogRecord) {
        guard record.level >= minimumLevel else { return }
        let bytes = Array((Self.line(for: record) + "\n").utf8)
        let descriptor: Int32 = stream == .standardOutput ? 1 : 2
        bytes.withUnsafeBufferPointer { buffer in
            _ = write(descriptor, buffer.baseAddress, buffer.count)
        }
    }
}
