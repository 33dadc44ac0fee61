extension BinobanError {
    /// The `source` of every BinobanCore log record: `BinobanCore`.
    public static let logSource = "BinobanCore"

    /// The report as a line for the log hook: the severity as its level, the value-free message, and the kind,
    /// event count and suppressed count as metadata (the counts only when not zero).
    ///
    /// Its `file`, `function` and `line` are where this property is read. The records the SDK writes to
    /// ``Configuration/logHandler`` carry instead the place in BinobanCore that reported the problem.
    public var logRecord: SDKCoreLogRecord {
        logRecord()
    }

    /// ``logRecord`` with `file`, `function` and `line` of the caller (or the ones given).
    func logRecord(file: String = #fileID, function: String = #function, line: UInt = #line) -> SDKCoreLogRecord {
        var metadata = ["kind": kind.name]
        if eventCount > 0 { metadata["eventCount"] = String(eventCount) }
        if suppressedCount > 0 { metadata["suppressedCount"] = String(suppressedCount) }
        return SDKCoreLogRecord(
            level: severity == .warning ? .warning : .error, message: message, metadata: metadata,
            source: Self.logSource, file: file, function: function, line: line)
    }
}
