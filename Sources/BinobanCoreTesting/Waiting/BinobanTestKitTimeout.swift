/// The error a test-kit wait throws when what it awaited did not happen within its timeout.
///
/// The waits (``ScriptedTransport/waitForRequests(count:timeout:)``,
/// ``ObservableEventStorage/waitForStoredEvents(count:timeout:)``, ``ManualClock/waitForSleepers(count:timeout:)``
/// and ``ManualClock/waitUntilSleepers(timeout:_:)``) resume as soon as their condition holds; the timeout, measured
/// on the real `ContinuousClock`, is only a safety net so that a broken test fails instead of hanging.
///
/// ```swift
/// do {
///     _ = try await transport.waitForRequests(count: 2, timeout: .seconds(5))
/// } catch let timeout as BinobanTestKitTimeout {
///     print(timeout)  // ScriptedTransport.waitForRequests: 1 of 2 requests after 5.0 seconds
/// }
/// ```
public struct BinobanTestKitTimeout: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was awaited, such as `ScriptedTransport.waitForRequests`.
    public var awaited: String
    /// What was counted: `requests`, `stored events` or `sleepers`.
    public var unit: String
    /// How many had been seen when the wait gave up.
    public var seen: Int
    /// How many the wait expected, or `nil` when it waited for a predicate rather than a count.
    public var expected: Int?
    /// The timeout that expired.
    public var timeout: Duration

    /// Creates a timeout report.
    public init(awaited: String, unit: String, seen: Int, expected: Int?, timeout: Duration) {
        self.awaited = awaited
        self.unit = unit
        self.seen = seen
        self.expected = expected
        self.timeout = timeout
    }

    /// `awaited: seen of expected unit after timeout`.
    public var description: String {
        if let expected {
            return "\(awaited): \(seen) of \(expected) \(unit) after \(timeout)"
        }
        return "\(awaited): the condition did not hold after \(timeout) (\(seen) \(unit))"
    }
}
