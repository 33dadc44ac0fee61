#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One line for the log sink.
///
/// The ``code`` is public; the ``message`` is local text that never contains the URL, attributes, the API key
/// or text posted by the web content.
public struct FalconLogRecord: Sendable, Hashable {
    /// How important the line is.
    public enum Level: String, Sendable, Hashable, Comparable {
        /// Ignored inputs and dropped beacons; useful while integrating.
        case debug
        /// A likely integration mistake that is not an SDK failure: the first beacon dropped for want of a
        /// transport, an inline surface released before its placement settled.
        case warning
        /// A diagnostic (an SDK failure).
        case error

        /// `debug < warning < error`.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }

        private var rank: Int {
            switch self {
            case .debug: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// The level.
    public var level: Level
    /// The diagnostic code, for error lines.
    public var code: FalconDiagnosticCode?
    /// Local text without user data.
    public var message: String

    /// Creates a record.
    public init(level: Level, code: FalconDiagnosticCode?, message: String) {
        self.level = level
        self.code = code
        self.message = message
    }
}

/// Where the SDK writes its log lines: the log hook.
///
/// The default is ``FalconClientDependencies/platformLogSink()``: the unified log (subsystem
/// `us.falconlabs.FalconSDK`, category `diagnostics`) on Apple platforms, ``FalconStandardErrorLogSink``
/// elsewhere.
public protocol FalconLogSink: Sendable {
    /// Writes one record. Must not block.
    func log(_ record: FalconLogRecord)
}

/// The default log sink: writes records at or above a level to standard error.
public struct FalconStandardErrorLogSink: FalconLogSink {
    /// The subsystem and category prefix of every line.
    public static let prefix = "us.falconlabs.FalconSDK/diagnostics"

    /// The lowest level written.
    public var minimumLevel: FalconLogRecord.Level

    /// Creates a sink writing `minimumLevel` and above (warnings and errors by default).
    public init(minimumLevel: FalconLogRecord.Level = .warning) {
        self.minimumLevel = minimumLevel
    }

    /// Writes `[prefix] level code: message` to standard error.
    public func log(_ record: FalconLogRecord) {
        guard record.level >= minimumLevel else { return }
        let code = record.code.map { " \($0.rawValue)" } ?? ""
        let line = Array("[\(Self.prefix)] \(record.level.rawValue)\(code): \(record.message)\n".utf8)
        line.withUnsafeBufferPointer { buffer in
            _ = write(2, buffer.baseAddress, buffer.count)
        }
    }
}
