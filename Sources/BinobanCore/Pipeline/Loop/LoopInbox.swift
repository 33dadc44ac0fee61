/// What reaches the pipeline loop from outside it, between two of its turns: upload answers, a shutdown's stop,
/// a purge request, and the intake's signal that work is waiting. Posting adds under one short lock and tells the
/// loop's thread; the loop takes everything at the start of a turn, and in the middle of one when a stop came. The intake's signal waits for the loop's window
/// (``LoopThread/signalWork()``); posts (upload answers, a stop, a purge) end any park (``LoopThread/wake()``).
final class LoopInbox<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    private struct Pending {
        var inputs: [PipelineInput<Instant>] = []
        var intakeSignalled = false
        /// A stop is among `inputs`.
        var holdsStop = false
    }

    private let pending = LockedValue(Pending())
    private let thread: LoopThread

    init(thread: LoopThread) {
        self.thread = thread
    }

    /// Adds an input for the loop's next turn and wakes it at once. Upload answers do not wait for a window: a
    /// backlog drains one round of requests per answer, and a 5 ms wait per round made a 100 000-event burst reach
    /// a separate-process ingest about 1.5 times later (Decision 0230).
    func post(_ input: PipelineInput<Instant>) {
        pending.withLock { pending in
            pending.inputs.append(input)
            if case .stop = input { pending.holdsStop = true }
        }
        thread.wake()
    }

    /// Whether a stop was posted and not taken yet: the loop takes it before its turn's next input (Decision 0235).
    var holdsStop: Bool { pending.withLock { $0.holdsStop } }

    /// The intake holds new work (its `onWork`, called once per drain): tells the loop, which takes it at once
    /// from an idle park and at the end of its window from a gathering one.
    func intakeHasWork() {
        pending.withLock { $0.intakeSignalled = true }
        thread.signalWork()
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
    func take(into taken: inout [PipelineInput<Instant>]) {
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
