/// The callers awaiting one event each (``BinobanServerEvents/awaitingDelivery``), by the event's message id.
///
/// A caller registers before it hands its event over, so an outcome that comes before the caller begins to wait
/// is kept for it. Each caller is resumed exactly once: with its event's outcome, `.unfinished` when the pipeline
/// stops first, or `.cancelled` when its task is cancelled. A message id given twice resolves its callers in the
/// order they registered, one per reported event.
final class EventOutcomeWaiters: Sendable {
    /// One registered caller.
    struct Token: Sendable, Equatable {
        fileprivate let number: UInt64
        let messageId: String
    }

    private enum Slot {
        /// Registered; the caller has not begun to wait.
        case registered
        /// The outcome came before the caller began to wait.
        case resolved(BinobanEventOutcome)
        case waiting(CheckedContinuation<BinobanEventOutcome, Never>)
    }

    private struct State {
        var nextNumber: UInt64 = 1
        var slots: [UInt64: Slot] = [:]
        /// The registered callers of each message id, oldest first.
        var byMessageId: [String: [UInt64]] = [:]
        var stopped = false

        /// Settles `number` with `outcome`; returns the continuation to resume, if the caller waits.
        mutating func settle(_ number: UInt64, _ outcome: BinobanEventOutcome)
            -> CheckedContinuation<BinobanEventOutcome, Never>?
        {
            switch slots[number] {
            case .registered:
                slots[number] = .resolved(outcome)
                return nil
            case .waiting(let continuation):
                slots[number] = nil
                return continuation
            case .resolved, nil:
                return nil
            }
        }

        mutating func unlist(_ token: Token) {
            guard var numbers = byMessageId[token.messageId] else { return }
            numbers.removeAll { $0 == token.number }
            byMessageId[token.messageId] = numbers.isEmpty ? nil : numbers
        }
    }

    private let state = LockedValue(State())
    /// A test kit's observers (``Binoban/observeAwaitedCalls(admitted:settled:)``): of each caller whose event the
    /// intake took or refused, and of every settled caller, each called synchronously where it happens.
    private struct Observers {
        var admitted: @Sendable () -> Void
        var settled: @Sendable (String, BinobanEventOutcome) -> Void
    }

    private let observers = LockedValue<Observers?>(nil)

    /// Installs the test kit's observers.
    func observe(
        admitted: @escaping @Sendable () -> Void, settled: @escaping @Sendable (String, BinobanEventOutcome) -> Void
    ) {
        observers.withLock { $0 = Observers(admitted: admitted, settled: settled) }
    }

    /// The intake has taken or refused a caller's event.
    func noteAdmission() { observers.withLock { $0 }?.admitted() }

    private func tell(_ settled: [(String, BinobanEventOutcome)]) {
        guard !settled.isEmpty, let observers = observers.withLock({ $0 }) else { return }
        for (messageId, outcome) in settled { observers.settled(messageId, outcome) }
    }

    /// Whether any caller waits (read before the ids of a report are looked up).
    var isEmpty: Bool { state.withLock { $0.byMessageId.isEmpty } }

    /// Whether a caller waits for an event with this message id.
    func awaits(_ messageId: String) -> Bool { state.withLock { $0.byMessageId[messageId] != nil } }

    /// Registers a caller for the event with `messageId`, before the event is handed over. After ``stop()`` the
    /// caller is settled as `.unfinished` at once (its event cannot be taken: the intake is closed by then).
    func register(_ messageId: String) -> Token {
        state.withLock { state in
            let token = Token(number: state.nextNumber, messageId: messageId)
            state.nextNumber += 1
            if state.stopped {
                state.slots[token.number] = .resolved(.unfinished)
            } else {
                state.slots[token.number] = .registered
                state.byMessageId[token.messageId, default: []].append(token.number)
            }
            return token
        }
    }

    /// Forgets a caller whose event was not handed over; `outcome` is what the caller is told.
    func withdraw(_ token: Token, settledAs outcome: BinobanEventOutcome) {
        state.withLock { state in
            state.unlist(token)
            state.slots[token.number] = nil
        }
        tell([(token.messageId, outcome)])
    }

    /// Waits for the outcome of the caller's event; `.cancelled` when the task is cancelled first.
    func wait(_ token: Token) async -> BinobanEventOutcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BinobanEventOutcome, Never>) in
                let ready = state.withLock { state -> BinobanEventOutcome? in
                    switch state.slots[token.number] {
                    case .resolved(let outcome):
                        state.slots[token.number] = nil
                        return outcome
                    case .registered:
                        state.slots[token.number] = .waiting(continuation)
                        return nil
                    case .waiting, nil:
                        // A token is waited for once; a second wait has nothing to wait for.
                        return .cancelled
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let (continuation, settled) = state.withLock { state in
                let listed = state.byMessageId[token.messageId]?.contains(token.number) == true
                state.unlist(token)
                return (state.settle(token.number, .cancelled), listed)
            }
            continuation?.resume(returning: .cancelled)
            if settled { tell([(token.messageId, .cancelled)]) }
        }
    }

    /// Settles the first registered caller of each id in `messageIds` (one per occurrence) with `outcome`.
    func resolve(_ messageIds: [String], with outcome: BinobanDeliveryOutcome) {
        guard !messageIds.isEmpty else { return }
        let (continuations, settled) = state.withLock {
            state -> ([CheckedContinuation<BinobanEventOutcome, Never>], [(String, BinobanEventOutcome)]) in
            guard !state.byMessageId.isEmpty else { return ([], []) }
            var ready: [CheckedContinuation<BinobanEventOutcome, Never>] = []
            var settled: [(String, BinobanEventOutcome)] = []
            for messageId in messageIds {
                guard var numbers = state.byMessageId[messageId] else { continue }
                let number = numbers.removeFirst()
                state.byMessageId[messageId] = numbers.isEmpty ? nil : numbers
                if let continuation = state.settle(number, .finished(outcome)) { ready.append(continuation) }
                settled.append((messageId, .finished(outcome)))
            }
            return (ready, settled)
        }
        for continuation in continuations { continuation.resume(returning: .finished(outcome)) }
        tell(settled)
    }

    /// The pipeline stopped: every caller still registered is settled as `.unfinished`, and so is any that
    /// registers later.
    func stop() {
        let (continuations, settled) = state.withLock {
            state -> ([CheckedContinuation<BinobanEventOutcome, Never>], [(String, BinobanEventOutcome)]) in
            state.stopped = true
            let waiting = state.byMessageId.flatMap { messageId, numbers in numbers.map { (messageId, $0) } }
            state.byMessageId = [:]
            return (
                waiting.compactMap { state.settle($0.1, .unfinished) },
                waiting.map { ($0.0, BinobanEventOutcome.unfinished) }
            )
        }
        for continuation in continuations { continuation.resume(returning: .unfinished) }
        tell(settled)
    }
}
