/// Writes the SDK's log lines to the host's log hook, if one is installed; a message is built only then.
struct FalconLogWriter: Sendable {
    let handler: (any SDKCoreLogHandler)?

    /// Writes one line; the record names the caller's file, function and line.
    func log(
        _ level: SDKCoreLogLevel, _ code: FalconDiagnosticCode?, _ message: @autoclosure () -> String,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        guard let handler else { return }
        handler.log(
            SDKCoreLogRecord(
                level: level, message: message(), metadata: code.map { ["code": $0.rawValue] } ?? [:],
                source: FalconUnifiedLogEntry.source, file: file, function: function, line: line))
    }
}
