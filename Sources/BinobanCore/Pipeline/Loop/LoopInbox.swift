/// What reaches the pipeline loop from outside it, between two of its turns: upload answers, a shutdown's stop,
/// a purge request, and the intake's signal that work is waiting. Posting adds under one short lock and tells the
/// loop's thread; the loop takes everything at the start of a turn, and in the middle of one when a stop came. The
/// intake's signal waits for the loop's window (``LoopThread/signalWork()``); posts (upload answers, a stop, a
/// purge) end any park (``LoopThread/wake()``), but for an upload's answer that the loop, as it parked, said may
/// wait (``letAnswersWait(_:)``, Docs/Decisions/0223): it waits for the window like the intake's signal.
final class LoopInbox<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    private struct Pending {
        var inputs: [PipelineInput<Instant>] = []
        var intakeSignalled = false
        /// A stop is among `inputs`.
        var holdsStop = false
        /// Upload answers need not end the loop's park at once (set as the loop parks).
        var answersMayWait = false
    }

    private let pending = LockedValue(Pending())
    private let thread: LoopThread

    init(thread: LoopThread) {
        self.thread = thread
    }

    /// Adds an input for the loop's next turn and wakes it at once. Upload answers do not wait for a window while
    /// anything waits on them: a backlog drains one round of requests per answer, and a 5 ms wait per round made a
    /// 100 000-event burst reach a separate-process ingest about 1.5 times later (Decision 0230). When nothing
    /// does (``letAnswersWait(_:)``), an answer is taken with the next group of events, or one window after it came
    /// (Decision 0223): a wake-up per upload saved.
    func post(_ input: PipelineInput<Instant>) {
        let waits = pending.withLock { pending -> Bool in
            pending.inputs.append(input)
            switch input {
            case .stop:
                pending.holdsStop = true
                return false
            case .answered, .noAnswer:
                return pending.answersMayWait
            default:
                return false
            }
        }
        if waits { thread.signalWork() } else { thread.wake() }
    }

    /// Says whether an upload's answer posted from now on may wait for the loop's window instead of ending its park
    /// at once (the loop says it as it parks, from ``PipelineMachine/answersMayWait``; Decision 0223).
    func letAnswersWait(_ mayWait: Bool) {
        pending.withLock { $0.answersMayWait = mayWait }
    }

    /// Whether a stop was posted and not taken yet: the loop takes it before its turn's next input (Decision 0235).
    var holdsStop: Bool { pending.withLock { $0.holdsStop } }

    /// The intake holds new work (its `onWork`, called once per drain): tells the loop, which takes it at once
    /// from an idle park and at the end of its window from a gathering one.
    func intakeHasWork() {
        pending.withLock { $0.intakeSignalled = true }
        thread.signalWork()
    }

    /// The loop is about to take everything the intake holds (its drain): a signal the intake gave for that work
    /// while the turn ran must not end the next park, or the loop wakes a window later to find nothing (about one
    /// turn in sixteen at 200 events/s). Called before the intake is drained: work queued after the drain signals
    /// again, so no signal of work not taken is lost. A wake (``LoopThread/wake()``) stays, and so do posted inputs.
    func intakeWillBeDrained() {
        thread.withdrawSignals()
        pending.withLock { $0.intakeSignalled = false }
    }

    /// Whether anything waits for the loop's next turn.
    var holdsWork: Bool {
        pending.withLock { $0.intakeSignalled || !$0.inputs.isEmpty }
    }

    /// Whether the only thing waiting is the intake's signal (the loop may then gather more events first).
    var holdsOnlyIntakeWork: Bool {
        pending.withLock { $0.intakeSignalled && $0.inputs.isEmpty }
    }

    /// Takes everything posted since the last take: the intake's signal first (as `intakeHasWork`), then the
    /// inputs in the order they were posted.
    func take() -> [PipelineInput<Instant>] {
        var taken: [PipelineInput<Instant>] = []
        take(into: &taken)
        return taken
    }

    /// Takes like ``take()``, adding to `taken` (the loop's buffer, kept from turn to turn: no array per take).
    /// The thread's signals of work made so far are withdrawn first: what they announced is taken now (an answer
    /// that may wait, the intake's signal), and a stale one would end the next park a window later for nothing.
    func take(into taken: inout [PipelineInput<Instant>]) {
        thread.withdrawSignals()
        pending.withLock { pending in
            guard pending.intakeSignalled || !pending.inputs.isEmpty else { return }
            if pending.intakeSignalled { taken.append(.intakeHasWork) }
            taken += pending.inputs
            pending.inputs.removeAll(keepingCapacity: true)
            pending.intakeSignalled = false
            pending.holdsStop = false
        }
    }
}
