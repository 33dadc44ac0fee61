#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a driver is made of, gathered by the factory.
struct PipelineParts: Sendable {
    var intake: EventIntake
    var waiters: FlushWaiters
    var reporter: ErrorReporter
    var configuration: Configuration
    var validated: ValidatedConfiguration
    var requestBuilder: UploadRequestBuilder
    var keyValueStore: (any BinobanKeyValueStore)?
    /// Opens the storage, off the caller's thread. The fallback is the factory's decision.
    var openStorage: @Sendable () -> any BinobanEventStorage
    var instanceId: String
    /// Called once when the driver stops (releases the storage directory claim).
    var onStop: @Sendable () -> Void
}

/// The driver: owns the flush policy and upload machines, the clock, the storage and the transport, and
/// turns the machines' actions into I/O. Generic over the clock so tests use a manual one.
actor PipelineDriver<C: Clock>: PipelineControl where C.Duration == Duration {
    private let parts: PipelineParts
    private let clock: C
    private let gate = AsyncGate()
    private var policy: FlushPolicy<C.Instant>
    private var storage: (any BinobanEventStorage)?
    private var encoder: EventEncoder?
    private var started = false
    private var stopped = false
    private var writerTask: Task<Void, Never>?
    private var timerTask: Task<Void, Never>?
    private var uploadTask: Task<Void, Never>?
    private var scheduler = UploadScheduler()
    private var carriedResults: [UInt64: BinobanFlushResult] = [:]
    private var admission = WriteAdmission()
    /// Grows whenever an upload removes a batch, fails, or a round ends; a writer waiting for room rechecks then.
    private var uploadProgress: UInt64 = 0
    private var roomWaiter: CheckedContinuation<Void, Never>?

    /// Events handed to the writer per chunk.
    static var chunkSize: Int { 2048 }

    init(parts: PipelineParts, clock: C) {
        self.parts = parts
        self.clock = clock
        let settings = parts.intake.settings
        policy = FlushPolicy(
            enabled: settings.enabled, flushAt: settings.flushAt, flushInterval: settings.flushInterval)
    }

    // MARK: Lifecycle

    func start() async {
        guard !started, !stopped else { return }
        started = true
        storage = parts.openStorage()
        let context = parts.configuration.contextProvider.staticContext()
        let identity = parts.intake.identity
        encoder = EventEncoder(
            context: context,
            instanceId: parts.instanceId,
            deviceId: parts.configuration.collectDeviceId ? identity.deviceId : nil
        )
        writerTask = Task { await self.writerLoop() }
        perform(policy.handle(.started, at: clock.now))
    }

    func shutdown(deadline: Duration) async -> BinobanFlushResult {
        if stopped { return BinobanFlushResult(outcome: .interrupted) }
        if !started { await start() }
        let waiters = parts.waiters
        let intake = parts.intake
        let clock = self.clock
        let result = await withTaskGroup(of: BinobanFlushResult?.self) { group -> BinobanFlushResult in
            group.addTask {
                let id = waiters.makeID()
                return await waiters.wait(id: id) {
                    if !intake.requestFlush(waiterID: id) {
                        waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted))
                    }
                }
            }
            group.addTask {
                try? await clock.sleep(for: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? BinobanFlushResult(outcome: .interrupted)
        }
        await stop()
        return result
    }

    private func stop() async {
        guard !stopped else { return }
        stopped = true
        parts.intake.close()
        timerTask?.cancel()
        timerTask = nil
        uploadTask?.cancel()
        signalUploadProgress()
        await writerTask?.value
        writerTask = nil
        parts.waiters.resumeAll(with: BinobanFlushResult(outcome: .interrupted))
        parts.onStop()
    }

    // MARK: Writer

    private func writerLoop() async {
        var scratch: [UInt8] = []
        scratch.reserveCapacity(4096)
        var timestamps = TimestampFormatter()
        while true {
            var drain = await parts.intake.next()
            if let identity = drain.identityToPersist { persist(identity) }
            if drain.droppedEvents > 0 {
                parts.reporter.report(
                    .writeStageOverflow,
                    "\(drain.droppedEvents) events were dropped because the write stage was full (oldest first)"
                )
            }
            if let settings = drain.settings {
                if drain.pausedSinceLastDrain, settings.enabled {
                    // Paused and resumed before this drain: the machine sees the pause, so the resume uploads.
                    perform(
                        policy.handle(
                            .settingsChanged(
                                enabled: false,
                                flushAt: settings.flushAt,
                                flushInterval: settings.flushInterval
                            ),
                            at: clock.now
                        )
                    )
                }
                perform(
                    policy.handle(
                        .settingsChanged(
                            enabled: settings.enabled,
                            flushAt: settings.flushAt,
                            flushInterval: settings.flushInterval
                        ),
                        at: clock.now
                    )
                )
            }
            var start = drain.events.startIndex
            while start < drain.events.endIndex {
                let end = min(start + Self.chunkSize, drain.events.endIndex)
                await write(drain.events[start..<end], scratch: &scratch, timestamps: &timestamps)
                start = end
            }
            let buffer = drain.buffer
            drain.buffer = []
            parts.intake.recycle(buffer)
            if !drain.tickets.isEmpty { handle(drain.tickets) }
            if drain.closed { return }
        }
    }

    private func write(
        _ events: ArraySlice<PendingEvent>,
        scratch: inout [UInt8],
        timestamps: inout TimestampFormatter
    ) async {
        guard let encoder, let storage else { return }
        var encoded: [Data] = []
        encoded.reserveCapacity(events.count)
        for event in events {
            scratch.removeAll(keepingCapacity: true)
            encoder.encode(event, to: &scratch, timestamps: &timestamps)
            encoded.append(Data(scratch))
        }
        var remaining = encoded[...]
        while !remaining.isEmpty {
            let admitted = await admittedCount(of: remaining, in: storage)
            let part = admitted == encoded.count ? encoded : Array(remaining.prefix(admitted))
            guard await append(part, to: storage, unstored: remaining.count) else { return }
            remaining = remaining.dropFirst(admitted)
        }
    }

    /// Appends and reports what the storage refused or evicted; `false` (reported) when the storage failed.
    private func append(_ events: [Data], to storage: any BinobanEventStorage, unstored: Int) async -> Bool {
        await gate.acquire()
        let report: BinobanStorageWriteReport
        do {
            report = try await storage.append(events)
        } catch {
            gate.release()
            parts.reporter.report(.storage, "\(unstored) events could not be stored: \(error)")
            return false
        }
        gate.release()
        if report.rejectedOversizeEvents > 0 {
            parts.reporter.report(
                .oversizeEvent,
                "\(report.rejectedOversizeEvents) events were dropped: each encoded to "
                    + "\(parts.configuration.storageLimits.maxEventBytes) bytes or more"
            )
        }
        if report.evictedBatches > 0 {
            parts.reporter.report(
                .storageEviction,
                "\(report.evictedBatches) stored batches (\(report.evictedEvents) events) were dropped to respect "
                    + "the storage caps (oldest first)"
            )
        }
        if report.storedEvents > 0 { perform(policy.handle(.eventsStored(report.storedEvents), at: clock.now)) }
        return true
    }

    /// How many of `events`, from the first, to append now: what fits without evicting; when nothing fits,
    /// waits for uploads to free room while they work, or admits everything (evicting) during an outage. A
    /// storage that cannot tell takes everything at once.
    private func admittedCount(of events: ArraySlice<Data>, in storage: any BinobanEventStorage) async -> Int {
        guard let reporting = storage as? any BinobanRoomReportingStorage else { return events.count }
        let candidates = Array(events)
        while true {
            let seen = uploadProgress
            await gate.acquire()
            let fitting = await reporting.eventsFittingWithoutEviction(candidates)
            gate.release()
            if fitting > 0 { return min(fitting, candidates.count) }
            let uploadsPossible = policy.enabled && !stopped && parts.configuration.transport != nil
            guard admission.decide(hasRoom: false, uploadsPossible: uploadsPossible) == .uploadFirst else {
                return candidates.count
            }
            requestUpload(waiterIDs: [], exhaustive: false)
            // Every round ends with a signal, and stopping signals too, so a wait installed here always ends.
            if uploadProgress == seen {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    roomWaiter = continuation
                }
            }
        }
    }

    private func uploadMoved(_ input: WriteAdmission.Input) {
        admission.handle(input)
        signalUploadProgress()
    }

    private func signalUploadProgress() {
        uploadProgress &+= 1
        let waiter = roomWaiter
        roomWaiter = nil
        waiter?.resume()
    }

    private func persist(_ identity: IdentityState) {
        guard let store = parts.keyValueStore else { return }
        do {
            try store.save(identity.snapshot)
        } catch {
            parts.reporter.report(.keyValueStore, "the identity could not be saved: \(error)")
        }
    }

    private func handle(_ tickets: [EventIntake.FlushTicket]) {
        let waiterIDs = tickets.compactMap(\.waiterID)
        guard policy.enabled else {
            for id in waiterIDs { parts.waiters.resume(id, with: BinobanFlushResult(outcome: .paused)) }
            return
        }
        _ = policy.handle(.explicitFlush, at: clock.now)
        requestUpload(waiterIDs: waiterIDs, exhaustive: !waiterIDs.isEmpty)
    }

    // MARK: Timer

    private func perform(_ actions: [FlushPolicy<C.Instant>.Action]) {
        for action in actions {
            switch action {
            case .upload:
                requestUpload(waiterIDs: [], exhaustive: false)
            case .scheduleTimer(let deadline):
                guard !stopped else { continue }
                timerTask?.cancel()
                let clock = self.clock
                timerTask = Task {
                    do {
                        try await clock.sleep(until: deadline, tolerance: nil)
                    } catch {
                        return
                    }
                    self.timerFired(deadline: deadline)
                }
            case .cancelTimer:
                timerTask?.cancel()
                timerTask = nil
            }
        }
    }

    private func timerFired(deadline: C.Instant) {
        guard !stopped, policy.timerDeadline == deadline else { return }
        perform(policy.handle(.timerFired, at: clock.now))
    }

    // MARK: Upload

    /// Starts an upload round, or merges into the running round's single follow-up (coalescing).
    private func requestUpload(waiterIDs: [UInt64], exhaustive: Bool) {
        guard !stopped else {
            for id in waiterIDs { parts.waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted)) }
            return
        }
        guard let round = scheduler.request(waiterIDs: waiterIDs, exhaustive: exhaustive) else { return }
        uploadTask = Task { await self.uploadLoop(first: round) }
    }

    private func uploadLoop(first: UploadScheduler.Round) async {
        var round = first
        while true {
            let result = await uploadRound(exhaustive: round.exhaustive)
            for id in round.waiterIDs {
                var total = carriedResults.removeValue(forKey: id) ?? BinobanFlushResult(outcome: .completed)
                total.add(result)
                parts.waiters.resume(id, with: total)
            }
            // Waiters that arrived during this round also count what it uploaded; their own round follows.
            for id in scheduler.waitingForNextRound {
                carriedResults[id, default: BinobanFlushResult(outcome: .completed)].add(result)
            }
            if Task.isCancelled { break }
            guard let next = scheduler.roundFinished() else { break }
            round = next
        }
        uploadTask = nil
        signalUploadProgress()
        for id in scheduler.cancel() { parts.waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted)) }
        carriedResults = [:]
    }

    /// One flush: a pass of at most `maxFilesPerFlush` batches; an awaited flush repeats passes until nothing
    /// is left or a batch is kept after its retries.
    private func uploadRound(exhaustive: Bool) async -> BinobanFlushResult {
        var total = BinobanFlushResult(outcome: .completed)
        while true {
            let (pass, processed) = await uploadPass()
            total.add(pass)
            guard exhaustive, pass.outcome == .completed, processed >= parts.validated.maxFilesPerFlush,
                !Task.isCancelled
            else { break }
        }
        return total
    }

    private func uploadPass() async -> (BinobanFlushResult, Int) {
        guard let storage else { return (BinobanFlushResult(outcome: .interrupted), 0) }
        var result = BinobanFlushResult(outcome: .completed)
        await gate.acquire()
        let batches: [BinobanBatchID]
        do {
            try await storage.closeOpenBatch()
            batches = try await storage.finishedBatches(limit: parts.validated.maxFilesPerFlush)
        } catch {
            gate.release()
            uploadMoved(.uploadFailed)
            parts.reporter.report(.storage, "stored batches could not be listed: \(error)")
            return (BinobanFlushResult(outcome: .keptForRetry), 0)
        }
        gate.release()
        guard !batches.isEmpty else { return (result, 0) }
        guard let transport = parts.configuration.transport else {
            uploadMoved(.uploadFailed)
            parts.reporter.report(.transportMissing, MissingEventTransport().description)
            return (BinobanFlushResult(outcome: .keptForRetry), 0)
        }
        var machine = UploadPass(
            maxRetries: parts.validated.uploadMaxRetries,
            backoff: BackoffSchedule(
                baseMillis: parts.validated.backoffBaseMillis,
                factor: parts.validated.backoffFactor,
                maxMillis: parts.validated.backoffMaxMillis
            )
        )
        var processed = 0
        var eventCounts: [BinobanBatchID: Int] = [:]
        var pending = machine.handle(.start(batches))
        while !pending.isEmpty {
            let action = pending.removeFirst()
            switch action {
            case .send(let batch):
                if Task.isCancelled { return (with(result, .interrupted), processed) }
                await gate.acquire()
                let stored: BinobanStoredBatch
                do {
                    stored = try await storage.read(batch)
                } catch {
                    gate.release()
                    uploadMoved(.uploadFailed)
                    parts.reporter.report(.storage, "\(batch) could not be read and is skipped: \(error)")
                    return (with(result, .keptForRetry), processed)
                }
                gate.release()
                eventCounts[batch] = stored.eventCount
                let request = parts.requestBuilder.request(
                    for: stored,
                    sentAtMillis: parts.configuration.wallClock.currentMillisecondsSince1970()
                )
                let jitter = parts.configuration.randomSource.nextUnitInterval()
                do {
                    let response = try await transport.send(request)
                    let retryAfter = response.value(forHeader: "Retry-After").flatMap {
                        Double($0.trimmingWhitespace())
                    }
                    pending += machine.handle(
                        .response(statusCode: response.statusCode, retryAfterSeconds: retryAfter, jitter: jitter)
                    )
                } catch {
                    if Task.isCancelled { return (with(result, .interrupted), processed) }
                    parts.reporter.report(.uploadFailed, "\(batch) got no answer: \(error)")
                    pending += machine.handle(.noAnswer(jitter: jitter))
                }
            case .delete(let batch):
                processed += 1
                result.uploadedBatches += 1
                result.uploadedEvents += eventCounts[batch] ?? 0
                uploadMoved(await removeBatch(batch, from: storage) ? .batchRemoved : .uploadFailed)
            case .drop(let batch, let status):
                processed += 1
                result.rejectedBatches += 1
                result.rejectedEvents += eventCounts[batch] ?? 0
                parts.reporter.report(
                    .batchRejected,
                    "the server rejected \(batch) (\(eventCounts[batch] ?? 0) events) with status \(status); "
                        + "it was dropped"
                )
                uploadMoved(await removeBatch(batch, from: storage) ? .batchRemoved : .uploadFailed)
            case .wait(let milliseconds, _):
                // A transient failure: until a batch gets through, writes evict instead of waiting.
                uploadMoved(.uploadFailed)
                do {
                    try await clock.sleep(for: .milliseconds(milliseconds))
                } catch {
                    return (with(result, .interrupted), processed)
                }
                pending += machine.handle(.waited)
            case .keepAndStop(let batch, let status):
                let statusText = status.map { "status \($0)" } ?? "no answer"
                parts.reporter.report(
                    .uploadFailed,
                    "\(batch) still failed (\(statusText)) after \(parts.validated.uploadMaxRetries) retries; "
                        + "it is kept for a later flush"
                )
                uploadMoved(.uploadFailed)
                result.outcome = .keptForRetry
            case .finished:
                break
            }
        }
        return (result, processed)
    }

    /// Deletes a sent batch; `false` (reported) when the storage could not, which counts as a failing upload so
    /// that a waiting writer does not have the same batch sent again and again.
    private func removeBatch(_ batch: BinobanBatchID, from storage: any BinobanEventStorage) async -> Bool {
        await gate.acquire()
        defer { gate.release() }
        do {
            try await storage.remove(batch)
            return true
        } catch {
            parts.reporter.report(.storage, "\(batch) could not be deleted: \(error)")
            return false
        }
    }

    private func with(_ result: BinobanFlushResult, _ outcome: BinobanFlushResult.Outcome) -> BinobanFlushResult {
        var changed = result
        changed.outcome = outcome
        return changed
    }
}
