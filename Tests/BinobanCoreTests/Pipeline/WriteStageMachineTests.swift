import Testing

@testable import BinobanCore

private typealias Ticket = EventIntake.FlushTicket

@Suite("Write stage machine: drains, chunks, holds and the flush tickets they carry")
struct WriteStageMachineTests {
    private let pump = WriteStageMachine.Input.pump(holdsWhenFull: false, whenFull: .refuse)

    /// A machine that took a drain of `events` events carrying `tickets` and asked for its first chunk.
    private func writing(events: Int = 3, tickets: [Ticket] = [Ticket(waiterID: 7)]) -> WriteStageMachine {
        var machine = WriteStageMachine()
        _ = machine.handle(.intakeHasWork)
        _ = machine.handle(pump)
        _ = machine.handle(.drained(eventCount: events, tickets: tickets, closed: false))
        _ = machine.handle(pump)
        return machine
    }

    @Test("A signal is taken as one drain; nothing is asked again until the next signal")
    func signalTakesOneDrain() {
        var machine = WriteStageMachine()
        #expect(machine.handle(pump) == nil)
        #expect(machine.isIdle)
        #expect(machine.handle(.intakeHasWork) == nil)
        #expect(!machine.isIdle)
        #expect(machine.handle(pump) == .takeDrain)
        #expect(machine.stage == .taking)
        #expect(machine.handle(pump) == nil)
        // A drain with no events hands its tickets over at once.
        let tickets = [Ticket(waiterID: 1), Ticket(waiterID: nil)]
        #expect(machine.handle(.drained(eventCount: 0, tickets: tickets, closed: false)) == .honour(tickets))
        #expect(machine.stage == .idle)
        #expect(machine.isIdle)
        #expect(machine.handle(pump) == nil)
    }

    @Test("A drain is written chunk by chunk with the behaviour asked for; its tickets are due after the last")
    func chunksThenTickets() {
        var machine = WriteStageMachine()
        _ = machine.handle(.intakeHasWork)
        _ = machine.handle(pump)
        let tickets = [Ticket(waiterID: 4)]
        #expect(machine.handle(.drained(eventCount: 5_000, tickets: tickets, closed: false)) == nil)
        #expect(machine.stage == .draining(tickets: tickets))
        #expect(machine.handle(.pump(holdsWhenFull: false, whenFull: .evictOldest)) == .write(.evictOldest))
        #expect(machine.stage == .writing(tickets: tickets))
        // One write at a time: nothing more until it is answered.
        #expect(machine.handle(pump) == nil)
        #expect(machine.handle(.written(moreInDrain: true, holdingRefused: false)) == nil)
        #expect(machine.handle(pump) == .write(.refuse))
        // A failed chunk lets the drain go on; the last chunk ends it and its tickets are due.
        #expect(machine.handle(.writeFailed(moreInDrain: true)) == nil)
        #expect(machine.handle(pump) == .write(.refuse))
        #expect(machine.handle(.written(moreInDrain: false, holdingRefused: false)) == .honour(tickets))
        #expect(machine.stage == .idle)
    }

    @Test("A drain without tickets ends with nothing to honour, written or failed")
    func noTicketsNoHonour() {
        var written = writing(tickets: [])
        #expect(written.handle(.written(moreInDrain: false, holdingRefused: false)) == nil)
        #expect(written.stage == .idle)
        var failed = writing(tickets: [])
        #expect(failed.handle(.writeFailed(moreInDrain: false)) == nil)
        #expect(failed.stage == .idle)
        var failedWithTickets = writing()
        #expect(failedWithTickets.handle(.writeFailed(moreInDrain: false)) == .honour([Ticket(waiterID: 7)]))
    }

    @Test("Tickets that arrive while a drain is held travel with it")
    func ticketsMergeWhileTaking() {
        var machine = writing(events: 1, tickets: [Ticket(waiterID: 1)])
        #expect(machine.handle(.written(moreInDrain: false, holdingRefused: false)) == .honour([Ticket(waiterID: 1)]))
        _ = machine.handle(.intakeHasWork)
        #expect(machine.handle(pump) == .takeDrain)
        let second = [Ticket(waiterID: 2)]
        #expect(machine.handle(.drained(eventCount: 2, tickets: second, closed: false)) == nil)
        #expect(machine.stage.tickets == second)
    }

    @Test("A held suffix asks to be served, waits for room, and is written again once room is freed")
    func holdWaitsForRoom() {
        var machine = writing()
        let tickets = [Ticket(waiterID: 7)]
        #expect(machine.handle(.written(moreInDrain: false, holdingRefused: true)) == .serveHold)
        #expect(machine.stage == .holding(tickets: tickets))
        #expect(!machine.isIdle)
        // Holding still applies: nothing is written, and a signal asks for the settings alone, once.
        let holding = WriteStageMachine.Input.pump(holdsWhenFull: true, whenFull: .refuse)
        #expect(machine.handle(holding) == nil)
        _ = machine.handle(.intakeHasWork)
        #expect(machine.handle(holding) == .takeSettings)
        #expect(machine.handle(holding) == nil)
        #expect(machine.stage == .holding(tickets: tickets))
        #expect(machine.handle(.roomFreed) == nil)
        #expect(machine.stage == .draining(tickets: tickets))
        #expect(machine.handle(holding) == .write(.refuse))
        // The signal taken as settings is still pending: the next drain is taken once this one is over.
        #expect(machine.handle(.written(moreInDrain: false, holdingRefused: false)) == .honour(tickets))
        #expect(machine.handle(holding) == .takeDrain)
    }

    @Test("A hold that no longer applies is written again at the next pump, evicting if asked")
    func holdEndsWhenHoldingStops() {
        var machine = writing()
        _ = machine.handle(.written(moreInDrain: false, holdingRefused: true))
        #expect(machine.handle(.pump(holdsWhenFull: false, whenFull: .evictOldest)) == .write(.evictOldest))
        #expect(machine.stage == .writing(tickets: [Ticket(waiterID: 7)]))
    }

    @Test("The tickets behind a hold are released once, with the outcome given; the events stay held")
    func releaseHeldTickets() {
        var machine = writing(tickets: [Ticket(waiterID: 7), Ticket(waiterID: nil)])
        _ = machine.handle(.written(moreInDrain: true, holdingRefused: true))
        #expect(
            machine.handle(.releaseHeldTickets(.paused))
                == .release([Ticket(waiterID: 7), Ticket(waiterID: nil)], .paused))
        #expect(machine.stage == .holding(tickets: []))
        #expect(machine.handle(.releaseHeldTickets(.keptForRetry)) == nil)
        // Without a hold there is nothing to release.
        var draining = writing()
        #expect(draining.handle(.releaseHeldTickets(.paused)) == nil)
        #expect(draining.stage == .writing(tickets: [Ticket(waiterID: 7)]))
        #expect(draining.handle(.roomFreed) == nil)
        #expect(draining.stage == .writing(tickets: [Ticket(waiterID: 7)]))
    }

    @Test("The stage is done once the intake closed and everything it held was handed over")
    func doneAfterClose() {
        var machine = WriteStageMachine()
        #expect(!machine.isDone)
        _ = machine.handle(.intakeHasWork)
        _ = machine.handle(pump)
        #expect(machine.handle(.drained(eventCount: 1, tickets: [], closed: true)) == nil)
        #expect(!machine.isDone)
        _ = machine.handle(pump)
        #expect(!machine.isDone)
        #expect(machine.handle(.written(moreInDrain: false, holdingRefused: false)) == nil)
        #expect(machine.isDone)
        // A later signal (the close itself) keeps it from being done until it is taken.
        _ = machine.handle(.intakeHasWork)
        #expect(!machine.isDone)
        #expect(machine.handle(pump) == .takeDrain)
        #expect(machine.handle(.drained(eventCount: 0, tickets: [], closed: false)) == nil)
        #expect(machine.isDone)
    }
}
