extension BinobanError {
    /// The `source` of every BinobanCore log record: `BinobanCore`.
    public static let logSource = "BinobanCore"

    /// The report as a line for the log hook: the severity as its level, the value-free message, and the kind,
    /// event count and suppressed count as metadata (the counts only when not zero).
    public var logRecord: SDKCoreLogRecord {
        var metadata = ["kind": kind.name]
        if eventCount > 0 { metadata["eventCount"] = String(eventCount) }
        if suppressedCount > 0 { metadata["suppressedCount"] = String(suppressedCount) }
        return SDKCoreLogRecord(
            level: severity == .warning ? .warning : .error, message: message, metadata: metadata,
            source: Self.logSource)
    }
}
