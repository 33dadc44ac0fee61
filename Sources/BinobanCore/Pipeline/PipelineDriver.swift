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
    var rules: PipelineRules
    var requestBuilder: UploadRequestBuilder
    var keyValueStore: (any BinobanKeyValueStore)?
    /// Opens the storage (blocking I/O: run on the storage worker). The fallback is the factory's decision.
    var openStorage: @Sendable () -> any BinobanEventStorage
    var worker: StorageWorker
    var instanceId: String
    /// The statistics the facade reads, published after every step.
    var statistics: LockedValue<BinobanStatistics>
    /// Called once when the driver stops (releases the storage directory claim).
    var onStop: @Sendable () -> Void
}

/// The pipeline's driver: feeds inputs to the ``PipelineMachine`` and performs every action it returns, with
/// the storage, the transport, the clock and the key-value store. No rule lives here: each I/O result goes
/// back to the machine as an input. Generic over the clock so tests use a manual one.
actor PipelineDriver<C: Clock>: PipelineControl where C.Duration == Duration {
    private let parts: PipelineParts
    private let clock: C
    private var machine: PipelineMachine<C.Instant>
    private var storage: (any BinobanEventStorage)?
    private var encoder: EventEncoder?
    private var timestamps = TimestampFormatter()
    /// The events of the current drain, and how many of them were handed to storage.
    private var drain = EventIntake.Drain()
    private var written = 0
    /// The chunk being appended, or the suffix a full storage refused.
    private var chunk: [Data] = []
    /// Batches read for sending, and the requests in flight.
    private var held: [BinobanBatchID: BinobanStoredBatch] = [:]
    private var uploads: [BinobanBatchID: Task<Void, Never>] = [:]
    private var timer: (deadline: C.Instant, task: Task<Void, Never>)?
    /// Wakes the driver when the error reporter's window closes on suppressed reports, to deliver their summary.
    private var summaryTimer: (deadline: C.Instant, task: Task<Void, Never>)?
    private var inFlight = 0
    private var started = false
    private var finished = false
    private var quietWaiters: [CheckedContinuation<Void, Never>] = []
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Events encoded and handed to storage per append.
    static var chunkSize: Int { 2048 }

    init(parts: PipelineParts, clock: C) {
        self.parts = parts
        self.clock = clock
        machine = PipelineMachine(rules: parts.rules, settings: parts.intake.settings)
    }

    // MARK: Lifecycle

    func start() async {
        guard !started else { return }
        started = true
        let open = parts.openStorage
        storage = await parts.worker.run { open() }
        let identity = parts.intake.identity
        encoder = EventEncoder(
            context: parts.configuration.contextProvider.staticContext(), instanceId: parts.instanceId,
            deviceId: parts.configuration.collectDeviceId ? identity.deviceId : nil)
        parts.intake.setOnWork { Task { await self.feed(.intakeHasWork) } }
        feed(.started)
    }

    func shutdown(deadline: Duration) async -> BinobanFlushResult {
        if !started { await start() }
        let waiters = parts.waiters
        let id = waiters.makeID()
        let intake = parts.intake
        let stopAt = clock.now.advanced(by: deadline)
        // The ticket goes in before the intake closes, so the final flush covers every accepted event.
        let result = await waiters.wait(id: id) {
            if !intake.requestFlush(waiterID: id) { waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted)) }
            intake.close()
            Task { await self.feed(.stop(deadline: stopAt)) }
        }
        if !finished { await withCheckedContinuation { finishWaiters.append($0) } }
        return result
    }

    /// Returns once the pipeline has nothing to do but wait for time to pass or a call to arrive.
    func waitUntilQuiet() async {
        if isQuiet { return }
        await withCheckedContinuation { quietWaiters.append($0) }
    }

    private var isQuiet: Bool {
        finished
            || (started && inFlight == 0 && machine.isQuiet && !parts.intake.hasWork
                && (timer.map { clock.now < $0.deadline } ?? true)
                && (summaryTimer.map { clock.now < $0.deadline } ?? true))
    }

    // MARK: The loop

    /// Feeds one input, performs the actions it yields (feeding back the synchronous results), and re-arms
    /// the machine's timer.
    private func feed(_ input: PipelineInput<C.Instant>) {
        guard !finished else { return }
        var inputs = [input]
        while !inputs.isEmpty {
            for action in machine.handle(inputs.removeFirst(), at: clock.now) {
                if let next = perform(action) { inputs.append(next) }
            }
        }
        parts.statistics.withLock { $0 = machine.statistics }
        armTimer()
        armSummaryTimer()
        resumeQuietWaiters()
    }

    private func resumeQuietWaiters() {
        guard isQuiet else { return }
        for waiter in quietWaiters { waiter.resume() }
        quietWaiters = []
    }

    /// Feeds the result of an action performed in a task.
    private func complete(_ input: PipelineInput<C.Instant>) {
        inFlight -= 1
        feed(input)
    }

    private func perform(_ action: PipelineAction) -> PipelineInput<C.Instant>? {
        switch action {
        case .takeDrain:
            parts.intake.recycle(drain.buffer)
            drain = parts.intake.take()
            written = 0
            return .drained(drain.summary)
        case .write(let whenFull):
            if chunk.isEmpty { encodeNextChunk() }
            let events = chunk
            io { storage in
                do {
                    let report = try await storage.append(events, whenFull: whenFull)
                    return await self.appended(report)
                } catch {
                    return await self.appendFailed(error)
                }
            }
        case .discardRefused:
            chunk = []
        case .list(let limit):
            io { storage in
                do {
                    try await storage.closeOpenBatch()
                    return .listed(try await storage.finishedBatches(limit: limit))
                } catch {
                    return .listFailed("\(error)")
                }
            }
        case .read(let id):
            io { storage in
                do {
                    guard let batch = try await storage.read(id) else { return .vanished(id) }
                    return await self.hold(batch)
                } catch {
                    return .readFailed(id, "\(error)")
                }
            }
        case .send(let id):
            send(id)
        case .forget(let id):
            held[id] = nil
        case .remove(let id):
            held[id] = nil
            io { storage in
                do {
                    try await storage.remove(id)
                    return .removed(id)
                } catch {
                    return .removeFailed(id, "\(error)")
                }
            }
        case .saveIdentity(let identity):
            let store = parts.keyValueStore
            let worker = parts.worker
            io { _ in
                do {
                    try await worker.run { try store?.save(identity.snapshot) }
                    return .identitySaved(failure: nil)
                } catch {
                    return .identitySaved(failure: "\(error)")
                }
            }
        case .resume(let id, let result):
            parts.waiters.resume(id, with: result)
        case .report(let kind, let message, let eventCount):
            parts.reporter.report(kind, message, eventCount: eventCount)
        case .cancelUploads:
            for task in uploads.values { task.cancel() }
        case .finish:
            finish()
        }
        return nil
    }

    /// Runs one storage or transport call in a task and feeds its result back.
    private func io(_ body: @escaping @Sendable (any BinobanEventStorage) async -> PipelineInput<C.Instant>) {
        guard let storage else { return }
        inFlight += 1
        Task { self.complete(await body(storage)) }
    }

    private func encodeNextChunk() {
        guard let encoder else { return }
        let events = drain.events
        let start = events.startIndex + written
        let end = min(start + Self.chunkSize, events.endIndex)
        var scratch: [UInt8] = []
        scratch.reserveCapacity(4096)
        chunk.reserveCapacity(end - start)
        for event in events[start..<end] {
            scratch.removeAll(keepingCapacity: true)
            encoder.encode(event, to: &scratch, timestamps: &timestamps)
            chunk.append(Data(scratch))
        }
        written = end - events.startIndex
    }

    private var moreInDrain: Bool { !chunk.isEmpty || written < drain.events.count }

    private func appended(_ report: BinobanStorageWriteReport) -> PipelineInput<C.Instant> {
        let taken = chunk.count - report.refusedEvents
        let bytes = chunk.prefix(taken).reduce(0) { $0 + $1.count }
        chunk.removeFirst(taken)
        return .written(report, storedBytes: bytes, moreInDrain: moreInDrain)
    }

    private func appendFailed(_ error: any Error) -> PipelineInput<C.Instant> {
        let stored = (error as? BinobanFileStorageError)?.storedEventsBeforeFailure ?? 0
        let lost = max(0, chunk.count - stored)
        chunk = []
        return .writeFailed(lost: lost, moreInDrain: moreInDrain, message: "\(error)")
    }

    private func hold(_ batch: BinobanStoredBatch) -> PipelineInput<C.Instant> {
        held[batch.id] = batch
        return .read(batch.id, eventCount: batch.eventCount, bytes: batch.events.count)
    }

    private func send(_ id: BinobanBatchID) {
        guard let batch = held[id], let transport = parts.configuration.transport else { return }
        let configuration = parts.configuration
        let request = parts.requestBuilder.request(
            for: batch, sentAtMillis: configuration.wallClock.currentMillisecondsSince1970())
        inFlight += 1
        uploads[id] = Task {
            let answer: PipelineInput<C.Instant>
            do {
                let response = try await transport.send(request)
                let retryAfter = response.value(forHeader: "Retry-After").flatMap { RetryAfter.parse($0) }?
                    .delay(nowMillisSince1970: configuration.wallClock.currentMillisecondsSince1970())
                answer = .answered(
                    id, status: response.statusCode, retryAfter: retryAfter,
                    jitter: configuration.randomSource.nextUnitInterval())
            } catch {
                answer = .noAnswer(id, jitter: configuration.randomSource.nextUnitInterval())
            }
            self.uploadEnded(id, answer)
        }
    }

    private func uploadEnded(_ id: BinobanBatchID, _ answer: PipelineInput<C.Instant>) {
        uploads[id] = nil
        complete(answer)
    }

    // MARK: Time

    private func armTimer() {
        let deadline = finished ? nil : machine.nextDeadline
        guard deadline != timer?.deadline else { return }
        timer?.task.cancel()
        timer = nil
        guard let deadline else { return }
        let clock = self.clock
        timer = (
            deadline,
            Task {
                guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                self.timerFired(deadline)
            }
        )
    }

    private func armSummaryTimer() {
        guard summaryTimer == nil, !finished, let wait = parts.reporter.timeUntilNextDeadline else { return }
        let clock = self.clock
        let deadline = clock.now.advanced(by: wait)
        summaryTimer = (
            deadline,
            Task {
                guard (try? await clock.sleep(until: deadline, tolerance: nil)) != nil else { return }
                self.summaryDue()
            }
        )
    }

    private func summaryDue() {
        summaryTimer = nil
        parts.reporter.deliverDue()
        armSummaryTimer()
        resumeQuietWaiters()
    }

    private func timerFired(_ deadline: C.Instant) {
        guard timer?.deadline == deadline else { return }
        timer = nil
        feed(.timerFired)
    }

    private func finish() {
        finished = true
        timer?.task.cancel()
        timer = nil
        summaryTimer?.task.cancel()
        summaryTimer = nil
        for task in uploads.values { task.cancel() }
        parts.reporter.deliverPending()
        parts.onStop()
        for waiter in finishWaiters + quietWaiters { waiter.resume() }
        finishWaiters = []
        quietWaiters = []
    }
}
