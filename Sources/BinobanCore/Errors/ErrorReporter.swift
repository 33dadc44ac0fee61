/// Delivers rate-limited reports to the host's error handler, and to standard output when debug logs are on.
final class ErrorReporter: Sendable {
    private let handler: (@Sendable (BinobanError) -> Void)?
    private let elapsed: @Sendable () -> Duration
    private let limiter: LockedValue<ErrorReportLimiter>

    init(
        handler: (@Sendable (BinobanError) -> Void)?,
        window: Duration = .seconds(10),
        elapsed: @escaping @Sendable () -> Duration
    ) {
        self.handler = handler
        self.elapsed = elapsed
        self.limiter = LockedValue(ErrorReportLimiter(window: window))
    }

    /// Reports `kind` with `message`, unless a report of the same kind went out within the window.
    func report(_ kind: BinobanError.Kind, _ message: String, eventCount: Int = 0) {
        let now = elapsed()
        guard let delivered = limiter.withLock({ $0.admit(BinobanError(kind: kind, message: message), at: now) })
        else { return }
        if Binoban.debugLogsEnabled { print("[Binoban] \(delivered)") }
        handler?(delivered)
    }
}
