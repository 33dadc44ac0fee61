/// How important a log record is: the seven levels of swift-log's `Logger.Level`, in the same order, so a bridge
/// maps them one to one.
public enum SDKCoreLogLevel: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Step-by-step detail; the SDK emits none today.
    case trace
    /// Ignored inputs and dropped beacons: useful while integrating.
    case debug
    /// Normal operation worth a line.
    case info
    /// Normal but significant.
    case notice
    /// A likely integration mistake that is not a failure: a missing transport, an adjusted value, a dropped
    /// push field.
    case warning
    /// Something failed or was dropped.
    case error
    /// The SDK cannot go on (an unusable configuration disables an instance).
    case critical

    /// `trace < debug < … < critical`.
    public static func < (lhs: SDKCoreLogLevel, rhs: SDKCoreLogLevel) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
