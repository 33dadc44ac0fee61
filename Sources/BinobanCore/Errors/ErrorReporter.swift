/// Delivers rate-limited reports to the host's error handler and log handler, and to standard output when debug
/// logs are on.
///
/// It starts no task or timer: the pipeline driver calls ``deliverDue()`` once ``nextDeadline`` has passed on
/// the reporter's `elapsed` time, and ``deliverPending()`` at shutdown, so suppressed reports reach the host as
/// summaries (see ``ErrorReportLimiter``).
final class ErrorReporter: Sendable {
    private let handler: (@Sendable (BinobanError) -> Void)?
    private let logHandler: (any SDKCoreLogHandler)?
    private let elapsed: @Sendable () -> Duration
    private let limiter: LockedValue<ErrorReportLimiter>
    private let onceReported = LockedValue(Set<BinobanError.Kind>())
    /// Where each kind was last reported: the file, function and line of its log records (a summary of
    /// suppressed reports names the last of them).
    private let origins = LockedValue([BinobanError.Kind: Origin]())

    /// The place in BinobanCore that reported a problem.
    struct Origin: Sendable, Equatable {
        var file: String
        var function: String
        var line: UInt
    }

    /// Where ``Binoban/debugLogsEnabled`` writes: standard output, every level (the seed's "verbose console
    /// logging"), from a queue of its own, so that a call that logs never waits for the console.
    static let console = QueuedConsoleWriter.standardOutput
    /// Kinds delivered at most once per instance; later reports of them carry no news (no event is lost).
    static let oncePerInstance: Set<BinobanError.Kind> = [.transportMissing]

    init(
        handler: (@Sendable (BinobanError) -> Void)?,
        logHandler: (any SDKCoreLogHandler)? = nil,
        window: Duration = .seconds(10),
        elapsed: @escaping @Sendable () -> Duration
    ) {
        self.handler = handler
        self.logHandler = logHandler
        self.elapsed = elapsed
        self.limiter = LockedValue(ErrorReportLimiter(window: window))
    }

    /// Reports `kind` with `message` about `eventCount` events, unless a report of the same kind went out within
    /// the window; a suppressed report's counts reach the host in a later summary.
    ///
    /// `file`, `function` and `line` default to the caller's: the log record names the place that reported.
    func report(
        _ kind: BinobanError.Kind, _ message: String, eventCount: Int = 0,
        transportFailure: BinobanTransportFailure? = nil, file: String = #fileID, function: String = #function,
        line: UInt = #line
    ) {
        if Self.oncePerInstance.contains(kind) {
            // Reported once for the instance's life (a missing transport: at creation, with the fix).
            guard onceReported.withLock({ $0.insert(kind).inserted }) else { return }
        }
        let origin = Origin(file: file, function: function, line: line)
        origins.withLock { $0[kind] = origin }
        let now = elapsed()
        let error = BinobanError(
            kind: kind, message: message, eventCount: eventCount, transportFailure: transportFailure)
        guard let delivered = limiter.withLock({ $0.admit(error, at: now) }) else { return }
        deliver(delivered, from: origin)
    }

    /// The `elapsed` time at which ``deliverDue()`` has a summary to deliver, or `nil` when nothing is pending.
    var nextDeadline: Duration? {
        limiter.withLock { $0.nextDeadline }
    }

    /// How long from now until ``nextDeadline``, or `nil` when nothing is pending.
    var timeUntilNextDeadline: Duration? {
        guard let deadline = nextDeadline else { return nil }
        return max(.zero, deadline - elapsed())
    }

    /// Delivers the summaries of every kind whose window has ended by now (read from `elapsed`).
    func deliverDue() {
        let now = elapsed()
        for summary in limiter.withLock({ $0.handleDeadline(at: now) }) { deliver(summary, from: origin(of: summary)) }
    }

    /// Delivers every pending summary now, windows ended or not; for shutdown.
    func deliverPending() {
        for summary in limiter.withLock({ $0.drainPending() }) { deliver(summary, from: origin(of: summary)) }
    }

    /// Where the last report of the summary's kind came from (a summary follows at least one report).
    private func origin(of summary: BinobanError) -> Origin {
        origins.withLock { $0[summary.kind] } ?? Origin(file: #fileID, function: #function, line: #line)
    }

    private func deliver(_ error: BinobanError, from origin: Origin) {
        if logHandler != nil || Binoban.debugLogsEnabled {
            let record = error.logRecord(file: origin.file, function: origin.function, line: origin.line)
            logHandler?.log(record)
            if Binoban.debugLogsEnabled { Self.console.write(record) }
        }
        handler?(error)
    }
}
