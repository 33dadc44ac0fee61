#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The edge that tells the calendar time stamped on events (`timestamp`) and uploads (`sentAt`).
///
/// Scheduling uses a monotonic `Clock` instead; this one only labels. The test kit's manual clock conforms
/// to both, so virtual time moves both together.
public protocol BinobanWallClock: Sendable {
    /// The current time in milliseconds since 1970-01-01T00:00:00Z.
    func currentMillisecondsSince1970() -> Int64
}

/// The system's calendar clock.
public struct SystemWallClock: BinobanWallClock {
    /// Creates the system clock.
    public init() {}

    /// The current time in milliseconds since the Unix epoch.
    public func currentMillisecondsSince1970() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
