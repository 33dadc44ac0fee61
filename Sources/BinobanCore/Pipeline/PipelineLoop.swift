/// The pipeline's one loop: it owns the ``PipelineMachine``, the write stage and the storage, and performs every
/// action the machine returns. No rule lives here: each I/O result goes back to the machine as an input.
///
/// The loop runs on a thread of its own (``LoopThread``), which the default file storage shares, so storage calls
/// are made inline, in order, one at a time. Uploads are the only concurrent work: each runs in a task of its own
/// (started on the loop's thread, Docs/Decisions/0227) and posts its answer to the loop's ``LoopInbox``. Between
/// turns the loop waits on one thing: the thread's park, which ends on a post, on the intake's signal, or at the
/// machine's next deadline (the park's timeout on the real clocks; on any other clock, such as a test's manual
/// clock, a sleeping task wakes it). A turn takes everything pending. Figures are published when they changed. When events come one at a time the loop gathers a few
/// milliseconds of them into one turn, window after window while they keep coming (``LoopGathering``,
/// Docs/Decisions/0230).
actor PipelineLoop: PipelineControl {
    typealias Input = PipelineInput<PipelineInstant>

    private let parts: PipelineParts
    private let clock: PipelineClock
    /// The thread the loop and the default storage run on.
    nonisolated let thread: LoopThread
    nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }
    private let inbox: LoopInbox<PipelineInstant>
    /// What the control calls share with the loop, under a lock: they never enter the actor, so a parked loop
    /// (which blocks its thread) is never asked to run their jobs.
    private let control = LockedValue(LoopControl<PipelineInstant>())
    private var machine: PipelineMachine<PipelineInstant>
    private var storage: (any BinobanEventStorage)?
    private var buffer: WriteStageBuffer?
    /// Batches read for sending, and the requests in flight.
    private var held: [BinobanBatchID: BinobanStoredBatch] = [:]
    private var uploads: [BinobanBatchID: Task<Void, Never>] = [:]
    /// The deadline the loop waits for (the machine's next one), and the last one it acted on.
    private var deadline: PipelineInstant?
    private var firedDeadline: PipelineInstant?
    /// On a clock other than the real ones: a task sleeping until ``deadline`` that then wakes the thread.
    private var timer = DeadlineTimer()
    /// When the loop lets events gather before it takes them (real clocks only).
    private var gathering: LoopGathering
    /// The gathering window in nanoseconds, the signal delay of the loop's parks where the thread delays signals.
    private let windowNanoseconds: Int
    private var outputs: PipelineOutputs
    /// What was published last, to publish only changes.
    private var published: (statistics: BinobanStatistics, oldest: PipelineInstant?)?
    private var finished = false

    init(parts: PipelineParts, clock: PipelineClock) {
        self.parts = parts
        self.clock = clock
        thread = LoopThread(label: "binoban.loop.\(parts.instanceId)")
        inbox = LoopInbox(thread: thread)
        gathering = LoopGathering(delaysSignals: thread.delaysSignals)
        windowNanoseconds = LoopThread.nanoseconds(gathering.window)
        machine = PipelineMachine(rules: parts.rules, settings: parts.intake.settings)
        outputs = PipelineOutputs(parts: parts)
    }

    /// Turns taken so far (a test reads it to show an idle loop does not turn).
    nonisolated var turns: Int { control.withLock { $0.turns } }

    /// Starts the loop, which opens the storage; returns once it is open (a caller arriving meanwhile waits too).
    nonisolated func start() async {
        let launches = control.withLock { control -> Bool in
            defer { control.started = true }
            return !control.started
        }
        // The loop's one task, on this actor's thread, for the instance's life.
        if launches { Task { await self.run() } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let open = control.withLock { control -> Bool in
                guard control.waiters.start != nil else { return true }
                control.waiters.start?.append(continuation)
                return false
            }
            if open { continuation.resume() }
        }
    }

    nonisolated func shutdown(deadline: Duration, posted: @escaping @Sendable () -> Void) async -> BinobanFlushResult {
        await start()
        let (waiters, intake, inbox, id) = (parts.waiters, parts.intake, inbox, parts.waiters.makeID())
        let statistics = parts.statistics
        let stopAt = clock.now().advanced(by: deadline)
        // The ticket goes in before the intake closes, so the final flush covers every accepted event; the caller's
        // cancellation does not shorten it (a service is usually stopped from a cancelled task).
        // The stop is posted first: whichever turn takes the final flush's ticket has seen it, so a deadline that
        // has passed starts no request (Decision 0235).
        let result = await waiters.waitIgnoringCancellation(id: id) {
            inbox.post(.stop(deadline: stopAt))
            if !intake.requestFlush(waiterID: id, baseline: FlushResults.Baseline(publishedIn: statistics)) {
                waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted))
            }
            intake.close()
            posted()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = control.withLock { control -> Bool in
                if !control.finished { control.waiters.finish.append(continuation) }
                return control.finished
            }
            if done { continuation.resume() }
        }
        return result
    }

    nonisolated func purgeBacklog(requested: @escaping @Sendable () -> Void) async -> BinobanPurgeResult {
        await start()
        return await withCheckedContinuation { (continuation: CheckedContinuation<BinobanPurgeResult, Never>) in
            let waiter = control.withLock { $0.finished ? nil : $0.waiters.addPurge(continuation) }
            guard let waiter else {
                requested()
                return continuation.resume(returning: BinobanPurgeResult())
            }
            inbox.post(.purgeRequested(waiter: waiter))
            requested()
        }
    }

    nonisolated func waitUntilQuiet() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = control.withLock { control -> Bool in
                if !control.finished { control.waiters.quiet.append(continuation) }
                return control.finished
            }
            // The loop looks at its quiet waiters each time it parks: a wake makes it park again now.
            if done { continuation.resume() } else { thread.wake() }
        }
    }

    nonisolated func timeUntilNextDeadline() async -> Duration? {
        control.withLock { $0.deadline }.map { max(.zero, clock.now().duration(to: $0)) }
    }

    /// Whether the pipeline has nothing to do but wait (asked as the loop parks).
    private var isQuiet: Bool {
        let due = deadline.map { clock.now() >= $0 && $0 != firedDeadline } ?? false
        return finished
            || (uploads.isEmpty && machine.isQuiet && (!parts.intake.hasWork || machine.leavesIntakeEventsWaiting)
                && !due && !inbox.holdsWork)
    }

    // MARK: The loop

    private func run() async {
        let opened = parts.openStorage(thread)
        storage = opened.storage
        buffer = WriteStageBuffer(for: parts, storageTakesSlices: opened.takesSlices)
        // Called on the host's thread: a flag and, when the loop may be asleep, a signal. The intake calls it once
        // per drain, however many events come.
        parts.intake.setOnWork { [inbox] in inbox.intakeHasWork() }
        // What earlier runs left is counted from the first moment the figures are read.
        var first: [Input] = [.storageFound(events: opened.foundEvents, bytes: opened.foundBytes), .started]
        await turn(&first)
        publish()
        control.withLock { $0.waiters.opened() }
        // One buffer for every turn's inputs: a turn allocates no array of its own.
        var inputs: [Input] = []
        while !finished {
            inputs.removeAll(keepingCapacity: true)
            inbox.take(into: &inputs)
            if let deadline, deadline != firedDeadline, clock.now() >= deadline {
                firedDeadline = deadline
                inputs.append(.timerFired)
            }
            if inputs.isEmpty {
                park()
                continue
            }
            await turn(&inputs)
        }
        thread.stop()
    }

    /// Publishes what changed, arms the deadline, settles the quiet waiters, and waits for the next thing to do.
    private func park() {
        publish()
        deadline = finished ? nil : Self.nextDeadline(of: &machine)
        // An upload's answer that only its batch's deletion waits for is taken with the next events (Decision 0223).
        inbox.letAnswersWait(!finished && Self.answersMayWait(in: &machine))
        let waitedFor = control.withLock { control -> Bool in
            control.deadline = deadline
            return !control.waiters.quiet.isEmpty
        }
        // Asked only when someone waits (a waiter that comes later wakes the loop, which parks again and asks).
        if waitedFor, isQuiet { control.withLock { $0.waiters.quietened() } }
        guard clock.realTime else {
            timer.set(deadline, on: clock) { [thread] in thread.wake() }
            thread.park(until: nil)
            return
        }
        // The deadline is the park's timeout; a park with a signal delay ends one window after the intake's first
        // signal, and a gathering park at its window or the deadline, if sooner.
        if gathering.delaysSignals {
            // Every park is an idle one with the window as its signal delay (but after a burst), timed in plain
            // nanoseconds: no clock instant of the standard library on the loop's usual path.
            let timeout = deadline.map { LoopThread.nanoseconds(clock.now().duration(to: $0)) }
            let delay = gathering.parkDelaysSignals() ? windowNanoseconds : nil
            thread.park(timeoutNanoseconds: timeout, signalDelayNanoseconds: delay)
            return
        }
        let until = deadline.map { clock.continuousInstant(of: $0) }
        // Where the thread waits on a condition variable: parks that hold signals gather instead.
        let plan = gathering.park(now: .now, deadline: until)
        thread.park(until: plan.until, holdingSignals: plan.holdsSignals)
        // Woken by the intake alone from an idle park: gather what comes in the next window into the same turn (the
        // intake does not signal again until it is drained, and a gathering park holds its signals, so callers pay
        // no wake-up meanwhile).
        guard !plan.holdsSignals else { return }
        let byIntakeAlone = machine.writeStage == .idle && inbox.holdsOnlyIntakeWork
        if let gather = gathering.wokeFromIdle(now: .now, deadline: until, byIntakeAlone: byIntakeAlone) {
            thread.park(until: gather.until, holdingSignals: true)
        }
    }

    /// The machine's next deadline, read where the machine is. Read as `machine.nextDeadline` from the actor's
    /// stored property, the compiler copied the whole machine (about 850 bytes, with a retain and a release of
    /// every buffer it holds) at every park; an `inout` access reads it in place.
    private static func nextDeadline(of machine: inout PipelineMachine<PipelineInstant>) -> PipelineInstant? {
        machine.nextDeadline
    }

    /// Whether upload answers may wait (``PipelineMachine/answersMayWait``), read in place like ``nextDeadline(of:)``.
    private static func answersMayWait(in machine: inout PipelineMachine<PipelineInstant>) -> Bool {
        machine.answersMayWait
    }

    /// Feeds inputs to the machine and performs the actions each yields, feeding their results back, until
    /// nothing follows.
    private func turn(_ inputs: inout [Input]) async {
        control.withLock { $0.turns += 1 }
        if case .intakeHasWork = inputs.first {
            gathering.turnBegan(withIntakeWork: true)
        }
        var next = 0
        while next < inputs.count, !finished {
            // A stop posted during the turn goes to the machine before the next input (with what was posted before
            // it, in order): a turn can make many storage calls, and a shutdown whose deadline has passed must not
            // wait for the turn's end to stop the requests the machine would issue. The machine lists an input's
            // requests before its storage calls, so none starts after a call the stop came during (Decision 0235).
            if inbox.holdsStop { inputs.insert(contentsOf: inbox.take(), at: next) }
            // Moved out, not copied: a copy retains every buffer the input holds (a drain's events, a report's
            // arrays) and releases them again; the slot keeps a payload-free input until the buffer is emptied.
            var input = Input.timerFired
            swap(&input, &inputs[next])
            next += 1
            if case .answered(let id, _, _, _) = input { uploads[id] = nil }
            if case .noAnswer(let id, _, _) = input { uploads[id] = nil }
            for action in machine.handle(input, at: clock.now()) {
                await perform(action, into: &inputs)
            }
            // Reports made since (by the machine or a facade call) may wait for a summary.
            if next == inputs.count, !finished, machine.summaryDeadline == nil,
                let wait = parts.reporter.timeUntilNextDeadline
            {
                inputs.append(.summaryPending(at: clock.now().advanced(by: wait)))
            }
        }
    }

    private func publish() {
        let snapshot = machine.statistics
        let oldest = machine.oldestQueuedAt
        if let published, published.statistics == snapshot, published.oldest == oldest { return }
        published = (snapshot, oldest)
        outputs.publish(snapshot, oldestAge: oldest.map { $0.duration(to: clock.now()) })
    }

    /// Performs one action; what an I/O call returned is added to `inputs`, for the machine.
    private func perform(_ action: PipelineAction, into inputs: inout [Input]) async {
        switch action {
        case .takeDrain:
            inbox.intakeWillBeDrained()
            if let drain = buffer?.take() {
                gathering.drained(events: drain.eventCount)
                inputs.append(.drained(drain))
            }
        case .takeSettings:
            let change = parts.intake.takeSettings()
            inputs.append(.settingsTaken(change?.settings, pausedSinceLastDrain: change?.pausedSinceLastDrain ?? false))
        case .write(let whenFull):
            guard let storage, let events = buffer?.nextChunk() else { return }
            // The stages ran while the chunk was encoded: their drops are counted before the append's report.
            let drops = buffer?.takeStageDrops() ?? []
            // Given away: the chunk's buffer is then the write stage's alone again when the result comes, and is
            // emptied in place instead of copied.
            let result = await PipelineCalls<PipelineInstant>.append(consume events, to: storage, whenFull: whenFull)
            if !drops.isEmpty { inputs.append(.stageDropped(drops)) }
            inputs.append(logged(written(result)))
        case .discardRefused:
            buffer?.discardRefused()
        case .list(let limit):
            guard let storage else { return }
            let result = logged(await PipelineCalls.list(storage, limit: limit))
            inputs.append(result)
        case .read(let id):
            guard let storage else { return }
            let (input, batch) = await PipelineCalls<PipelineInstant>.read(
                storage, id, expiringBefore: parts.expiryCutoffMillis())
            if let batch { held[batch.id] = batch }
            inputs.append(logged(input))
        case .send(let id):
            send(id)
        case .forget(let id):
            held[id] = nil
        case .remove(let id):
            held[id] = nil
            guard let storage else { return }
            let result = logged(await PipelineCalls.remove(storage, id))
            inputs.append(result)
        case .saveIdentity(let identity):
            let result = logged(await PipelineCalls.save(identity, to: parts.keyValueStore))
            inputs.append(result)
        case .resume(let id, let result):
            // The figures first: a caller reads `statistics` as soon as its flush returns.
            publish()
            parts.waiters.resume(id, with: result)
        case .purge(let excluding, let names):
            guard let storage else { return }
            // Only the batches this run did not store are read back for their ids (a previous run's).
            let readBack = names ? outputs.deliveries.readsBack : { _ in false }
            let result = logged(await PipelineCalls.purge(storage, excluding: excluding, readingBackIdsOf: readBack))
            inputs.append(result)
        case .resumePurges(let ids, let result):
            publish()
            control.withLock { $0.waiters.resumePurges(ids, with: result) }
        case .report(let kind, let message, let eventCount, let file, let function, let line):
            parts.reporter.report(kind, message, eventCount: eventCount, file: file, function: function, line: line)
        case .reportNoAnswer(let message, let failure, let file, let function, let line):
            parts.reporter.report(
                .uploadFailed, message, transportFailure: failure, file: file, function: function, line: line)
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
    }

    /// An I/O call's result, written to the debug log when it is on. Taken, not borrowed: handed on without a copy.
    private func logged(_ input: consuming Input) -> Input {
        if outputs.debugLog.isOn { outputs.debugLog.pipelineInput(input) }
        return input
    }

    /// Tells the write stage what the append did, and the machine what it needs of that.
    private func written(
        _ result: Result<BinobanStorageWriteReport, BinobanStorageAppendFailure>
    ) -> Input {
        let input: Input =
            buffer?.written(result) ?? .writeFailed(lost: 0, moreInDrain: false, message: "the write stage is gone")
        if let placed = buffer?.takePlacedRuns(), !placed.isEmpty { outputs.deliveries.placed(placed) }
        return input
    }

    /// Sends a held batch in a task of its own; the answer comes back through the inbox. The task starts at once on
    /// the loop's thread and runs there until the transport first suspends (building and compressing the body,
    /// handing the request over), then on the shared pool: a task enqueued on the pool cost a pool thread's wake
    /// per upload (Docs/Decisions/0227). Where `Task.immediate` is missing (Apple systems before 26), a detached
    /// task.
    private func send(_ id: BinobanBatchID) {
        guard let batch = held[id], let transport = parts.configuration.transport else { return }
        if outputs.debugLog.isOn { outputs.debugLog.uploadStarted(batch) }
        let (inbox, clock, parts, metrics, debugLog) = (inbox, clock, parts, outputs.metrics, outputs.debugLog)
        // Owned by the loop: cancelled when the shutdown deadline passes or the loop finishes.
        let upload: @Sendable () async -> Void = {
            let started = clock.now()
            let answer = await PipelineCalls<PipelineInstant>.upload(batch, with: transport, parts: parts)
            metrics?.uploadFinished(answer, after: started.duration(to: clock.now()))
            if debugLog.isOn { debugLog.pipelineInput(answer) }
            inbox.post(answer)
        }
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            uploads[id] = Task.immediate { @concurrent in await upload() }
        } else {
            uploads[id] = Task.detached { await upload() }
        }
    }

    private func finish() {
        finished = true
        deadline = nil
        timer.cancel()
        for task in uploads.values { task.cancel() }
        publish()
        parts.stopped()
        parts.outcomeWaiters.stop()
        control.withLock { control in
            control.finished = true
            control.deadline = nil
            control.waiters.finished()
        }
    }
}
