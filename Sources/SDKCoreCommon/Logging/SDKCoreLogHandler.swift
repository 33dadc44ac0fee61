/// The package's one log hook: FalconCore's diagnostics, BinobanCore's reports and debug output, and the push
/// layer's diagnostics all write ``SDKCoreLogRecord``s to the handler the host installs.
///
/// Nothing is printed unless the host asks: with no handler installed the SDK writes nowhere (Apple platforms
/// keep the Falcon SDK's unified log entries, as the iOS SDK writes them). A swift-log bridge is a few lines:
///
/// ```swift
/// struct SwiftLogBridge: SDKCoreLogHandler {
///     let logger: Logger
///     func log(_ record: SDKCoreLogRecord) {
///         logger.log(
///             level: Logger.Level(rawValue: record.level.rawValue) ?? .info,
///             Logger.Message(stringLiteral: record.message),
///             metadata: record.metadata.mapValues { .string($0) },
///             source: record.source, file: record.file, function: record.function, line: record.line)
///     }
/// }
/// ```
public protocol SDKCoreLogHandler: Sendable {
    /// Writes one record. Called on the SDK's threads and tasks, outside its locks; must not block.
    func log(_ record: SDKCoreLogRecord)
}
