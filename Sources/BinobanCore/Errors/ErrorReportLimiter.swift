/// The pure rate limit for error reports: at most one report per kind per window, counting the rest.
///
/// Time comes in as an elapsed `Duration` since an arbitrary origin, so the machine reads no clock.
struct ErrorReportLimiter: Sendable {
    /// The window within which a second report of the same kind is suppressed.
    let window: Duration
    private var lastDelivered: [String: Duration] = [:]
    private var suppressed: [String: Int] = [:]

    init(window: Duration = .seconds(10)) {
        self.window = window
    }

    /// Decides whether `error` is delivered now; a delivered report carries the count suppressed before it.
    mutating func admit(_ error: BinobanError, at now: Duration) -> BinobanError? {
        let key = error.kind.name
        if let last = lastDelivered[key], now - last < window {
            suppressed[key, default: 0] += 1
            return nil
        }
        lastDelivered[key] = now
        var delivered = error
        delivered.suppressedCount = suppressed.removeValue(forKey: key) ?? 0
        return delivered
    }
}
