/// Capped full-jitter backoff: before retry `n` (1-based) wait `jitter × min(max, base × factor^(n−1))`
/// milliseconds, and never less than a server's `Retry-After` (itself capped at `max`).
struct BackoffSchedule: Sendable, Hashable {
    var baseMillis: Int
    var factor: Double
    var maxMillis: Int

    /// The largest delay retry `retry` may draw.
    func ceilingMillis(forRetry retry: Int) -> Int {
        let exponent = Double(max(0, retry - 1))
        let raw = Double(baseMillis) * pow(factor, exponent)
        guard raw.isFinite else { return maxMillis }
        return Int(min(Double(maxMillis), raw))
    }

    /// The delay before retry `retry`, given a uniform `jitter` in `0..<1` and an optional `Retry-After`.
    func delayMillis(forRetry retry: Int, jitter: Double, retryAfterSeconds: Double?) -> Int {
        let clampedJitter = min(max(jitter, 0), 1)
        var delay = Int((Double(ceilingMillis(forRetry: retry)) * clampedJitter).rounded(.down))
        if let retryAfterSeconds, retryAfterSeconds.isFinite, retryAfterSeconds > 0 {
            let requested = min(Double(maxMillis), retryAfterSeconds * 1000)
            delay = max(delay, Int(requested.rounded(.up)))
        }
        return min(delay, maxMillis)
    }

    private func pow(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var remaining = Int(exponent)
        while remaining > 0 {
            result *= base
            remaining -= 1
            if !result.isFinite { return result }
        }
        return result
    }
}
