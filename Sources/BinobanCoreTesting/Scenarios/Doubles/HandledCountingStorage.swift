#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps a storage and lets the runner wait until events reached it (stored or refused as oversize), and until
/// an upload pass has listed the stored batches.
actor HandledCountingStorage: BinobanEventStorage {
    private let base: any BinobanEventStorage
    private var handled = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var listings = 0
    private var listingWaiters: [CheckedContinuation<Void, Never>] = []

    init(_ base: any BinobanEventStorage) {
        self.base = base
    }

    func waitForHandledEvents(count: Int) async {
        if handled >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
        let report = try await base.append(events, whenFull: whenFull)
        handled += report.storedEvents + report.rejectedOversizeEvents
        let ready = waiters.filter { $0.count <= handled }
        waiters.removeAll { $0.count <= handled }
        for waiter in ready { waiter.continuation.resume() }
        return report
    }

    func closeOpenBatch() async throws { try await base.closeOpenBatch() }
    /// Returns once an upload pass has listed the stored batches (at once if one already has).
    func waitForFirstListing() async {
        if listings > 0 { return }
        await withCheckedContinuation { listingWaiters.append($0) }
    }

    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
        let batches = try await base.finishedBatches(limit: limit)
        listings += 1
        let ready = listingWaiters
        listingWaiters = []
        for waiter in ready { waiter.resume() }
        return batches
    }
    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }
    func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}
