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
    /// The one timer: the machine's next deadline (the error reporter's summaries are among its deadlines).
    private var timer = DeadlineTimer<C>()
    private var outputs: PipelineOutputs
    private var inFlight = 0
    private var started = false
    private var finished = false
    private var waiters = DriverWaiters()

    init(parts: PipelineParts, clock: C) {
        self.parts = parts
        self.clock = clock
        machine = PipelineMachine(rules: parts.rules, settings: parts.intake.settings)
        outputs = PipelineOutputs(parts: parts)
    }

    /// Opens the storage and starts the machine; a caller arriving while another opens it waits for the opening.
    func start() async {
        guard !started else {
            if waiters.start != nil { await withCheckedContinuation { waiters.start?.append($0) } }
            return
        }
        started = true
        storage = await parts.worker.run { [open = parts.openStorage] in open() }
        buffer = WriteStageBuffer(for: parts)
        // Called on the host's thread, which must not wait for the actor: the signal hops over in a task of its
        // own. The intake signals once until the next drain, so these tasks do not pile up.
        parts.intake.setOnWork { Task { await self.feed(.intakeHasWork) } }
        feed(.started)
        waiters.opened()
    }

    func shutdown(deadline: Duration) async -> BinobanFlushResult {
        await start()
        let (waiters, intake, id) = (parts.waiters, parts.intake, parts.waiters.makeID())
        let stopAt = clock.now.advanced(by: deadline)
        // The ticket goes in before the intake closes, so the final flush covers every accepted event; the caller's
        // cancellation does not shorten it (a service is usually stopped from a cancelled task).
        let result = await waiters.waitIgnoringCancellation(id: id) {
            if !intake.requestFlush(waiterID: id) {
                waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted))
            }
            intake.close()
            // Run while the continuation is set up (the actor cannot be entered): the stop is the actor's next job.
            Task { self.feed(.stop(deadline: stopAt)) }
        }
        if !finished { await withCheckedContinuation { self.waiters.finish.append($0) } }
        return result
    }

    func purgeBacklog() async -> BinobanPurgeResult {
        await start()
        guard !finished else { return BinobanPurgeResult() }
        return await withCheckedContinuation { feed(.purgeRequested(waiter: waiters.addPurge($0))) }
    }

    func waitUntilQuiet() async {
        if !isQuiet { await withCheckedContinuation { waiters.quiet.append($0) } }
    }

    func timeUntilNextDeadline() async -> Duration? {
        timer.deadline.map { max(.zero, clock.now.duration(to: $0)) }
    }

    private var isQuiet: Bool {
        let timerDue = timer.deadline.map { clock.now >= $0 } ?? false
        return finished || (started && inFlight == 0 && machine.isQuiet && !parts.intake.hasWork && !timerDue)
    }

    /// Feeds one input, performs the actions it yields (feeding back their synchronous results), publishes the
    /// figures and re-arms the timer.
    private func feed(_ input: PipelineInput<C.Instant>) {
        guard !finished else { return }
        var inputs = [input]
        while !inputs.isEmpty {
            for action in machine.handle(inputs.removeFirst(), at: clock.now) {
                if let next = perform(action) { inputs.append(next) }
            }
            // Reports made since (by the machine or a facade call) may wait for a summary.
            if inputs.isEmpty, machine.summaryDeadline == nil, let wait = parts.reporter.timeUntilNextDeadline {
                inputs.append(.summaryPending(at: clock.now.advanced(by: wait)))
            }
        }
        outputs.publish(machine.statistics, oldestAge: machine.oldestQueuedAt.map { $0.duration(to: clock.now) })
        timer.set(finished ? nil : machine.nextDeadline, on: clock) { await self.timerFired($0) }
        if isQuiet { waiters.quietened() }
    }

    private func perform(_ action: PipelineAction) -> PipelineInput<C.Instant>? {
        switch action {
        case .takeDrain:
            if let drain = buffer?.take() { return .drained(drain) }
        case .takeSettings:
            let change = parts.intake.takeSettings()
            return .settingsTaken(change?.settings, pausedSinceLastDrain: change?.pausedSinceLastDrain ?? false)
        case .write(let whenFull):
            guard let events = buffer?.nextChunk() else { return nil }
            io { storage in
                await self.written(await PipelineCalls<C.Instant>.append(events, to: storage, whenFull: whenFull))
            }
            if let drops = buffer?.takeStageDrops(), !drops.isEmpty { return .stageDropped(drops) }
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
            io { [store = parts.keyValueStore] _ in await PipelineCalls.save(identity, to: store) }
        case .resume(let id, let result):
            parts.waiters.resume(id, with: result)
        case .purge(let excluding, let names):
            io { storage in await PipelineCalls.purge(storage, excluding: excluding, namesEvents: names) }
        case .resumePurges(let ids, let result):
            waiters.resumePurges(ids, with: result)
        case .report(let kind, let message, let eventCount, let file, let function, let line):
            parts.reporter.report(kind, message, eventCount: eventCount, file: file, function: function, line: line)
        case .deliver(let notice):
            outputs.deliveries.deliver(notice, held: held, buffer: buffer)
        case .nameEvents:
            buffer?.namesEvents = true
        case .deliverSummaries:
            parts.reporter.deliverDue()
        case .cancelUploads:
            for task in uploads.values { task.cancel() }
        case .finish:
            finish()
        }
        return nil
    }

    /// Runs one storage call in a task and feeds its result back. Nothing awaits the task: the driver counts it
    /// (`inFlight`) and the machine waits for its result before it finishes, except after the shutdown deadline,
    /// when the result is ignored (a storage call is not cancellable; it ends on the storage worker).
    private func io(_ body: @escaping @Sendable (any BinobanEventStorage) async -> PipelineInput<C.Instant>) {
        guard let storage else { return }
        inFlight += 1
        Task { self.complete(await body(storage)) }
    }

    private func complete(_ input: PipelineInput<C.Instant>) {
        inFlight -= 1
        if outputs.debugLog.isOn { outputs.debugLog.pipelineInput(input) }
        feed(input)
    }

    /// Tells the write stage what the append did, and the machine what it needs of that.
    private func written(
        _ result: Result<BinobanStorageWriteReport, BinobanStorageAppendFailure>
    ) -> PipelineInput<C.Instant> {
        let input: PipelineInput<C.Instant> =
            buffer?.written(result) ?? .writeFailed(lost: 0, moreInDrain: false, message: "the write stage is gone")
        if let placed = buffer?.takeAwaitedPlacements(), !placed.isEmpty { outputs.deliveries.placed(placed) }
        return input
    }

    /// Sends a held batch.
    private func send(_ id: BinobanBatchID) {
        guard let batch = held[id], let transport = parts.configuration.transport else { return }
        inFlight += 1
        if outputs.debugLog.isOn { outputs.debugLog.uploadStarted(batch) }
        // Owned by the driver: cancelled when the shutdown deadline passes or the driver finishes.
        uploads[id] = Task {
            let started = self.clock.now
            let answer = await PipelineCalls<C.Instant>.upload(batch, with: transport, parts: self.parts)
            self.outputs.metrics?.uploadFinished(answer, after: started.duration(to: self.clock.now))
            self.uploads[id] = nil
            self.complete(answer)
        }
    }

    private func hold(_ batch: BinobanStoredBatch) { held[batch.id] = batch }

    private func timerFired(_ deadline: C.Instant) {
        if timer.fired(deadline) { feed(.timerFired) }
    }

    private func finish() {
        finished = true
        timer.cancel()
        for task in uploads.values { task.cancel() }
        parts.stopped()
        parts.outcomeWaiters.stop()
        waiters.finished()
    }
}
