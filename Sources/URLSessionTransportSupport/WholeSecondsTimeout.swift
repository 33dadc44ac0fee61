import Foundation

/// Converts `Duration` timeouts to the whole-second `TimeInterval` values URLSession is given.
///
/// URLSession on Linux arms its timer with the timeout truncated to whole seconds, so a sub-second value
/// would fire before the request is sent; every timeout is therefore rounded up (Docs/Decisions/0302).
package enum WholeSecondsTimeout {
    /// `duration` in whole seconds, rounded up, or `nil` when it is not positive.
    ///
    /// For example 300 ms gives 1, 10 s gives 10, and zero or a negative duration gives `nil`.
    package static func seconds(_ duration: Duration) -> TimeInterval? {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) + Double(attoseconds) / 1e18
        return total > 0 ? total.rounded(.up) : nil
    }

    /// `duration` in whole seconds, rounded up, or `fallback` rounded up when `duration` is not positive.
    ///
    /// `fallback` is a transport's positive default; should it not be positive either, the result is 1.
    package static func seconds(_ duration: Duration, otherwise fallback: Duration) -> TimeInterval {
        seconds(duration) ?? seconds(fallback) ?? 1
    }
}
