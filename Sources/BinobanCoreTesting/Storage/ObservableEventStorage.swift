#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps a storage and lets a test await that events reached it, without polling.
///
/// ```swift
/// let storage = ObservableEventStorage(InMemoryEventStorage())
/// binoban.track(name: "a")
/// try await storage.waitForStoredEvents(count: 1)
/// ```
public actor ObservableEventStorage: BinobanEventStorage {
    private struct State: WaitListHolder {
        var stored = 0
        /// Waiters for a number of stored events.
        var waitList = WaitList<Int, Void>()

        func result(for count: Int) -> Void? {
            stored >= count ? () : nil
        }

        func timeoutError(for count: Int, after timeout: Duration) -> BinobanTestKitTimeout {
            BinobanTestKitTimeout(
                awaited: "ObservableEventStorage.waitForStoredEvents", unit: "stored events", seen: stored,
                expected: count, timeout: timeout)
        }
    }

    private let base: any BinobanEventStorage
    // In a lock rather than actor state: a waiter's cancellation and timeout remove it synchronously.
    private let state = LockedValue(State())

    /// Wraps `base`.
    public init(_ base: any BinobanEventStorage) {
        self.base = base
    }

    /// Events stored through this wrapper so far (oversize ones excluded).
    public var storedEventCount: Int { state.withLock { $0.stored } }

    /// Returns once at least `count` events were stored through this wrapper.
    ///
    /// It resumes as soon as the events are stored; `timeout`, measured on the real `ContinuousClock`, is only a
    /// safety net so that a broken test fails instead of hanging.
    ///
    /// - Throws: ``BinobanTestKitTimeout`` after `timeout`, `CancellationError` when the task is cancelled.
    public func waitForStoredEvents(count: Int, timeout: Duration = .seconds(300)) async throws {
        try await state.wait(for: count, timeout: timeout)
    }

    /// How many tasks are suspended in ``waitForStoredEvents(count:timeout:)``.
    nonisolated var waiterCount: Int { state.withLock { $0.waitList.count } }

    /// Appends through the wrapped storage and wakes waiters.
    public func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws
        -> BinobanStorageWriteReport
    {
        let report = try await base.append(events, whenFull: whenFull)
        stored(report)
        return report
    }

    /// Appends through the wrapped storage's `BinobanEventStorage.appendReportingProgress(_:whenFull:)` (so a
    /// failure says how far the wrapped storage got) and wakes waiters.
    public func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        let result = await base.appendReportingProgress(events, whenFull: whenFull)
        if case .success(let report) = result { stored(report) }
        return result
    }

    private func stored(_ report: BinobanStorageWriteReport) {
        resumeAll(
            state.withLock { state in
                state.stored += report.storedEvents
                return state.takeSatisfiedWaiters()
            })
    }

    /// Forwards to the wrapped storage.
    @discardableResult
    public func closeOpenBatch() async throws -> BinobanStorageWriteReport { try await base.closeOpenBatch() }

    /// Forwards to the wrapped storage.
    public func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
        try await base.finishedBatches(limit: limit)
    }

    /// Forwards to the wrapped storage.
    public func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }

    /// Forwards to the wrapped storage.
    public func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}
