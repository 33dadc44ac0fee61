/// ``PipelineMachine``'s settings changes (pause, resume, flush triggers) and flush requests: what the triggers
/// ask for (``FlushTriggerMachine``), starting a pass or merging into the running pass's follow-up, and the results
/// awaited flushes return (``FlushResults``).
extension PipelineMachine {
    // MARK: Settings and flush requests

    mutating func change(to new: EventIntake.Settings, at now: Instant, _ actions: inout [PipelineAction]) {
        let old = settings
        settings = new
        guard lifetime.isRunning else { return }
        if !new.enabled {
            guard old.enabled else { return }
            timers.stopInterval()
            abandonPasses(.paused, &actions)
            resolveTicketsBehindHold(.paused, &actions)
            perform(uploads.handle(.dropListed), &actions)
            return
        }
        if !old.enabled {
            perform(flushes.handle(.resumed), &actions)
            timers.armInterval(at: now, every: new.flushInterval)
            return
        }
        perform(flushes.handle(.flushAtApplied(new.flushAt)), &actions)
        if new.flushInterval != old.flushInterval { timers.armInterval(at: now, every: new.flushInterval) }
    }

    mutating func honour(_ tickets: [EventIntake.FlushTicket], _ actions: inout [PipelineAction]) {
        perform(flushes.handle(.ticketsDue(tickets)), &actions)
    }

    /// Counts `events` just stored toward `flushAt`.
    mutating func countStored(_ events: Int, _ actions: inout [PipelineAction]) {
        let stored = FlushTriggerMachine.Input.stored(
            events: events, flushAt: settings.flushAt, enabled: settings.enabled)
        perform(flushes.handle(stored), &actions)
    }

    /// Performs what the flush triggers asked for (``FlushTriggerMachine/Action``).
    mutating func perform(_ action: FlushTriggerMachine.Action?, _ actions: inout [PipelineAction]) {
        switch action {
        case nil:
            break
        case .requestPass(let exhaustive, let waiters):
            request(exhaustive: exhaustive, waiters: waiters, &actions)
        }
    }

    /// Starts a pass, or merges into the running pass's single follow-up.
    mutating func request(exhaustive: Bool, waiters: [UInt64], _ actions: inout [PipelineAction]) {
        guard settings.enabled else {
            for waiter in waiters {
                actions.append(.resume(waiter, result(for: waiter, base: .init(outcome: .paused))))
            }
            return
        }
        guard rules.hasTransport else {
            actions.append(.report(.transportMissing, MissingEventTransport().description, eventCount: 0))
            for waiter in waiters {
                actions.append(.resume(waiter, result(for: waiter, base: .init(outcome: .keptForRetry))))
            }
            return
        }
        for waiter in waiters { flushResults.registerIfAbsent(waiter, at: statistics) }
        perform(uploads.handle(.passRequested(exhaustive: exhaustive, waiters: waiters)), &actions)
    }

    /// An awaited flush's result (``FlushResults``).
    mutating func result(for waiter: UInt64, base: BinobanFlushResult) -> BinobanFlushResult {
        flushResults.result(for: waiter, base: base, at: statistics)
    }
}
