/// The pipeline's driver: feeds inputs to the ``PipelineMachine`` and performs every action it returns, with
/// the storage, the transport, the clock and the key-value store. No rule lives here: each I/O result goes
/// back to the machine as an input. Generic over the clock so tests use a manual one.
actor PipelineDriver<C: Clock>: PipelineControl where C.Duration == Duration {
    private let parts: PipelineParts
    private let clock: C
    private var machine: PipelineMachine<C.Instant>
    private var storage: (any BinobanEventStorage)?
    private var buffer: WriteStageBuffer?
    /// Batches read for sending, and the requests in flight.
    private var held: [BinobanBatchID: BinobanStoredBatch] = [:]
    private var uploads: [BinobanBatchID: Task<Void, Never>] = [:]
    /// The one timer: the machine's next deadline, or the error reporter's next summary if sooner.
    private var timer = DeadlineTimer<C>()
    private var metrics: BinobanMetricsPublisher?
    /// The lines written while `Binoban.debugLogsEnabled` is on: each flush's batches, each upload and answer.
    private let debugLog: BinobanDebugLog
    private var summaryDeadline: C.Instant?
    private var inFlight = 0
    private var started = false
    /// Callers of `start()` that arrived while the first one was opening the storage; `nil` once it is open.
    private var startWaiters: [CheckedContinuation<Void, Never>]? = []
    private var finished = false
    private var quietWaiters: [CheckedContinuation<Void, Never>] = []
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    init(parts: PipelineParts, clock: C) {
        self.parts = parts
        self.clock = clock
        machine = PipelineMachine(rules: parts.rules, settings: parts.intake.settings)
        metrics = parts.configuration.metricsObserver.map(BinobanMetricsPublisher.init(observer:))
        debugLog = BinobanDebugLog(logHandler: parts.configuration.logHandler)
    }

    /// Opens the storage and starts the machine; a caller arriving while another opens it waits for the opening.
    func start() async {
        guard !started else {
            if startWaiters != nil { await withCheckedContinuation { startWaiters?.append($0) } }
            return
        }
        started = true
        let open = parts.openStorage
        storage = await parts.worker.run { open() }
        buffer = WriteStageBuffer(for: parts)
        parts.intake.setOnWork { Task { await self.feed(.intakeHasWork) } }
        feed(.started)
        for waiter in startWaiters ?? [] { waiter.resume() }
        startWaiters = nil
    }

    func shutdown(deadline: Duration) async -> BinobanFlushResult {
        await start()
        let (waiters, intake, id) = (parts.waiters, parts.intake, parts.waiters.makeID())
        let stopAt = clock.now.advanced(by: deadline)
        // The ticket goes in before the intake closes, so the final flush covers every accepted event. The caller's
        // cancellation neither skips nor shortens it: a service is usually stopped from a cancelled task, and the
        // machine resolves the ticket by the deadline at the latest.
        let result = await waiters.waitIgnoringCancellation(id: id) {
            if !intake.requestFlush(waiterID: id) {
                waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted))
            }
            intake.close()
            Task { self.feed(.stop(deadline: stopAt)) }
        }
        if !finished { await withCheckedContinuation { finishWaiters.append($0) } }
        return result
    }

    func waitUntilQuiet() async {
        if !isQuiet { await withCheckedContinuation { quietWaiters.append($0) } }
    }

    func timeUntilNextDeadline() async -> Duration? {
        timer.deadline.map { max(.zero, clock.now.duration(to: $0)) }
    }

    private var isQuiet: Bool {
        let now = clock.now
        return finished
            || (started && inFlight == 0 && machine.isQuiet && !parts.intake.hasWork
                && (timer.deadline.map { now < $0 } ?? true))
    }

    /// Feeds one input, performs the actions it yields (feeding back the synchronous results), and re-arms
    /// the timer.
    private func feed(_ input: PipelineInput<C.Instant>) {
        guard !finished else { return }
        var inputs = [input]
        while !inputs.isEmpty {
            for action in machine.handle(inputs.removeFirst(), at: clock.now) {
                if let next = perform(action) { inputs.append(next) }
            }
        }
        parts.statistics.withLock { $0 = machine.statistics }
        metrics?.publish(machine.statistics)
        armTimer()
        if isQuiet {
            for waiter in quietWaiters { waiter.resume() }
            quietWaiters = []
        }
    }

    private func perform(_ action: PipelineAction) -> PipelineInput<C.Instant>? {
        switch action {
        case .takeDrain:
            guard let drain = buffer?.take() else { return nil }
            return .drained(drain)
        case .write(let whenFull):
            guard let events = buffer?.nextChunk() else { return nil }
            io { storage in
                await self.written(await PipelineCalls<C.Instant>.append(events, to: storage, whenFull: whenFull))
            }
        case .discardRefused:
            buffer?.discardRefused()
        case .list(let limit):
            io { storage in await PipelineCalls.list(storage, limit: limit) }
        case .read(let id):
            io { storage in
                let (input, batch) = await PipelineCalls<C.Instant>.read(storage, id)
                if let batch { await self.hold(batch) }
                return input
            }
        case .send(let id):
            send(id)
        case .forget(let id):
            held[id] = nil
        case .remove(let id):
            held[id] = nil
            io { storage in await PipelineCalls.remove(storage, id) }
        case .saveIdentity(let identity):
            let store = parts.keyValueStore
            io { _ in await PipelineCalls.save(identity, to: store) }
        case .resume(let id, let result):
            parts.waiters.resume(id, with: result)
        case .report(let kind, let message, let eventCount, let file, let function, let line):
            parts.reporter.report(kind, message, eventCount: eventCount, file: file, function: function, line: line)
        case .cancelUploads:
            for task in uploads.values { task.cancel() }
        case .finish:
            finish()
        }
        return nil
    }

    /// Runs one storage call in a task and feeds its result back.
    private func io(_ body: @escaping @Sendable (any BinobanEventStorage) async -> PipelineInput<C.Instant>) {
        guard let storage else { return }
        inFlight += 1
        Task { self.complete(await body(storage)) }
    }

    private func complete(_ input: PipelineInput<C.Instant>) {
        inFlight -= 1
        if BinobanDebugLog.isEnabled { debugLog.pipelineInput(input) }
        feed(input)
    }

    /// Tells the write stage what the append did, and the machine what it needs of that.
    private func written(
        _ result: Result<BinobanStorageWriteReport, BinobanStorageAppendFailure>
    ) -> PipelineInput<C.Instant> {
        switch result {
        case .success(let report):
            let bytes = buffer?.stored(report) ?? 0
            // A refused suffix is the machine's to hold or drop: it is not "more in the drain".
            return .written(report, storedBytes: bytes, moreInDrain: buffer?.hasMoreAfterChunk ?? false)
        case .failure(let failure):
            let lost = buffer?.failed(storedBeforeFailure: failure.storedEventsBeforeFailure) ?? 0
            return .writeFailed(lost: lost, moreInDrain: buffer?.hasMore ?? false, message: "\(failure.error)")
        }
    }

    private func hold(_ batch: BinobanStoredBatch) {
        held[batch.id] = batch
    }

    /// Sends a held batch, stamping `sentAt` now.
    private func send(_ id: BinobanBatchID) {
        guard let batch = held[id], let transport = parts.configuration.transport else { return }
        let (wallClock, random) = (parts.configuration.wallClock, parts.configuration.randomSource)
        let request = parts.requestBuilder.request(for: batch, sentAtMillis: wallClock.currentMillisecondsSince1970())
        inFlight += 1
        if BinobanDebugLog.isEnabled { debugLog.uploadStarted(batch) }
        uploads[id] = Task {
            let started = self.clock.now
            let answer = await PipelineCalls<C.Instant>.upload(
                request, of: id, with: transport, wallClock: wallClock, random: random)
            self.metrics?.uploadFinished(answer, after: started.duration(to: self.clock.now))
            self.uploads[id] = nil
            self.complete(answer)
        }
    }

    private func armTimer() {
        if summaryDeadline == nil, let wait = parts.reporter.timeUntilNextDeadline {
            summaryDeadline = clock.now.advanced(by: wait)
        }
        let deadline = finished ? nil : [machine.nextDeadline, summaryDeadline].compactMap { $0 }.min()
        timer.set(deadline, on: clock) { await self.timerFired($0) }
    }

    private func timerFired(_ deadline: C.Instant) {
        guard timer.fired(deadline) else { return }
        if let summary = summaryDeadline, summary <= clock.now {
            summaryDeadline = nil
            parts.reporter.deliverDue()
        }
        feed(.timerFired)
    }

    private func finish() {
        finished = true
        timer.cancel()
        for task in uploads.values { task.cancel() }
        parts.reporter.deliverPending()
        parts.intake.removeOnWork()
        parts.onStop()
        for waiter in finishWaiters + quietWaiters { waiter.resume() }
        (finishWaiters, quietWaiters) = ([], [])
    }
}
