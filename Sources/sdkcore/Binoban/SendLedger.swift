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
        /// Lines read but not handed to the instance and not bad: ``resumed`` plus ``blank``.
        var skipped: Int { resumed + blank }
        /// Lines an earlier run stored (skipped on resume).
        var resumed = 0
        /// Blank lines.
        var blank = 0
        var accepted = 0
        var stored = 0
        var oversize = 0
        var evicted = 0
        /// Events of an append that failed part-way and were not stored.
        var unstored = 0
        var sent = 0
        var rejected = 0
        /// Events the instance holds for room in a full storage, as its statistics last said
        /// (`BinobanStatistics.heldEvents`): accepted, neither stored nor dropped yet (Docs/Decisions/0229).
        var held = 0
        /// Why the last request without an HTTP answer failed, in words (``TransportFailureWords``).
        var lastTransportFailure: String?
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
        /// Set when an append failed part-way: the events of the lines after the last one stored before the
        /// failure may be missing, so the checkpoint never moves past that line again in this run.
        var checkpointHeld = false
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

    /// Takes the figures the storage cannot tell the ledger from the instance's `statistics`: the events held for
    /// room (a full storage refused them, so no append confirms them).
    func observe(_ statistics: BinobanStatistics) {
        state.withLock { $0.counts.held = statistics.heldEvents }
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
        settle(
            handled: report.storedEvents + report.rejectedOversizeEvents, unstored: 0,
            counting: { counts in
                counts.stored += report.storedEvents
                counts.oversize += report.rejectedOversizeEvents
                counts.evicted += report.evictedEvents
            })
    }

    /// Called by the storage after an append of `total` events failed with `stored` of them stored: the
    /// checkpoint moves past the stored ones and then stays, so that the next run sends every line after them
    /// again (the failed ones, and any later ones this run stores, which the ingest may then get twice).
    func confirmFailure(storedBeforeFailure stored: Int, of total: Int) {
        settle(
            handled: stored, unstored: max(0, total - stored),
            counting: { counts in
                counts.stored += stored
                counts.unstored += max(0, total - stored)
            })
    }

    /// Counts an append's result, retires the lines it handled (and, after a failure, the lines it lost, so that
    /// the n-th event handled later is still the n-th line registered), and writes the checkpoint.
    private func settle(handled: Int, unstored: Int, counting: (inout Counts) -> Void) {
        let (position, ready) = state.withLock {
            state -> (SendCheckpoint.Position?, [CheckedContinuation<Void, Never>]) in
            counting(&state.counts)
            let count = min(handled, state.outstanding)
            let lost = min(unstored, state.outstanding - count)
            guard count + lost > 0 else { return (nil, []) }
            var position: SendCheckpoint.Position?
            if count > 0, !state.checkpointHeld {
                let last = state.pending[state.pendingStart + count - 1]
                position = SendCheckpoint.Position(linesStored: last.line, inputHash: last.hash)
            }
            if lost > 0 { state.checkpointHeld = true }
            state.pendingStart += count + lost
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
            return (position, ready)
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

    /// Whether an append failed part-way, so the checkpoint stopped before the lines it lost.
    var checkpointHeld: Bool { state.withLock { $0.checkpointHeld } }

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
        do {
            let report = try await base.append(events, whenFull: whenFull)
            ledger.confirm(report)
            return report
        } catch {
            // A throwing append does not say how many it stored: none are confirmed, and the checkpoint stays.
            ledger.confirmFailure(storedBeforeFailure: 0, of: events.count)
            throw error
        }
    }

    func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        let result = await base.appendReportingProgress(events, whenFull: whenFull)
        switch result {
        case .success(let report): ledger.confirm(report)
        case .failure(let failure):
            ledger.confirmFailure(storedBeforeFailure: failure.storedEventsBeforeFailure, of: events.count)
        }
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
