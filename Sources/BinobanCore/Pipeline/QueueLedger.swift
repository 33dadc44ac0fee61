/// The events and bytes of this run that the storage holds, by batch: what ``BinobanStatistics/queuedEvents`` and
/// ``BinobanStatistics/queuedBytes`` count.
///
/// Each append's report says which batch its events went to (``BinobanStorageWriteReport/placements``), so when a
/// batch leaves storage (uploaded, rejected, evicted, purged) exactly the events this run put in it leave the
/// count: a batch a previous run left takes nothing away, and no counter is ever clamped to hide a negative.
///
/// The pipeline loop feeds each append's report before the result of any later storage call, so a batch is
/// placed before it can be listed. Should a batch leave before the report that placed events in it (a driver that
/// runs storage calls concurrently), the ledger remembers it, and the late report's events leave at once: the
/// books still close.
///
/// Events earlier runs left (``recovered(events:bytes:)``) are known only as a total: a batch the ledger does not
/// know that leaves takes from them, as many as it holds and as many as there are, so their count falls to zero
/// as those batches go (Docs/Decisions/0257).
///
/// A storage that does not report placements leaves its events unplaced, and so does an append that failed
/// part-way (the failure says how many events it stored, not where): a batch the ledger does not know then takes
/// from them, as many as it holds and as many as there are, and a known batch that holds more events than were
/// placed in it takes the difference (the only estimates here; both storages of this package place every event
/// they store without a failure).
struct QueueLedger: Sendable, Equatable {
    /// Events, and their encoded bytes.
    struct Share: Sendable, Equatable {
        var events = 0
        var bytes = 0
    }

    /// This run's events in storage, and their bytes.
    private(set) var queued = Share()
    /// This run's events in each batch that holds any.
    private var byBatch: [BinobanBatchID: Share] = [:]
    /// Events stored without a placement (a storage that does not report them).
    private var unplaced = Share()
    /// Events earlier runs left that have not left storage yet.
    private var earlierRuns = Share()
    /// Batches that left storage before the ledger knew of them, newer than the last placement: a late report
    /// placing events in one of them means those events have left already. Older ones cannot be placed into any
    /// more (a storage appends to its newest batch), so they are forgotten as placements move on.
    private var leftUnknown: Set<BinobanBatchID> = []

    /// An append stored `report.storedEvents` events of `bytes` bytes; `placedBytes` are the bytes of each of the
    /// report's placements, in order (when it does not match them, bytes are shared out by events). Returns what
    /// left at once: events placed in batches that already left.
    mutating func stored(_ report: BinobanStorageWriteReport, bytes: Int, placedBytes: [Int]) -> Share {
        queued.events += report.storedEvents
        queued.bytes += bytes
        let placements = report.placements.filter { $0.eventCount > 0 }
        let placedEvents = placements.reduce(0) { $0 + $1.eventCount }
        let given = placedBytes.count == report.placements.count && placements.count == report.placements.count
        let placedTotal =
            given
            ? placedBytes.reduce(0, +) : report.storedEvents > 0 ? bytes * placedEvents / report.storedEvents : 0
        var unshared = placedTotal
        var left = Share()
        for (index, placement) in placements.enumerated() {
            var share = Share(events: placement.eventCount, bytes: 0)
            if given {
                share.bytes = placedBytes[index]
            } else {
                // The last run takes the remainder, so the runs add up to the placed bytes exactly.
                share.bytes = index == placements.count - 1 ? unshared : placedTotal * share.events / placedEvents
                unshared -= share.bytes
            }
            if !leftUnknown.isEmpty { leftUnknown = leftUnknown.filter { $0 >= placement.batch } }
            if leftUnknown.contains(placement.batch) {
                left.events += share.events
                left.bytes += share.bytes
            } else {
                byBatch[placement.batch, default: Share()].events += share.events
                byBatch[placement.batch, default: Share()].bytes += share.bytes
            }
        }
        unplaced.events += report.storedEvents - placedEvents
        unplaced.bytes += bytes - placedTotal
        take(left)
        return left
    }

    /// The storage found `events` events (`bytes` of body) that earlier runs left: they join the count.
    mutating func recovered(events: Int, bytes: Int) {
        guard events > 0 else { return }
        queued.events += events
        queued.bytes += bytes
        earlierRuns.events += events
        earlierRuns.bytes += bytes
    }

    /// A batch holding `events` events left storage; returns the share of it the count held, which left the count.
    mutating func left(_ batch: BinobanBatchID, events: Int) -> Share {
        let share: Share
        if var known = byBatch.removeValue(forKey: batch) {
            // More events than were placed in it: an append that failed part-way stored the rest unplaced, in
            // the batch it was filling (earlier runs' batches are finished, never appended to).
            if events > known.events {
                let extra = takeUnplaced(events - known.events)
                known.events += extra.events
                known.bytes += extra.bytes
            }
            share = known
        } else if unplaced.events > 0 {
            share = takeUnplaced(events)
        } else if earlierRuns.events > 0 {
            let count = min(events, earlierRuns.events)
            let bytes =
                count == earlierRuns.events ? earlierRuns.bytes : earlierRuns.bytes * count / earlierRuns.events
            earlierRuns.events -= count
            earlierRuns.bytes -= bytes
            share = Share(events: count, bytes: bytes)
        } else {
            leftUnknown.insert(batch)
            share = Share()
        }
        take(share)
        return share
    }

    /// Evicted events the storage did not name by batch (only a storage that does not report placements omits
    /// them); returns this run's share of them, which left the count.
    mutating func leftUnnamed(events: Int) -> Share {
        let share = takeUnplaced(events)
        take(share)
        return share
    }

    /// Up to `events` of the unplaced events, with their share of the unplaced bytes.
    private mutating func takeUnplaced(_ events: Int) -> Share {
        let count = min(events, unplaced.events)
        guard count > 0 else { return Share() }
        let bytes = count == unplaced.events ? unplaced.bytes : unplaced.bytes * count / unplaced.events
        unplaced.events -= count
        unplaced.bytes -= bytes
        return Share(events: count, bytes: bytes)
    }

    private mutating func take(_ share: Share) {
        queued.events -= share.events
        queued.bytes -= share.bytes
    }
}
