extension NotificationDiagnostic {
    /// The level a diagnostic is logged at: `debug` for what only changes a field's form or ignores noise (a
    /// blank token, a converted custom-data value, an ignored `userInfo` entry), `warning` for everything that
    /// drops a push, an event, a button or a field, or fails to display.
    public var logLevel: SDKCoreLogLevel {
        switch code {
        case .blankTokenIgnored, .customDataValueConverted, .userInfoEntryIgnored: .debug
        default: .warning
        }
    }

    /// The diagnostic as a line for the log hook: ``logLevel``, the value-free message and the `code` as
    /// metadata.
    public var logRecord: SDKCoreLogRecord {
        SDKCoreLogRecord(
            level: logLevel, message: message, metadata: ["code": code.description], source: BinobanError.logSource)
    }
}
