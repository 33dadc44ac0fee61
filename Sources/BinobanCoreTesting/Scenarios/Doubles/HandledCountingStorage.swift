#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Wraps a storage and lets the runner wait until events reached it (stored or refused as oversize).
actor HandledCountingStorage: BinobanEventStorage {
    private let base: any BinobanEventStorage
    private var handled = 0
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ base: any BinobanEventStorage) {
        self.base = base
    }

    func waitForHandledEvents(count: Int) async {
        if handled >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    func append(_ events: [Data]) async throws -> BinobanStorageWriteReport {
        let report = try await base.append(events)
        handled += report.storedEvents + report.rejectedOversizeEvents
        let ready = waiters.filter { $0.count <= handled }
        waiters.removeAll { $0.count <= handled }
        for waiter in ready { waiter.continuation.resume() }
        return report
    }

    func closeOpenBatch() async throws { try await base.closeOpenBatch() }
    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] { try await base.finishedBatches(limit: limit) }
    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch { try await base.read(batch) }
    func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}
