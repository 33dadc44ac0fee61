#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `Retry-After` values in both forms of RFC 9110 §10.2.3 and says how long each keeps the window open.
enum RetryAfterHeader {
    /// The two forms.
    enum Form: Sendable, Equatable {
        /// `Retry-After: 2`
        case delaySeconds
        /// `Retry-After: Tue, 01 Dec 2026 10:00:02 GMT`: two whole seconds after the current second, so the
        /// window is 1–2 s long (an HTTP-date has whole-second precision).
        case httpDate
    }

    /// The header value and the length of the window it opens from now.
    static func make(form: Form, seconds: Int) -> (String, Duration) {
        switch form {
        case .delaySeconds:
            return (String(seconds), .seconds(seconds))
        case .httpDate:
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            var target = time_t(now.tv_sec) + 2
            let remaining = Duration.seconds(Int64(target) - Int64(now.tv_sec)) - .nanoseconds(Int64(now.tv_nsec))
            return (httpDate(&target), remaining)
        }
    }

    /// `IMF-fixdate` for a time in seconds since 1970.
    private static func httpDate(_ seconds: inout time_t) -> String {
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
