/// A server's `Retry-After` (RFC 9110 §10.2.3). Temporary: delay-seconds only, replaced by the full parser.
enum RetryAfter: Sendable, Equatable {
    case seconds(Int64)
    case date(millisecondsSince1970: Int64)

    static func parse(_ value: String) -> RetryAfter? {
        let trimmed = value.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return .seconds(Int64(trimmed.prefix(18)) ?? .max)
    }

    func delayMillis(nowMillisSince1970 now: Int64) -> Int64 {
        switch self {
        case .seconds(let seconds): return seconds.multipliedReportingOverflow(by: 1000).overflow ? .max : seconds * 1000
        case .date(let millis): return max(0, millis - now)
        }
    }
}
