/// The write stage of ``PipelineMachine`` as a machine of its own: whether the intake holds work not taken yet,
/// where the current drain is (``WriteStage``, its flush tickets travelling in the cases), and whether the intake
/// closed.
///
/// It decides when a drain is taken, when the next chunk is written, when a held write asks for the intake's
/// settings alone, and when a drain's flush tickets are due. What a full storage does (hold or not, refuse or
/// evict), when room may have been freed and what a released ticket returns are the composite's to decide: they
/// come in with the inputs. Each input yields at most one action, returned as an optional (no array is built per
/// input); the composite performs every one (`PipelineMachine+WriteStage.swift`).
struct WriteStageMachine: Sendable, Equatable {
    /// What the write stage is told.
    enum Input: Sendable, Equatable {
        /// The intake signalled work: events, flush tickets, or a settings or identity change.
        case intakeHasWork
        /// The drain asked for arrived: `eventCount` events to write, with `tickets` honoured once they are all
        /// handed to storage; `closed` when the intake is closed for good.
        case drained(eventCount: Int, tickets: [EventIntake.FlushTicket], closed: Bool)
        /// The chunk being written was appended; `moreInDrain` when the drain holds more events.
        /// `holdingRefused`: the storage refused the chunk's suffix and the composite holds it until room is freed.
        case written(moreInDrain: Bool, holdingRefused: Bool)
        /// The chunk being written failed (its events are lost); `moreInDrain` as for `written`.
        case writeFailed(moreInDrain: Bool)
        /// Room may have been freed (a batch deleted, gone or evicted): a held suffix is written again.
        case roomFreed
        /// No upload can free room now: the tickets behind a held write end with `outcome`.
        case releaseHeldTickets(BinobanFlushResult.Outcome)
        /// The composite issues what can start now. `holdsWhenFull`: a full storage's refusal is held (else a
        /// held write goes again); `whenFull`: what the next append does when the storage is full.
        case pump(holdsWhenFull: Bool, whenFull: BinobanStorageFullBehaviour)
    }

    /// What the composite must do.
    enum Action: Sendable, Equatable {
        /// Take everything the intake holds (``PipelineAction/takeDrain``).
        case takeDrain
        /// Take the intake's settings change alone: the held write keeps the intake's events there
        /// (``PipelineAction/takeSettings``).
        case takeSettings
        /// Append the drain's next chunk (``PipelineAction/write(_:)``).
        case write(BinobanStorageFullBehaviour)
        /// Every event of the drain was handed to storage: its flush tickets are due.
        case honour([EventIntake.FlushTicket])
        /// The refused suffix is held: a pass must list after now, so that room is freed or the flushes behind
        /// the hold are told why not.
        case serveHold
        /// The flush tickets behind the hold end now with `outcome` (their events stay, written once room is freed).
        case release([EventIntake.FlushTicket], BinobanFlushResult.Outcome)
    }

    /// Where the current drain is.
    private(set) var stage: WriteStage = .idle
    /// The intake signalled work that was not taken yet.
    private var intakePending = false
    /// The intake signalled since the write was held: its settings may have changed (a pause or a resume), and
    /// a held write does not take the intake's events.
    private var settingsMayHaveChanged = false
    /// The intake is closed (shutdown): no more work will come.
    private var intakeClosed = false

    /// Whether nothing is held or asked for, and the intake signalled nothing since the last drain.
    var isIdle: Bool { stage == .idle && !intakePending }

    /// Whether a refused suffix is held for room and nothing else is asked: the intake's events wait behind it and
    /// its settings were taken.
    var waitsForRoom: Bool {
        guard case .holding = stage else { return false }
        return !settingsMayHaveChanged
    }

    /// Whether the intake closed and everything it held was handed to storage: the shutdown may finish.
    var isDone: Bool { intakeClosed && isIdle }

    /// Takes one input; returns what the composite must do, if anything.
    mutating func handle(_ input: Input) -> Action? {
        switch input {
        case .intakeHasWork:
            intakePending = true
            settingsMayHaveChanged = true
            return nil
        case .drained(let eventCount, let tickets, let closed):
            intakeClosed = intakeClosed || closed
            // A drain answers a `takeDrain`, asked only while no drain is held.
            let earlier = stage.tickets
            if eventCount > 0 {
                stage = .draining(tickets: earlier + tickets)
                return nil
            }
            stage = .idle
            return honouring(earlier + tickets)
        case .written(let moreInDrain, let holdingRefused):
            // The composite answers each write once, so the stage is `writing` here; its tickets are the drain's.
            let tickets = stage.tickets
            if holdingRefused {
                stage = .holding(tickets: tickets)
                return .serveHold
            }
            return finishedChunk(tickets, moreInDrain: moreInDrain)
        case .writeFailed(let moreInDrain):
            // The chunk's events are counted as lost: the drain goes on, or it is over and its flushes go on.
            return finishedChunk(stage.tickets, moreInDrain: moreInDrain)
        case .roomFreed:
            if case .holding(let tickets) = stage { stage = .draining(tickets: tickets) }
            return nil
        case .releaseHeldTickets(let outcome):
            guard case .holding(let tickets) = stage, !tickets.isEmpty else { return nil }
            stage = .holding(tickets: [])
            return .release(tickets, outcome)
        case .pump(let holdsWhenFull, let whenFull):
            return pump(holdsWhenFull: holdsWhenFull, whenFull: whenFull)
        }
    }

    /// The chunk being written is done with: the next one is due, or the drain is over and its tickets are.
    private mutating func finishedChunk(_ tickets: [EventIntake.FlushTicket], moreInDrain: Bool) -> Action? {
        if moreInDrain {
            stage = .draining(tickets: tickets)
            return nil
        }
        stage = .idle
        return honouring(tickets)
    }

    private func honouring(_ tickets: [EventIntake.FlushTicket]) -> Action? {
        tickets.isEmpty ? nil : .honour(tickets)
    }

    private mutating func pump(holdsWhenFull: Bool, whenFull: BinobanStorageFullBehaviour) -> Action? {
        // A held write goes again (evicting or refusing) once holding no longer applies.
        if case .holding(let tickets) = stage, !holdsWhenFull { stage = .draining(tickets: tickets) }
        switch stage {
        case .draining(let tickets):
            stage = .writing(tickets: tickets)
            return .write(whenFull)
        case .idle where intakePending:
            intakePending = false
            settingsMayHaveChanged = false
            stage = .taking
            return .takeDrain
        case .holding where settingsMayHaveChanged:
            // The held write keeps the intake's events there, but a pause or resume must not wait for room.
            settingsMayHaveChanged = false
            return .takeSettings
        case .idle, .taking, .writing, .holding:
            return nil
        }
    }
}
