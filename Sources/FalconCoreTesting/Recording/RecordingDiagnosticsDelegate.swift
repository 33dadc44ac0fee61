/// A diagnostics delegate that keeps every diagnostic in memory.
public final class RecordingDiagnosticsDelegate: FalconDiagnosticsDelegate, Sendable {
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
