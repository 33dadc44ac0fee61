#if canImport(os)
import os
#endif

/// How a ``FalconLogRecord`` is written to the Apple unified log, as the iOS SDK writes it: subsystem
/// `us.falconlabs.FalconSDK`, category `diagnostics`, the diagnostic code public and the message private.
///
/// Platform-neutral so that the mapping is tested everywhere; `FalconUnifiedLogSink` (Apple platforms only)
/// hands each entry to `os.Logger`.
public struct FalconUnifiedLogEntry: Sendable, Hashable {
    /// The unified log level an entry is written at.
    public enum Level: String, Sendable, Hashable {
        /// `OSLogType.debug`.
        case debug
        /// `OSLogType.default` (the unified log has no warning level).
        case `default`
        /// `OSLogType.error`.
        case error
    }

    /// The subsystem of every entry: `us.falconlabs.FalconSDK`.
    public static let subsystem = "us.falconlabs.FalconSDK"
    /// The category of every entry: `diagnostics`.
    public static let category = "diagnostics"

    /// The unified log level.
    public var level: Level
    /// The part logged with `privacy: .public`: the level name and the diagnostic code, such as
    /// `error webviewHTTPError`.
    public var publicText: String
    /// The part logged with `privacy: .private`: the record's message (redacted unless a debugger or a
    /// configuration profile reveals it).
    public var privateText: String

    /// The entry for `record`.
    public init(_ record: FalconLogRecord) {
        switch record.level {
        case .debug: level = .debug
        case .warning: level = .default
        case .error: level = .error
        }
        publicText = record.code.map { "\(record.level.rawValue) \($0.rawValue)" } ?? record.level.rawValue
        privateText = record.message
    }
}

#if canImport(os)
/// The default log sink on Apple platforms: writes every record to the unified log under subsystem
/// `us.falconlabs.FalconSDK`, category `diagnostics`, the code public and the message private (see
/// ``FalconUnifiedLogEntry``). In Console.app, filter by the subsystem.
public struct FalconUnifiedLogSink: FalconLogSink {
    private let logger = Logger(subsystem: FalconUnifiedLogEntry.subsystem, category: FalconUnifiedLogEntry.category)

    /// Creates the sink.
    public init() {}

    /// Writes `record` to the unified log.
    public func log(_ record: FalconLogRecord) {
        let entry = FalconUnifiedLogEntry(record)
        let type: OSLogType =
            switch entry.level {
            case .debug: .debug
            case .default: .default
            case .error: .error
            }
        logger.log(level: type, "\(entry.publicText, privacy: .public): \(entry.privateText, privacy: .private)")
    }
}
#endif
