/// A clock that moves only when a test calls ``advance(by:)``, and that also serves as the SDK's wall clock.
///
/// Sleepers are resumed in deadline order when time reaches them. Tests await
/// ``waitForSleepers(count:timeout:)`` (or ``waitUntilSleepers(timeout:_:)``) to know the driver has registered its
/// timer before advancing; no yielding loops, no real sleeping.
///
/// ```swift
/// let clock = ManualClock()
/// // … create an instance with `config.clock = clock; config.wallClock = clock` …
/// try await clock.waitForSleepers(count: 1)   // the flush timer is armed
/// clock.advance(by: .seconds(30))          // it fires
/// ```
public final class ManualClock: Clock, BinobanWallClock, Sendable {
    /// A point in the manual clock's time: the offset from its creation.
    public struct Instant: InstantProtocol, Sendable, Hashable, CustomStringConvertible {
        /// The time since the clock was created.
        public var offset: Duration

        /// Creates an instant at `offset` from the clock's origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Orders instants by offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, such as `30.0 seconds`.
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// What a ``waitUntilSleepers(timeout:_:)`` caller waits for.
    private struct SleeperCondition: Sendable {
        var predicate: @Sendable ([Instant]) -> Bool
        /// The count ``waitForSleepers(count:timeout:)`` waits for, for the timeout report.
        var expectedCount: Int?
        var awaited: String
    }

    private typealias Watchers = [(WaitList<SleeperCondition, Void>.Waiter, Void)]

    private struct State: WaitListHolder {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 1
        var sleepers: [Sleeper] = []
        var cancelledEarly: Set<UInt64> = []
        /// Tasks waiting for the sleepers' deadlines to match a predicate.
        var waitList = WaitList<SleeperCondition, Void>()

        func result(for condition: SleeperCondition) -> Void? {
            condition.predicate(sleepers.map(\.deadline)) ? () : nil
        }

        func timeoutError(for condition: SleeperCondition, after timeout: Duration) -> BinobanTestKitTimeout {
            BinobanTestKitTimeout(
                awaited: condition.awaited, unit: "sleepers", seen: sleepers.count,
                expected: condition.expectedCount, timeout: timeout)
        }
    }

    private let state = LockedValue(State())
    private let epochMilliseconds: Int64

    /// Creates a clock at offset zero whose wall time starts at `epochMilliseconds` since 1970
    /// (default 2026-08-02T12:00:00.000Z).
    public init(epochMilliseconds: Int64 = 1_785_672_000_000) {
        self.epochMilliseconds = epochMilliseconds
    }

    /// The current instant.
    public var now: Instant { state.withLock { $0.now } }

    /// Zero: the clock is exact.
    public var minimumResolution: Duration { .zero }

    /// The wall time: the epoch given at creation plus the elapsed virtual time.
    public func currentMillisecondsSince1970() -> Int64 {
        let offset = now.offset.components
        return epochMilliseconds + offset.seconds * 1000 + offset.attoseconds / 1_000_000_000_000_000
    }

    /// The deadlines of the tasks sleeping now, earliest first.
    public var sleeperDeadlines: [Instant] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    /// Suspends until `deadline` is reached by ``advance(by:)``; throws `CancellationError` when cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Registration {
                    case due
                    case cancelled
                    case waiting(Watchers)
                }
                let registration = state.withLock { state -> Registration in
                    if state.cancelledEarly.remove(id) != nil { return .cancelled }
                    if deadline <= state.now { return .due }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .waiting(state.takeSatisfiedWaiters())
                }
                switch registration {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting(let watchers): resumeAll(watchers)
                }
            }
        } onCancel: {
            let (sleeper, watchers) = state.withLock { state -> (Sleeper?, Watchers) in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledEarly.insert(id)
                    return (nil, [])
                }
                let sleeper = state.sleepers.remove(at: index)
                return (sleeper, state.takeSatisfiedWaiters())
            }
            sleeper?.continuation.resume(throwing: CancellationError())
            resumeAll(watchers)
        }
    }

    /// Moves time forward by `duration` and resumes, in deadline order, every sleeper now due.
    public func advance(by duration: Duration) {
        let (due, watchers) = state.withLock { state -> ([Sleeper], Watchers) in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return (due, state.takeSatisfiedWaiters())
        }
        for sleeper in due { sleeper.continuation.resume() }
        resumeAll(watchers)
    }

    /// Moves time to the earliest sleeper's deadline (if any) and resumes it.
    public func advanceToNextDeadline() {
        guard let next = sleeperDeadlines.first else { return }
        advance(by: now.duration(to: next))
    }

    /// Returns once at least `count` tasks sleep on this clock.
    ///
    /// - Throws: ``BinobanTestKitTimeout`` after `timeout` (measured on the real `ContinuousClock`, a safety net
    ///   only), `CancellationError` when the task is cancelled.
    public func waitForSleepers(count: Int, timeout: Duration = .seconds(300)) async throws {
        let condition = SleeperCondition(
            predicate: { $0.count >= count }, expectedCount: count, awaited: "ManualClock.waitForSleepers")
        try await state.wait(for: condition, timeout: timeout)
    }

    /// Returns once `predicate` holds for the deadlines of the sleeping tasks (checked whenever they change).
    ///
    /// ```swift
    /// try await clock.waitUntilSleepers { $0.contains(retryAt) }
    /// ```
    ///
    /// - Throws: ``BinobanTestKitTimeout`` after `timeout` (measured on the real `ContinuousClock`, a safety net
    ///   only), `CancellationError` when the task is cancelled.
    public func waitUntilSleepers(
        timeout: Duration = .seconds(300), _ predicate: @escaping @Sendable ([Instant]) -> Bool
    ) async throws {
        let condition = SleeperCondition(
            predicate: predicate, expectedCount: nil, awaited: "ManualClock.waitUntilSleepers")
        try await state.wait(for: condition, timeout: timeout)
    }

    /// How many tasks are suspended in ``waitForSleepers(count:timeout:)`` or ``waitUntilSleepers(timeout:_:)``.
    var waiterCount: Int { state.withLock { $0.waitList.count } }
}
