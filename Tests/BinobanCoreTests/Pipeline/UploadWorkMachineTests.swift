import Testing

@testable import BinobanCore

private let b1 = BinobanBatchID(sequence: 1)
private let b2 = BinobanBatchID(sequence: 2)
private let b3 = BinobanBatchID(sequence: 3)

@Suite("Upload work machine: batches read, sent and settled, passes and their follow-up, letting go")
struct UploadWorkMachineTests {
    private func machine(concurrent: Int = 2, files: Int = 2) -> UploadWorkMachine {
        UploadWorkMachine(namesEvents: false, maxConcurrentUploads: concurrent, maxFilesPerFlush: files)
    }

    /// Issues everything that can start now, as the composite does while the gate is open.
    private func issueAll(_ work: inout UploadWorkMachine, generation: Int = 0) -> [UploadWorkMachine.Action] {
        var issued: [UploadWorkMachine.Action] = []
        while let action = work.handle(.issue(generation: generation)) { issued.append(action) }
        return issued
    }

    @Test("A pass lists once, reads up to the concurrency limit, sends what was read, and ends once all settled")
    func onePassFromListingToRemoval() {
        var work = machine(concurrent: 2, files: 4)
        #expect(issueAll(&work).isEmpty)
        #expect(work.handle(.passRequested(exhaustive: false, waiters: [7])) == nil)
        #expect(work.waitsOnGate)
        #expect(issueAll(&work) == [.list(limit: 4)])
        #expect(work.listing && !work.isQuiet)
        // Fewer than asked for: nothing more is waiting, so nothing is listed ahead.
        #expect(work.handle(.listed([b1, b2, b3], full: false)) == nil)
        // Two reads at most; the third batch waits for a slot.
        #expect(issueAll(&work) == [.read(b1), .read(b2)])
        #expect(work.handle(.read(b1, eventCount: 4, bytes: 40)) == nil)
        #expect(issueAll(&work) == [.send(b1, retried: false)])
        #expect(work.handle(.endPassIfDone(backlogDue: false)) == nil)
        guard case .remove(let item)? = work.handle(.settle(b1)) else {
            Issue.record("a settled batch is deleted")
            return
        }
        #expect(item.id == b1 && item.eventCount == 4 && item.state == .removing)
        #expect(work.handle(.leave(b1)) == nil)
        #expect(issueAll(&work) == [.read(b3)])
        for id in [b2, b3] {
            _ = work.handle(.read(id, eventCount: 1, bytes: 10))
            _ = issueAll(&work)
            _ = work.handle(.settle(id))
            _ = work.handle(.leave(id))
        }
        #expect(work.isDone == false)
        #expect(work.handle(.endPassIfDone(backlogDue: false)) == .passEnded(waiters: [7], kept: false, next: false))
        #expect(work.isDone && work.passes == .none)
    }

    @Test("A request asked for while a pass runs merges into its one follow-up, which runs when the pass ends")
    func followUpMergesAndRuns() {
        var work = machine()
        _ = work.handle(.passRequested(exhaustive: false, waiters: [1]))
        _ = work.handle(.passRequested(exhaustive: true, waiters: [2]))
        _ = work.handle(.passRequested(exhaustive: false, waiters: [3]))
        guard case .running(let current, let followUp?) = work.passes else {
            Issue.record("no follow-up: \(work.passes)")
            return
        }
        #expect(current.waiters == [1] && followUp.waiters == [2, 3] && followUp.exhaustive)
        #expect(issueAll(&work) == [.list(limit: 2)])
        _ = work.handle(.listed([], full: false))
        #expect(work.handle(.endPassIfDone(backlogDue: true)) == .passEnded(waiters: [1], kept: false, next: true))
        #expect(work.pass?.waiters == [2, 3])
    }

    @Test("A full exhaustive pass lists again; one that made progress with a backlog left is followed by another")
    func exhaustiveAndBacklogPasses() {
        // One request at a time: no listing ahead of it.
        var work = machine(concurrent: 1, files: 1)
        _ = work.handle(.passRequested(exhaustive: true, waiters: [9]))
        _ = issueAll(&work)
        _ = work.handle(.listed([b1], full: true))
        _ = issueAll(&work)
        _ = work.handle(.read(b1, eventCount: 2, bytes: 20))
        _ = issueAll(&work)
        _ = work.handle(.settle(b1))
        _ = work.handle(.leave(b1))
        #expect(work.handle(.endPassIfDone(backlogDue: false)) == .listAgain)
        #expect(issueAll(&work) == [.list(limit: 1)])
        _ = work.handle(.listed([], full: false))
        // The pass progressed and the queue still holds flushAt events: another (plain) pass runs.
        #expect(work.handle(.endPassIfDone(backlogDue: true)) == .passEnded(waiters: [9], kept: false, next: true))
        #expect(work.pass?.exhaustive == false && work.pass?.waiters == [])
    }

    @Test("A failed request is retried from the gate, or kept and taken out of the work; retries are counted")
    func failuresRetryOrKeep() {
        var work = machine()
        _ = work.handle(.passRequested(exhaustive: false, waiters: []))
        _ = issueAll(&work)
        _ = work.handle(.listed([b1], full: false))
        _ = issueAll(&work)
        _ = work.handle(.read(b1, eventCount: 3, bytes: 30))
        #expect(issueAll(&work, generation: 4) == [.send(b1, retried: false)])
        #expect(work.item(b1)?.sentInGeneration == 4)
        #expect(work.handle(.failed(b1, .status(503), retrying: true)) == .retry(b1, .status(503)))
        #expect(work.item(b1)?.state == .ready && work.item(b1)?.retries == 1)
        #expect(issueAll(&work) == [.send(b1, retried: true)])
        guard case .kept(let item, .status(500))? = work.handle(.failed(b1, .status(500), retrying: false)) else {
            Issue.record("the batch is kept")
            return
        }
        #expect(item.retries == 2 && item.lastFailure == .status(500))
        #expect(work.work.isEmpty)
    }

    @Test("A batch evicted in flight is counted by its outcome; one only listed is gone at once")
    func evictionsWaitForTheOutcome() {
        var work = machine()
        _ = work.handle(.passRequested(exhaustive: false, waiters: []))
        _ = issueAll(&work)
        _ = work.handle(.listed([b1, b2, b3], full: false))
        #expect(issueAll(&work) == [.read(b1), .read(b2)])
        let listedOnly = work.gone(b3, events: 5)
        let unknown = work.gone(BinobanBatchID(sequence: 9), events: 1)
        let reading = work.gone(b1, events: 6)
        let readingToo = work.gone(b2, events: 7)
        #expect(listedOnly && unknown && !reading && !readingToo)
        #expect(work.item(b3) == nil && work.item(b1)?.evictedEvents == 6)
        #expect(work.handle(.vanished(b1)) == .vanishedEvicted(b1, events: 6))
        _ = work.handle(.read(b2, eventCount: 7, bytes: 70))
        _ = issueAll(&work)
        guard case .evictedInFlight(let item)? = work.handle(.failed(b2, .status(500), retrying: true)) else {
            Issue.record("an evicted batch's failure ends it")
            return
        }
        #expect(item.evictedEvents == 7 && work.work.isEmpty)
    }

    @Test("A kept pass releases what was read and held, one batch per call, then drops what was only listed")
    func keptPassReleasesHeldBatches() {
        var work = machine(concurrent: 2, files: 3)
        _ = work.handle(.passRequested(exhaustive: false, waiters: []))
        _ = issueAll(&work)
        _ = work.handle(.listed([b1, b2, b3], full: false))
        _ = issueAll(&work)
        _ = work.handle(.read(b1, eventCount: 1, bytes: 10))
        #expect(work.handle(.keepPass) == nil)
        // Read after the pass kept a batch: the pass stops.
        #expect(work.handle(.read(b2, eventCount: 1, bytes: 10)) == .stopPass)
        guard case .released(let first, .held)? = work.handle(.release(.held)),
            case .released(let second, .held)? = work.handle(.release(.held))
        else {
            Issue.record("both held batches are released")
            return
        }
        #expect([first.id, second.id] == [b1, b2])
        #expect(work.handle(.release(.held)) == nil)
        #expect(work.work.isEmpty)
        #expect(work.handle(.endPassIfDone(backlogDue: true)) == .passEnded(waiters: [], kept: true, next: false))
    }

    @Test("At the deadline the waiting batches leave; at the finish everything but deletions is let go")
    func deadlineLetsGo() {
        var work = machine(concurrent: 1, files: 3)
        _ = work.handle(.passRequested(exhaustive: false, waiters: [4]))
        _ = issueAll(&work)
        _ = work.handle(.listed([b1, b2, b3], full: false))
        #expect(issueAll(&work) == [.read(b1)])
        var released: [BinobanBatchID] = []
        while case .released(let item, .waiting)? = work.handle(.release(.waiting)) { released.append(item.id) }
        #expect(released == [b2, b3])
        #expect(work.work.map(\.id) == [b1])
        #expect(work.handle(.abandonPasses(.interrupted)) == .resume([4], .interrupted))
        #expect(work.passes == .none)
        guard case .released(let item, .unsettled)? = work.handle(.release(.unsettled)) else {
            Issue.record("the batch being read is let go")
            return
        }
        #expect(item.id == b1 && item.state == .reading)
        #expect(work.handle(.release(.unsettled)) == nil)
        #expect(work.isDone)
    }

    @Test("A gate held too long releases the waiters and the passes go on; an idle machine releases nobody")
    func releaseWaitersKeepsPasses() {
        var work = machine()
        #expect(work.handle(.releaseWaiters) == nil)
        _ = work.handle(.passRequested(exhaustive: true, waiters: [1]))
        _ = work.handle(.passRequested(exhaustive: true, waiters: [2]))
        #expect(work.handle(.releaseWaiters) == .releaseWaiters([1, 2]))
        guard case .running(let current, let followUp?) = work.passes else {
            Issue.record("the passes go on: \(work.passes)")
            return
        }
        #expect(current.waiters.isEmpty && followUp.waiters.isEmpty && followUp.exhaustive)
    }

    @Test("Events are named from the first awaited drain on, once; a listing ahead repeats only for new batches")
    func namingAndListingAhead() {
        var work = machine(concurrent: 2, files: 1)
        #expect(work.handle(.awaitedEventsDrained) == .nameEvents)
        #expect(work.handle(.awaitedEventsDrained) == nil)
        #expect(work.namesEvents)
        _ = work.handle(.passRequested(exhaustive: false, waiters: []))
        _ = issueAll(&work)
        _ = work.handle(.listed([b1], full: true))
        _ = issueAll(&work)
        _ = work.handle(.read(b1, eventCount: 1, bytes: 10))
        // Sent, a slot free and the listing was full: the next batches are listed ahead of the slow request.
        #expect(issueAll(&work) == [.send(b1, retried: false), .list(limit: 1)])
        _ = work.handle(.listed([b1], full: true))
        // Only the batch in flight again: no listing ahead until it leaves.
        #expect(issueAll(&work).isEmpty)
        _ = work.handle(.settle(b1))
        _ = work.handle(.leave(b1))
        #expect(work.handle(.listFailed) == nil)
        #expect(work.pass?.kept == true)
    }
}
