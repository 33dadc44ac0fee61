/// The flush policies as one pure machine: count (`flushAt`), interval (`flushInterval`) and explicit flushes.
///
/// No clock reads: the driver passes `now` and turns the returned actions into timers and uploads.
struct FlushPolicy<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    enum Reason: Sendable, Equatable {
        case startup
        case count
        case interval
        case explicit
        case resumed
    }

    enum Input: Sendable, Equatable {
        /// The pipeline started: upload what a previous run left, start the timer.
        case started
        /// Events reached storage.
        case eventsStored(Int)
        /// The interval timer fired.
        case timerFired
        /// A caller asked for a flush.
        case explicitFlush
        /// Runtime settings changed.
        case settingsChanged(enabled: Bool, flushAt: Int, flushInterval: Duration)
    }

    enum Action: Sendable, Equatable {
        case upload(Reason)
        case scheduleTimer(at: Instant)
        case cancelTimer
    }

    private(set) var enabled: Bool
    private(set) var flushAt: Int
    private(set) var flushInterval: Duration
    private(set) var storedSinceFlush = 0
    private(set) var timerDeadline: Instant?

    init(enabled: Bool, flushAt: Int, flushInterval: Duration) {
        self.enabled = enabled
        self.flushAt = flushAt
        self.flushInterval = flushInterval
    }

    mutating func handle(_ input: Input, at now: Instant) -> [Action] {
        switch input {
        case .started:
            guard enabled else { return [] }
            storedSinceFlush = 0
            return [.upload(.startup), schedule(from: now)]
        case .eventsStored(let count):
            guard enabled else { return [] }
            storedSinceFlush += count
            guard storedSinceFlush >= flushAt else { return [] }
            storedSinceFlush = 0
            return [.upload(.count)]
        case .timerFired:
            guard enabled else { return [] }
            storedSinceFlush = 0
            return [.upload(.interval), schedule(from: now)]
        case .explicitFlush:
            guard enabled else { return [] }
            storedSinceFlush = 0
            return [.upload(.explicit)]
        case .settingsChanged(let newEnabled, let newFlushAt, let newInterval):
            var actions: [Action] = []
            let wasEnabled = enabled
            let intervalChanged = newInterval != flushInterval
            enabled = newEnabled
            flushAt = newFlushAt
            flushInterval = newInterval
            if !newEnabled {
                if wasEnabled {
                    timerDeadline = nil
                    actions.append(.cancelTimer)
                }
                return actions
            }
            if !wasEnabled {
                storedSinceFlush = 0
                return [.upload(.resumed), schedule(from: now)]
            }
            if storedSinceFlush >= flushAt {
                storedSinceFlush = 0
                actions.append(.upload(.count))
            }
            if intervalChanged { actions.append(schedule(from: now)) }
            return actions
        }
    }

    private mutating func schedule(from now: Instant) -> Action {
        let deadline = now.advanced(by: flushInterval)
        timerDeadline = deadline
        return .scheduleTimer(at: deadline)
    }
}
