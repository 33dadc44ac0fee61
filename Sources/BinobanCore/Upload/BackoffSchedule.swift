/// Capped full-jitter backoff: before retry `n` (1-based) wait `jitter × min(max, base × factor^(n−1))`
/// milliseconds. A server's `Retry-After` is not part of it: ``UploadGate`` holds that window beside the backoff.
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

    /// The delay before retry `retry`, given a uniform `jitter` in `0..<1`.
    func delayMillis(forRetry retry: Int, jitter: Double) -> Int {
        let clampedJitter = min(max(jitter, 0), 1)
        let delay = Int((Double(ceilingMillis(forRetry: retry)) * clampedJitter).rounded(.down))
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
