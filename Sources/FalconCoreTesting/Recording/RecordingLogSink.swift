/// A log sink that keeps every record in memory.
public final class RecordingLogSink: FalconLogSink {
    private let recorded = LockedValue([FalconLogRecord]())

    /// Creates an empty sink.
    public init() {}

    /// Records `record`.
    public func log(_ record: FalconLogRecord) {
        recorded.withLock { $0.append(record) }
    }

    /// Every record so far, in order.
    public var records: [FalconLogRecord] { recorded.withLock { $0 } }
}

/// A diagnostics delegate that keeps every diagnostic in memory.
public final class RecordingDiagnosticsDelegate: FalconDiagnosticsDelegate {
    private let recorded = LockedValue([FalconDiagnostic]())

    /// Creates an empty delegate.
    public init() {}

    /// Records `diagnostic`.
    public func falconDidEncounter(_ diagnostic: FalconDiagnostic) {
        recorded.withLock { $0.append(diagnostic) }
    }

    /// Every diagnostic so far, in order.
    public var diagnostics: [FalconDiagnostic] { recorded.withLock { $0 } }
}
