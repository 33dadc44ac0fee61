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
    ///
    /// Its `file`, `function` and `line` are where this property is read. The records the push layer writes to
    /// its log handler carry instead the place in BinobanCore that met the problem.
    public var logRecord: SDKCoreLogRecord {
        logRecord()
    }

    /// ``logRecord`` with `file`, `function` and `line` of the caller (or the ones given).
    func logRecord(file: String = #fileID, function: String = #function, line: UInt = #line) -> SDKCoreLogRecord {
        SDKCoreLogRecord(
            level: logLevel, message: message, metadata: ["code": code.description], source: BinobanError.logSource,
            file: file, function: function, line: line)
    }
}
