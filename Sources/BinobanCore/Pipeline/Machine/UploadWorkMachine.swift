/// The upload work of ``PipelineMachine`` as a machine of its own: the batches of the running pass with their
/// states (queued → reading → ready → sending → removing), the passes (the running one and at most one follow-up),
/// whether a listing is out, and whether finished events are named.
///
/// It decides what is read, sent and listed next, when a pass ends and what follows it, and which batches leave
/// the work when a pass keeps one or the shutdown deadline passes. What the backoff gate allows (``UploadGate``,
/// a value of its own), what an answer means for the counts and the delivery observer, and what an awaited flush
/// returns are the composite's: they come in with the inputs, and the composite performs every action
/// (`PipelineMachine+Uploads.swift`). Each input yields at most one action, returned as an optional; inputs that
/// walk several batches (``Input/issue(generation:)``, ``Input/release(_:)``) yield one per call until `nil`, so
/// no array is built per input.
struct UploadWorkMachine: Sendable, Equatable {
    /// Which batches ``Input/release(_:)`` takes out of the work.
    enum Release: Sendable, Equatable {
        /// The pass kept a batch: those read and held for the gate (then, silently, those only listed).
        case held
        /// The shutdown deadline passed: those waiting to be read or sent.
        case waiting
        /// The machine finishes: every batch not being deleted (then, silently, those being deleted).
        case unsettled
    }

    /// What the upload work is told.
    enum Input: Sendable, Equatable {
        /// A drain brought an event a caller awaits: finished events are named from now on.
        case awaitedEventsDrained
        /// An upload pass is asked for: started, or merged into the running pass's follow-up.
        case passRequested(exhaustive: Bool, waiters: [UInt64])
        /// The gate is open: the next read, send or listing to issue (one per call, `nil` when none).
        case issue(generation: Int)
        /// Nothing more can be issued now: ends the pass if it is done. `backlogDue`: the queue holds `flushAt`
        /// events or more, so a pass that made progress is followed by another.
        case endPassIfDone(backlogDue: Bool)
        /// The passes end (paused, or interrupted by the shutdown): their waiters are resumed with `outcome`.
        case abandonPasses(BinobanFlushResult.Outcome)
        /// The gate holds the passes too long for their waiters: the waiters are resumed, the passes go on.
        case releaseWaiters
        /// The listing answered with `ids`; `full` when it returned as many as were asked for.
        case listed([BinobanBatchID], full: Bool)
        /// The listing failed: the pass is kept.
        case listFailed
        /// These events of the batch were older than the maximum age when it was read.
        case expired(BinobanBatchID, ExpiredRead)
        /// The batch was read with `eventCount` events to send in `bytes` bytes.
        case read(BinobanBatchID, eventCount: Int, bytes: Int)
        /// The batch is done with (answered for good, or every event expired): the pass made progress.
        case settle(BinobanBatchID)
        /// A request of the batch failed; `retrying` when it is retried (else it is kept).
        case failed(BinobanBatchID, BinobanUploadFailure, retrying: Bool)
        /// The batch vanished from storage since it was listed.
        case vanished(BinobanBatchID)
        /// The batch leaves the work (unreadable, deleted, or not deleted).
        case leave(BinobanBatchID)
        /// The pass sends nothing more (a batch was kept, or could not be read).
        case keepPass
        /// Takes the next batch out of the work (one per call, `nil` when none is left).
        case release(Release)
        /// Paused, or a purge starts: the batches only listed leave the work (nothing was issued for them).
        case dropListed
    }

    /// What the composite must do.
    enum Action: Sendable, Equatable {
        /// Name finished events from now on (``PipelineAction/nameEvents``).
        case nameEvents
        /// Send the batch (``PipelineAction/send(_:)``); `retried` when it failed before.
        case send(BinobanBatchID, retried: Bool)
        /// List the stored batches (``PipelineAction/list(limit:)``).
        case list(limit: Int)
        /// Read the batch (``PipelineAction/read(_:)``).
        case read(BinobanBatchID)
        /// A full exhaustive pass lists again: pump once more.
        case listAgain
        /// The pass ended: resume `waiters` (kept for retry when `kept`, else completed); `next` when a pass
        /// (its follow-up, or one for the backlog) runs now.
        case passEnded(waiters: [UInt64], kept: Bool, next: Bool)
        /// Resume these callers with `outcome`: the passes were abandoned.
        case resume([UInt64], BinobanFlushResult.Outcome)
        /// Resume these callers as kept for retry, and the flushes behind a held write: the gate holds too long.
        case releaseWaiters([UInt64])
        /// The batch was read but the pass had kept one meanwhile: the pass stops.
        case stopPass
        /// Every event of the batch expired: it is done with unsent.
        case allExpired(BinobanBatchID)
        /// The settled batch is being deleted (``PipelineAction/remove(_:)``).
        case remove(UploadItem)
        /// The settled batch was evicted already: it left the work, and is let go.
        case forgetEvicted(UploadItem)
        /// The failed batch was evicted while it was sent: it left the work, and its events are gone.
        case evictedInFlight(UploadItem)
        /// The failed batch waits for the gate to be sent again.
        case retry(BinobanBatchID, BinobanUploadFailure)
        /// The failed batch left the work, kept in storage for a later flush.
        case kept(UploadItem, BinobanUploadFailure)
        /// The vanished batch had been evicted while it was read or sent: its events are counted now.
        case vanishedEvicted(BinobanBatchID, events: Int)
        /// The batch was taken out of the work by ``Input/release(_:)``.
        case released(UploadItem, Release)
    }

    /// The batches of the current upload work, in the order they were listed.
    private(set) var work: [UploadItem] = []
    /// The passes: none, or the running one with its follow-up.
    private(set) var passes: Passes = .none
    /// A listing is out.
    private(set) var listing = false
    /// Whether finished events are named (``PipelineAction/deliver(_:)``): with a delivery observer from the start,
    /// otherwise from the first drain that brings an event a caller awaits.
    private(set) var namesEvents: Bool
    private let maxConcurrentUploads: Int
    private let maxFilesPerFlush: Int

    init(namesEvents: Bool, maxConcurrentUploads: Int, maxFilesPerFlush: Int) {
        self.namesEvents = namesEvents
        self.maxConcurrentUploads = maxConcurrentUploads
        self.maxFilesPerFlush = maxFilesPerFlush
    }

    /// The running pass.
    var pass: Pass? {
        guard case .running(let current, _) = passes else { return nil }
        return current
    }

    /// The batch `id`, while it is in the work.
    func item(_ id: BinobanBatchID) -> UploadItem? { work.first { $0.id == id } }

    /// Whether nothing is out but what waits for the gate (no listing, read, request or deletion).
    var isQuiet: Bool { !listing && work.allSatisfy { $0.state == .queued || $0.state == .ready } }

    /// Whether no pass runs, no batch is in the work and no listing is out.
    var isDone: Bool { passes == .none && work.isEmpty && !listing }

    /// Whether anything waits for the backoff gate to open.
    var waitsOnGate: Bool {
        pass?.needsListing == true || work.contains { $0.state == .queued || $0.state == .ready }
    }

    /// Whether a listing is still to come for the running pass (a held write waits for one).
    var listsLater: Bool { pass?.needsListing == true }

    /// The storage evicted or lost the batch (`events` events). Returns whether its events are gone now: it was
    /// only listed (it leaves the work) or not in the work. A batch being read or sent keeps the count until its
    /// outcome is known.
    mutating func gone(_ id: BinobanBatchID, events: Int) -> Bool {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return true }
        guard work[index].state != .queued else {
            work.remove(at: index)
            return true
        }
        work[index].evictedEvents = events
        return false
    }

    /// Takes one input; returns what the composite must do, if anything.
    mutating func handle(_ input: Input) -> Action? {
        switch input {
        case .awaitedEventsDrained:
            guard !namesEvents else { return nil }
            namesEvents = true
            return .nameEvents
        case .passRequested(let exhaustive, let waiters):
            switch passes {
            case .none:
                passes = .running(Pass(exhaustive: exhaustive, waiters: waiters), followUp: nil)
            case .running(let current, let followUp):
                var merged = followUp ?? Pass(exhaustive: false, waiters: [])
                merged.exhaustive = merged.exhaustive || exhaustive
                merged.waiters += waiters
                passes = .running(current, followUp: merged)
            }
            return nil
        case .issue(let generation):
            return issue(generation: generation)
        case .endPassIfDone(let backlogDue):
            return endPassIfDone(backlogDue: backlogDue)
        case .abandonPasses(let outcome):
            let waiters = (pass?.waiters ?? []) + (followUp?.waiters ?? [])
            passes = .none
            return .resume(waiters, outcome)
        case .releaseWaiters:
            guard case .running(var current, var followUp) = passes else { return nil }
            let waiters = current.waiters + (followUp?.waiters ?? [])
            current.waiters = []
            followUp?.waiters = []
            passes = .running(current, followUp: followUp)
            return .releaseWaiters(waiters)
        case .listed(let ids, let full):
            listing = false
            let known = Set(work.map(\.id))
            let fresh = ids.filter { !known.contains($0) }
            work += fresh.map { UploadItem(id: $0) }
            updatePass { $0.listedFull = full }
            updatePass { $0.listedOnlyKnown = fresh.isEmpty && !ids.isEmpty }
            return nil
        case .listFailed:
            listing = false
            updatePass { $0.kept = true }
            return nil
        case .expired(let id, let expired):
            update(id) { $0.expired = expired }
            return nil
        case .read(let id, let eventCount, let bytes):
            update(id) { item in
                item.state = .ready
                item.eventCount = eventCount
                item.bytes = bytes
            }
            if pass?.kept == true { return .stopPass }
            guard eventCount == 0, work.contains(where: { $0.id == id && $0.expired != nil }) else { return nil }
            return .allExpired(id)
        case .settle(let id):
            updatePass { $0.progressed = true }
            guard let index = work.firstIndex(where: { $0.id == id }) else { return nil }
            guard work[index].evictedEvents == nil else { return take(id).map { .forgetEvicted($0) } }
            work[index].state = .removing
            return .remove(work[index])
        case .failed(let id, let failure, let retrying):
            guard let index = work.firstIndex(where: { $0.id == id }) else { return nil }
            if work[index].evictedEvents != nil { return take(id).map { .evictedInFlight($0) } }
            work[index].retries += 1
            work[index].lastFailure = failure
            guard !retrying else {
                work[index].state = .ready
                return .retry(id, failure)
            }
            return take(id).map { .kept($0, failure) }
        case .vanished(let id):
            guard let evicted = take(id)?.evictedEvents else { return nil }
            return .vanishedEvicted(id, events: evicted)
        case .leave(let id):
            _ = take(id)
            return nil
        case .keepPass:
            updatePass { $0.kept = true }
            return nil
        case .release(let which):
            return release(which)
        case .dropListed:
            work.removeAll { $0.state == .queued }
            return nil
        }
    }

    private var followUp: Pass? {
        guard case .running(_, let followUp) = passes else { return nil }
        return followUp
    }

    /// Changes the running pass, keeping its follow-up.
    private mutating func updatePass(_ change: (inout Pass) -> Void) {
        guard case .running(var current, let followUp) = passes else { return }
        change(&current)
        passes = .running(current, followUp: followUp)
    }

    private mutating func update(_ id: BinobanBatchID, _ change: (inout UploadItem) -> Void) {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        change(&work[index])
    }

    /// Removes an item from the work, returning it: a listing ahead may find something new again.
    private mutating func take(_ id: BinobanBatchID) -> UploadItem? {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return nil }
        updatePass { $0.listedOnlyKnown = false }
        return work.remove(at: index)
    }

    /// The next thing to issue while the gate is open: sends of what was read, the pass's listing, reads up to the
    /// concurrency limit, and a listing ahead of slow requests.
    private mutating func issue(generation: Int) -> Action? {
        if let index = work.firstIndex(where: { $0.state == .ready }) {
            work[index].state = .sending
            work[index].sentInGeneration = generation
            return .send(work[index].id, retried: work[index].retries > 0)
        }
        if let current = pass, current.needsListing, !listing, !current.kept {
            updatePass { $0.needsListing = false }
            listing = true
            return .list(limit: maxFilesPerFlush)
        }
        let busy = work.count(where: { $0.state != .queued })
        if busy < maxConcurrentUploads, let index = work.firstIndex(where: { $0.state == .queued }) {
            work[index].state = .reading
            return .read(work[index].id)
        }
        return listAheadOfSlowRequests()
    }

    /// When everything listed has been sent but some requests are still out and storage holds more, lists the
    /// next batches now instead of when the slowest request ends: a request that gets no answer is held until the
    /// transport's timeout (30 s by default), and the pass would list nothing meanwhile, leaving the other
    /// request slots idle (seen in a hostile-ingest trace). Batches already in the work are not listed twice.
    private mutating func listAheadOfSlowRequests() -> Action? {
        guard let current = pass, !listing, !current.needsListing, !current.kept, current.listedFull,
            !current.listedOnlyKnown
        else { return nil }
        let sending = work.count(where: { $0.state == .sending })
        guard sending > 0, sending < maxConcurrentUploads,
            !work.contains(where: { $0.state == .queued || $0.state == .reading || $0.state == .ready })
        else { return nil }
        updatePass { $0.listedFull = false }
        listing = true
        return .list(limit: maxFilesPerFlush)
    }

    private mutating func endPassIfDone(backlogDue: Bool) -> Action? {
        guard let current = pass, !listing, !current.needsListing, work.isEmpty else { return nil }
        if current.exhaustive, !current.kept, current.listedFull {
            updatePass {
                $0.needsListing = true
                $0.listedFull = false
            }
            return .listAgain
        }
        // The follow-up, if any, becomes the running pass.
        passes = followUp.map { .running($0, followUp: nil) } ?? .none
        // The count rule holds for what is already stored too: a backlog of flushAt events or more keeps
        // uploading while uploads make progress, instead of waiting for the next trigger.
        if pass == nil, current.progressed, !current.kept, backlogDue {
            passes = .running(Pass(exhaustive: false, waiters: []), followUp: nil)
        }
        return .passEnded(waiters: current.waiters, kept: current.kept, next: pass != nil)
    }

    private mutating func release(_ which: Release) -> Action? {
        let index: Int?
        switch which {
        case .held: index = work.firstIndex { $0.state == .ready }
        case .waiting: index = work.firstIndex { $0.state == .queued || $0.state == .ready }
        case .unsettled: index = work.firstIndex { $0.state != .removing }
        }
        if let index { return .released(work.remove(at: index), which) }
        switch which {
        case .held: work.removeAll { $0.state == .queued }
        case .waiting: break
        case .unsettled: work = []
        }
        return nil
    }
}
