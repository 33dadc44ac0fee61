import BinobanCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Follows each accepted line of `sdkcore binoban send` until the event storage confirms it, advances the
/// checkpoint, and counts what happened to the events.
///
/// The instance keeps the order of accepted calls (track and identify alike) all the way to storage, so the
/// n-th event the storage reports as handled (stored or refused as oversize) is the n-th line registered here.
/// The sender keeps fewer than ``SendCommandLimits/maxOutstanding`` lines unconfirmed, far below the write
/// stage's capacity, so no event is dropped on the way and the correspondence holds.
final class SendLedger: Sendable {
    /// The counters shown in the progress line and the summary.
    struct Counts: Sendable, Hashable {
        var read = 0
        var bad = 0
        var skipped = 0
        var accepted = 0
        var stored = 0
        var oversize = 0
        var evicted = 0
        var sent = 0
        var rejected = 0
        /// Bytes of the input read so far.
        var bytesRead = 0
        /// The input's size when it is a regular file (so a percentage can be shown); `nil` for a pipe.
        var inputBytes: Int?
    }

    private struct Pending {
        var line: Int
        var hash: UInt64
    }

    private struct State {
        var pending: [Pending] = []
        var pendingStart = 0
        var counts = Counts()
        var checkpointFailure: String?
        var waiters: [(limit: Int, continuation: CheckedContinuation<Void, Never>)] = []
        /// Set by ``stopWaiting()``: waits return at once.
        var stopped = false

        var outstanding: Int { pending.count - pendingStart }
    }

    private let state = LockedValue(State())
    private let checkpoint: SendCheckpoint?

    /// A ledger that writes `checkpoint` (when given) each time the storage confirms events.
    init(checkpoint: SendCheckpoint?) {
        self.checkpoint = checkpoint
    }

    /// The counters now.
    var counts: Counts { state.withLock { $0.counts } }

    /// The first checkpoint write that failed, if any.
    var checkpointFailure: String? { state.withLock { $0.checkpointFailure } }

    /// Updates the counters.
    func update(_ change: (inout Counts) -> Void) {
        state.withLock { change(&$0.counts) }
    }

    /// Registers the line about to be handed to the instance; call it right before the call.
    func register(line: Int, hashThroughLine hash: UInt64) {
        state.withLock {
            $0.pending.append(Pending(line: line, hash: hash))
            $0.counts.accepted += 1
        }
    }

    /// Called by the storage after an append returned: advances the checkpoint past the handled events.
    func confirm(_ report: BinobanStorageWriteReport) {
        let handled = report.storedEvents + report.rejectedOversizeEvents
        let (position, ready) = state.withLock {
            state -> (SendCheckpoint.Position?, [CheckedContinuation<Void, Never>]) in
            state.counts.stored += report.storedEvents
            state.counts.oversize += report.rejectedOversizeEvents
            state.counts.evicted += report.evictedEvents
            let count = min(handled, state.outstanding)
            guard count > 0 else { return (nil, []) }
            let last = state.pending[state.pendingStart + count - 1]
            state.pendingStart += count
            if state.pendingStart > 4096 {
                state.pending.removeFirst(state.pendingStart)
                state.pendingStart = 0
            }
            let outstanding = state.outstanding
            var ready: [CheckedContinuation<Void, Never>] = []
            state.waiters.removeAll { waiter in
                guard outstanding < waiter.limit else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return (SendCheckpoint.Position(linesStored: last.line, inputHash: last.hash), ready)
        }
        if let position, let checkpoint {
            do {
                try checkpoint.save(position)
            } catch {
                state.withLock { if $0.checkpointFailure == nil { $0.checkpointFailure = error.description } }
            }
        }
        for continuation in ready { continuation.resume() }
    }

    /// Ends every wait of ``waitUntilOutstanding(below:)``, now and later: the sender stops on a signal even
    /// when the storage does not confirm.
    func stopWaiting() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.stopped = true
            defer { state.waiters = [] }
            return state.waiters.map(\.continuation)
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once fewer than `limit` registered lines wait for the storage, or once ``stopWaiting()`` was
    /// called.
    func waitUntilOutstanding(below limit: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.stopped || state.outstanding < limit { return true }
                state.waiters.append((limit, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// The event storage of `sdkcore binoban send`: forwards to the real storage and tells the ledger, before
/// returning, which events the storage confirmed. Uploads happen only after `append` returns, so the
/// checkpoint always covers an event before the event can reach the server.
struct LedgerStorage: BinobanEventStorage {
    let base: any BinobanEventStorage
    let ledger: SendLedger

    func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
        let report = try await base.append(events, whenFull: whenFull)
        ledger.confirm(report)
        return report
    }

    func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        let result = await base.appendReportingProgress(events, whenFull: whenFull)
        if case .success(let report) = result { ledger.confirm(report) }
        return result
    }

    func closeOpenBatch() async throws -> BinobanStorageWriteReport {
        let report = try await base.closeOpenBatch()
        ledger.confirm(report)
        return report
    }

    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] { try await base.finishedBatches(limit: limit) }

    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }

    func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}
