#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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
        // Read straight from the system clock: every `track()` stamps its event, and `Date()` and its conversions
        // cost the caller about as much again as the clock itself (Decision 0258).
        var now = timespec()
        guard clock_gettime(CLOCK_REALTIME, &now) == 0 else {
            return Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        }
        // `tv_nsec` is never negative, so this is the floor also before 1970.
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
