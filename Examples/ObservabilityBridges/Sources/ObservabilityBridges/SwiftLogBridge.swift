import BinobanCore
import Logging

/// Writes SDK Core's log records to a swift-log `Logger`.
public struct SwiftLogBridge: SDKCoreLogHandler {
    /// The logger records go to.
    public let logger: Logger

    /// Creates a bridge to `logger`.
    public init(logger: Logger) {
        self.logger = logger
    }

    /// Writes one record with its level, metadata and origin.
    public func log(_ record: SDKCoreLogRecord) {
        logger.log(
            level: Logger.Level(rawValue: record.level.rawValue) ?? .info,
            Logger.Message(stringLiteral: record.message),
            metadata: record.metadata.mapValues { Logger.MetadataValue.string($0) },
            source: record.source,
            file: record.file,
            function: record.function,
            line: record.line
        )
    }
}
