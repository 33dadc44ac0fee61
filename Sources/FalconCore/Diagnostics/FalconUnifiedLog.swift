#if canImport(os)
import os
#endif

/// How a log record of FalconCore is written to the Apple unified log, as the iOS SDK writes it: subsystem
/// `us.falconlabs.FalconSDK`, category `diagnostics`, the diagnostic code public and the message private.
///
/// Platform-neutral so that the mapping is tested everywhere; `FalconUnifiedLogHandler` (Apple platforms only)
/// hands each entry to `os.Logger`.
package struct FalconUnifiedLogEntry: Sendable, Hashable {
    /// The unified log level an entry is written at.
    package enum Level: String, Sendable, Hashable {
        /// `OSLogType.debug`.
        case debug
        /// `OSLogType.default` (the unified log has no warning level).
        case `default`
        /// `OSLogType.error`.
        case error
    }

    /// The subsystem of every entry: `us.falconlabs.FalconSDK`.
    package static let subsystem = "us.falconlabs.FalconSDK"
    /// The category of every entry: `diagnostics`.
    package static let category = "diagnostics"

    /// The `source` of every FalconCore log record: `FalconCore`.
    package static let source = "FalconCore"

    /// The unified log level.
    package var level: Level
    /// The part logged with `privacy: .public`: the level name and the diagnostic code, such as
    /// `error webviewHTTPError`.
    package var publicText: String
    /// The part logged with `privacy: .private`: the record's message (redacted unless a debugger or a
    /// configuration profile reveals it).
    package var privateText: String

    /// The entry for `record`: `trace` and `debug` at `.debug`, `info` to `warning` at `.default`, `error` and
    /// `critical` at `.error`; the record's `code` metadata joins the level in the public text.
    package init(_ record: SDKCoreLogRecord) {
        switch record.level {
        case .trace, .debug: level = .debug
        case .info, .notice, .warning: level = .default
        case .error, .critical: level = .error
        }
        publicText = record.metadata["code"].map { "\(record.level.rawValue) \($0)" } ?? record.level.rawValue
        privateText = record.message
    }
}

#if canImport(os)
/// The default log handler on Apple platforms: writes every record to the unified log under subsystem
/// `us.falconlabs.FalconSDK`, category `diagnostics`, the code public and the message private. In
/// Console.app, filter by the subsystem.
public struct FalconUnifiedLogHandler: SDKCoreLogHandler {
    private let logger = Logger(subsystem: FalconUnifiedLogEntry.subsystem, category: FalconUnifiedLogEntry.category)

    /// Creates the handler.
    public init() {}

    /// Writes `record` to the unified log.
    public func log(_ record: SDKCoreLogRecord) {
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
