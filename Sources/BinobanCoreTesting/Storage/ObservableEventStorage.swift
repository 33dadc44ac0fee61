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
/// await storage.waitForStoredEvents(count: 1)
/// ```
public actor ObservableEventStorage: BinobanEventStorage {
    private let base: any BinobanEventStorage
    private var stored = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// Wraps `base`.
    public init(_ base: any BinobanEventStorage) {
        self.base = base
    }

    /// Events stored through this wrapper so far (oversize ones excluded).
    public var storedEventCount: Int { stored }

    /// Returns once at least `count` events were stored through this wrapper.
    public func waitForStoredEvents(count: Int) async {
        if stored >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// Appends through the wrapped storage and wakes waiters.
    public func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
        let report = try await base.append(events, whenFull: whenFull)
        stored += report.storedEvents
        let ready = waiters.filter { $0.count <= stored }
        waiters.removeAll { $0.count <= stored }
        for waiter in ready { waiter.continuation.resume() }
        return report
    }


    /// Forwards to the wrapped storage.
    public func closeOpenBatch() async throws { try await base.closeOpenBatch() }

    /// Forwards to the wrapped storage.
    public func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
        try await base.finishedBatches(limit: limit)
    }

    /// Forwards to the wrapped storage.
    public func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }

    /// Forwards to the wrapped storage.
    public func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}
