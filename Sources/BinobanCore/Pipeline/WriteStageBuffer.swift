#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The driver's side of the write stage: the events of the current drain (encoded by their callers, or here when
/// they come structured) handed to storage a chunk at a time, and the suffix a full storage refused (kept for the next append until the machine says to drop it).
struct WriteStageBuffer {
    /// Events encoded and handed to storage per append.
    static var chunkSize: Int { 2048 }

    /// The instance's encoder, for the events that reach the loop structured (callers encode with it too: the
    /// intake's ``EncodingSnapshot``).
    let encoder: EventEncoder
    /// Where events are drained from, and their buffers go back for reuse.
    private let intake: EventIntake
    private var drain = EventIntake.Drain()
    /// How many events of the drain were encoded.
    private var encoded = 0
    /// The chunk being appended, or the refused suffix.
    private(set) var chunk: [Data] = []
    /// The host's before-send stages, run on each event before it is encoded; `nil` when none are installed.
    private let stages: EventStages?
    /// Whether the events' message ids are kept beside the chunk, for the delivery observer and awaiting callers
    /// (turned on by the machine at the first awaited event).
    var namesEvents: Bool
    /// The message ids of ``chunk`` (kept only when ``namesEvents``): after a refusal, of the refused suffix.
    private(set) var chunkIDs: [String] = []
    /// The positions in ``chunk`` of events a caller awaits (kept only when ``namesEvents``).
    private var chunkAwaited: [Int] = []
    /// The events the appends stored, as runs of message ids by batch (kept only when ``namesEvents``), until the
    /// driver takes them: the ids travel from the encoded event to the delivery reports, never read back.
    private var placedRuns: [PlacedRun] = []
    /// The events the stages dropped since the last ``takeStageDrops()``, by reason.
    private var stageDrops: [StageDrop] = []
    /// The message ids of the events the last append refused as oversize, and of those the last failure lost.
    private(set) var oversizeIDs: [String] = []
    private(set) var lostIDs: [String] = []
    /// Where the chunk's structured events are encoded, one after the other, before they are copied into one
    /// `Data`: kept from chunk to chunk, so that a turn of a few events does not allocate it again.
    private var scratch: [UInt8] = []
    /// Where each event encoded into ``scratch`` ends, and its place in the chunk, in chunk order.
    private var scratchEnds: [(end: Int, place: Int)] = []
    /// Whether the storage may be handed slices of one shared `Data` (``OpenedStorage/takesSlices``): the events
    /// the loop encodes for a chunk then cost one buffer in all, not two allocations each.
    let handsOutSlices: Bool

    init(
        encoder: EventEncoder, intake: EventIntake, stages: EventStages? = nil, namesEvents: Bool = false,
        handsOutSlices: Bool = false
    ) {
        self.encoder = encoder
        self.intake = intake
        self.stages = stages
        self.namesEvents = namesEvents
        self.handsOutSlices = handsOutSlices
    }

    /// A buffer with the instance's encoder (its static context and, when collected, device id), which it also
    /// gives the intake for callers to encode with.
    init(for parts: PipelineParts, storageTakesSlices: Bool) {
        let configuration = parts.configuration
        let deviceId = configuration.collectDeviceId ? parts.intake.identity.deviceId : nil
        self.init(
            encoder: EventEncoder(
                context: configuration.contextProvider.staticContext(),
                deviceId: deviceId),
            intake: parts.intake, stages: EventStages(configuration.stages),
            namesEvents: parts.rules.reportsDeliveries, handsOutSlices: storageTakesSlices)
        parts.intake.setEncoder(encoder)
    }

    /// Whether events of the drain remain to be stored.
    var hasMore: Bool { !chunk.isEmpty || hasMoreAfterChunk }

    /// Whether the drain holds events not yet handed to storage, besides the chunk (or its refused suffix).
    var hasMoreAfterChunk: Bool { encoded < drain.events.count }

    /// Takes everything the intake holds (handing the previous drain's buffer back for reuse).
    mutating func take() -> PipelineDrain {
        // Usually released already, once encoded; a drain left part-way (a failed append) goes back here.
        if !drain.buffer.isEmpty { intake.recycle(drain.buffer) }
        drain = intake.take()
        encoded = 0
        return drain.summary
    }

    /// The events to append next: the refused suffix, or the next chunk. Events their callers encoded are only
    /// collected; a structured one (stages installed, or accepted before the pipeline ran) is run through the
    /// stages and encoded here.
    mutating func nextChunk() -> [Data] {
        guard chunk.isEmpty else { return chunk }
        let start = drain.firstLive + encoded
        let end = min(start + Self.chunkSize, drain.buffer.endIndex)
        chunk.reserveCapacity(end - start)
        scratch.removeAll(keepingCapacity: true)
        scratchEnds.removeAll(keepingCapacity: true)
        // Read in place: a `for` over the slice would copy each event out of the buffer.
        drain.buffer.withUnsafeBufferPointer { events in
            for index in start..<end {
                switch events[index] {
                case .encoded(let event):
                    if namesEvents { name(event.messageId.text, awaited: event.isAwaited) }
                    chunk.append(event.json)
                case .structured(let event) where stages == nil:
                    // No stage to run: encoded where it lies (a mutable copy retained and released its every field).
                    appendEncoded(event)
                case .structured(var event):
                    if let reason = stages?.run(on: &event) {
                        noteStageDrop(reason, event.messageIdText)
                        continue
                    }
                    appendEncoded(event)
                }
            }
        }
        encoded = end - drain.firstLive
        if !scratchEnds.isEmpty { fillEncodedPlaces() }
        return chunk
    }

    /// Encodes a structured event and adds it to the chunk (named when events are named). Where the storage takes
    /// slices, the event is encoded after the chunk's others in ``scratch`` and its place in the chunk holds an
    /// empty `Data` until ``fillEncodedPlaces()``; otherwise it gets a `Data` of its own.
    private mutating func appendEncoded(_ event: PendingEvent) {
        if scratch.capacity == 0 { scratch.reserveCapacity(4096) }
        if !handsOutSlices { scratch.removeAll(keepingCapacity: true) }
        encoder.encode(event, to: &scratch)
        if namesEvents { name(event.messageIdText, awaited: event.server?.isAwaited == true) }
        if handsOutSlices {
            scratchEnds.append((scratch.count, chunk.count))
            chunk.append(Data())
        } else {
            chunk.append(Data(scratch))
        }
    }

    /// Copies the events encoded into ``scratch`` into one `Data` and puts a slice of it in each of their places in
    /// the chunk. The slices share that `Data` (a reference count, no copy), which goes when the last of them
    /// does: after the append, since the SDK's storages copy what they keep.
    private mutating func fillEncodedPlaces() {
        let whole = Data(scratch)
        var start = 0
        for (end, place) in scratchEnds {
            chunk[place] = whole[start..<end]
            start = end
        }
        // A burst's chunk of large events may have grown the scratch buffer far past a usual chunk's: not kept.
        if scratch.capacity > Self.keptScratchCapacity { scratch = [] }
    }

    /// The largest scratch buffer kept from chunk to chunk (a chunk of 2 048 events of about 500 bytes).
    private static var keptScratchCapacity: Int { 1 << 20 }

    /// Keeps the message id of the event about to join the chunk (events are named: ``namesEvents``).
    private mutating func name(_ messageId: String, awaited: Bool) {
        if awaited { chunkAwaited.append(chunk.count) }
        chunkIDs.append(messageId)
    }

    private mutating func noteStageDrop(_ reason: String, _ messageId: @autoclosure () -> String) {
        let id = namesEvents ? [messageId()] : []
        if let index = stageDrops.firstIndex(where: { $0.reason == reason }) {
            stageDrops[index].count += 1
            stageDrops[index].messageIds += id
        } else {
            stageDrops.append(StageDrop(reason: reason, count: 1, messageIds: id))
        }
    }

    /// The events the stages dropped since the last call, by reason, for the machine to count.
    mutating func takeStageDrops() -> [StageDrop] {
        defer { stageDrops = [] }
        return stageDrops
    }

    /// Hands the drained events back once they are all stored (or dropped): held until the next drain, a burst's
    /// last drain (up to the write stage's capacity) would stay in memory while the pipeline is idle. Not before the
    /// chunk lets go of them: the last reference to each event's bytes is then the buffer's, which a caller empties,
    /// so the bytes are freed by the thread that allocated them (Decision 0206's addendum).
    private mutating func releaseDrainIfDone() {
        guard chunk.isEmpty, !hasMoreAfterChunk, !drain.buffer.isEmpty else { return }
        intake.recycle(drain.buffer)
        drain.buffer = []
        drain.firstLive = 0
        encoded = 0
    }

    /// The storage took the chunk but its refused suffix; returns the bytes it stored (the events it refused as
    /// oversize are not among them: they were counted as dropped, not queued), in all and for each of the
    /// report's placements.
    mutating func stored(_ report: BinobanStorageWriteReport) -> (bytes: Int, placedBytes: [Int]) {
        let taken = chunk.count - report.refusedEvents
        let oversize = Self.largest(report.rejectedOversizeEvents, of: chunk.prefix(taken))
        let bytes = chunk.prefix(taken).reduce(0) { $0 + $1.count } - oversize.reduce(0) { $0 + chunk[$1].count }
        let placedBytes = Self.bytes(of: report.placements, in: chunk.prefix(taken), skipping: oversize)
        // A chunk encoded before events were named (a refused suffix held when the first awaited event came) has
        // no ids: its events stay unnamed.
        if namesEvents, chunkIDs.count == chunk.count {
            oversizeIDs = oversize.map { chunkIDs[$0] }
            place(taken: taken, oversize: oversize, report.placements)
            chunkIDs.removeFirst(taken)
        } else {
            oversizeIDs = []
        }
        chunk.removeFirst(taken)
        releaseDrainIfDone()
        return (bytes, placedBytes)
    }

    /// The bytes of each run of `placements` over the stored events of `events` (those at `skipping` were refused
    /// as oversize); empty when the runs do not cover them.
    static func bytes(
        of placements: [BinobanBatchPlacement], in events: ArraySlice<Data>, skipping: [Int]
    ) -> [Int] {
        guard !placements.isEmpty else { return [] }
        var result: [Int] = []
        result.reserveCapacity(placements.count)
        var skipped = skipping[...]
        var index = events.startIndex
        for placement in placements {
            var bytes = 0
            var count = 0
            while count < placement.eventCount, index < events.endIndex {
                if skipped.first == index {
                    skipped.removeFirst()
                } else {
                    bytes += events[index].count
                    count += 1
                }
                index += 1
            }
            guard count == placement.eventCount else { return [] }
            result.append(bytes)
        }
        return result
    }

    /// Notes which batch the events of the stored prefix went to, with their message ids, from the storage's runs
    /// of stored events (the oversize ones are not among them); the events of the refused suffix stay. A storage
    /// that does not report placements leaves them unplaced (see `placements`).
    private mutating func place(taken: Int, oversize: [Int], _ placements: [BinobanBatchPlacement]) {
        var skipped = oversize[...]
        var awaited = chunkAwaited[...]
        var position = 0
        for placement in placements {
            var run = PlacedRun(batch: placement.batch)
            run.messageIds.reserveCapacity(placement.eventCount)
            while run.messageIds.count < placement.eventCount, position < taken {
                defer { position += 1 }
                if skipped.first == position {
                    skipped.removeFirst()
                    if awaited.first == position { awaited.removeFirst() }
                    continue
                }
                run.messageIds.append(chunkIDs[position])
                if awaited.first == position {
                    awaited.removeFirst()
                    run.awaitedIds.append(chunkIDs[position])
                }
            }
            placedRuns.append(run)
        }
        chunkAwaited = chunkAwaited.filter { $0 >= taken }.map { $0 - taken }
    }

    /// Where the events of the appends since the last call were stored, with their message ids.
    mutating func takePlacedRuns() -> [PlacedRun] {
        defer { placedRuns = [] }
        return placedRuns
    }

    /// The message ids of the events the intake dropped, oldest first, to keep its bound (drop-oldest) in the
    /// drain just taken; empty unless ``namesEvents``.
    var droppedOldestIDs: [String] {
        guard namesEvents else { return [] }
        return drain.buffer.prefix(drain.firstLive).map(\.messageIdText)
    }

    /// The append failed: the chunk is dropped; returns how many of its events were lost, and how many (its first
    /// ones) the storage kept before the failure, with their encoded bytes.
    mutating func failed(storedBeforeFailure: Int) -> (lost: Int, stored: Int, storedBytes: Int) {
        let stored = min(max(0, storedBeforeFailure), chunk.count)
        let lost = chunk.count - stored
        let storedBytes = chunk.prefix(stored).reduce(0) { $0 + $1.count }
        chunk = []
        if namesEvents {
            lostIDs = Array(chunkIDs.suffix(lost))
            chunkIDs = []
            chunkAwaited = []
        }
        releaseDrainIfDone()
        return (lost, stored, storedBytes)
    }

    /// Tells the write stage what an append did, and returns what the machine needs of that.
    mutating func written<Instant>(
        _ result: Result<BinobanStorageWriteReport, BinobanStorageAppendFailure>
    ) -> PipelineInput<Instant> {
        switch result {
        case .success(let report):
            let (bytes, placedBytes) = stored(report)
            // A refused suffix is the machine's to hold or drop: it is not "more in the drain".
            return .written(report, storedBytes: bytes, moreInDrain: hasMoreAfterChunk, placedBytes: placedBytes)
        case .failure(let failure):
            let (lost, stored, storedBytes) = failed(storedBeforeFailure: failure.storedEventsBeforeFailure)
            // What the storage kept is queued: the failure says how many, not in which batch (unplaced).
            return .writeFailed(
                lost: lost, moreInDrain: hasMore, message: "\(failure.error)",
                stored: BinobanStorageWriteReport(storedEvents: stored), storedBytes: storedBytes)
        }
    }

    /// Drops the refused suffix (the machine counted it).
    mutating func discardRefused() {
        chunk = []
        chunkIDs = []
        chunkAwaited = []
        releaseDrainIfDone()
    }

    /// The positions of the `count` largest events: the ones a storage refused as oversize, since its rule is a
    /// size limit (an event of the limit or more), so it refuses exactly the largest ones of what it took.
    static func largest(_ count: Int, of events: ArraySlice<Data>) -> [Int] {
        guard count > 0 else { return [] }
        return events.indices.sorted { events[$0].count > events[$1].count }.prefix(count).sorted()
    }
}
