/// The batch identities a storage that moves batches between stores hands out, and where each batch is.
///
/// Each store numbers its own batches, and a store opened again (a directory re-created) starts its numbers anew,
/// so the pipeline sees identities of this map instead: each is given once, never reused, and stays with its
/// batch when the batch moves to another store. An entry lives until its batch is removed, evicted or lost.
struct StoredBatchIDMap: Sendable {
    /// Where a batch is: a store (0 for memory, then one number per file storage opened) and its own identity there.
    struct Place: Hashable, Sendable {
        var store: Int
        var id: BinobanBatchID
    }

    private var idByPlace: [Place: UInt64] = [:]
    private var placeByID: [UInt64: Place] = [:]
    private var next: UInt64 = 1
    /// The last place looked up and its identity: appends one after the other go to the same open batch, and this
    /// spares each a lookup (hashing) in ``idByPlace``. Cleared whenever an entry moves or goes.
    private var last: (place: Place, id: UInt64)?

    /// The identity of the batch at `place`, given now if it has none.
    mutating func id(for place: Place) -> BinobanBatchID {
        if let last, last.place == place { return BinobanBatchID(sequence: last.id) }
        if let known = idByPlace[place] {
            last = (place, known)
            return BinobanBatchID(sequence: known)
        }
        let given = next
        next += 1
        idByPlace[place] = given
        placeByID[given] = place
        last = (place, given)
        return BinobanBatchID(sequence: given)
    }

    /// Where the batch `id` is; `nil` when it is unknown or gone.
    func place(of id: BinobanBatchID) -> Place? { placeByID[id.sequence] }

    /// The batch moved to `place`.
    mutating func move(_ id: BinobanBatchID, to place: Place) {
        last = nil
        if let old = placeByID[id.sequence] { idByPlace[old] = nil }
        placeByID[id.sequence] = place
        idByPlace[place] = id.sequence
    }

    /// The batch is gone (removed, evicted, lost).
    mutating func forget(_ id: BinobanBatchID) {
        last = nil
        guard let place = placeByID.removeValue(forKey: id.sequence) else { return }
        idByPlace[place] = nil
    }

    /// How many batches are known.
    var count: Int { placeByID.count }

    /// `report` of store `store` in this map's identities: placements, evictions and losses named by it, the
    /// evicted and lost batches forgotten.
    mutating func translate(_ report: BinobanStorageWriteReport, store: Int) -> BinobanStorageWriteReport {
        var translated = report
        // Renamed in place: the report is usually the storage's own, uniquely held, so no new array.
        for index in translated.placements.indices {
            translated.placements[index].batch = id(for: Place(store: store, id: translated.placements[index].batch))
        }
        guard !report.evictedBatchEvents.isEmpty || !report.lostBatchEvents.isEmpty else { return translated }
        translated.evictedBatchEvents = [:]
        for (inner, events) in report.evictedBatchEvents {
            let outer = id(for: Place(store: store, id: inner))
            translated.evictedBatchEvents[outer] = events
            forget(outer)
        }
        translated.lostBatchEvents = [:]
        for (inner, events) in report.lostBatchEvents {
            let outer = id(for: Place(store: store, id: inner))
            translated.lostBatchEvents[outer, default: 0] += events
            forget(outer)
        }
        return translated
    }
}

extension BinobanStorageWriteReport {
    /// Adds what `other` (a later part of the same call, or what the storage kept to report) did.
    mutating func add(_ other: BinobanStorageWriteReport) {
        storedEvents += other.storedEvents
        rejectedOversizeEvents += other.rejectedOversizeEvents
        refusedEvents += other.refusedEvents
        addEvictions(of: other)
        for run in other.placements { recordPlacement(of: run.eventCount, in: run.batch) }
        // Usually empty: merging nothing still took and released the other's dictionary through the generic merge.
        if !other.lostBatchEvents.isEmpty { lostBatchEvents.merge(other.lostBatchEvents, uniquingKeysWith: +) }
        recoveredEvents += other.recoveredEvents
        recoveredBytes += other.recoveredBytes
    }
}
