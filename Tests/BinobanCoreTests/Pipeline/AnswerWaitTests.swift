import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

private let b1 = BinobanBatchID(sequence: 1)
private let b2 = BinobanBatchID(sequence: 2)

#if os(Linux)
private let isLinux = true
#else
private let isLinux = false
#endif

@Suite("An upload's answer waits for the loop's window only when nothing waits on it")
struct AnswerWaitTests {
    @Test("A count flush's one request in flight: its answer may wait; not before the request is sent")
    func countFlushAnswerMayWait() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        #expect(rig.write(2) == [.list(limit: 20)])
        // The listing and the read are the loop's own calls: nothing to answer yet.
        #expect(!rig.machine.answersMayWait)
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(!rig.machine.answersMayWait)
        #expect(rig.readAndSend(b1, events: 2) == [.send(b1)])
        #expect(rig.machine.answersMayWait)
        // One event more stays below flushAt once the request is answered: still nothing waits.
        #expect(rig.write(1) == [])
        #expect(rig.machine.answersMayWait)
        #expect(rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0)) == [.remove(b1)])
        #expect(!rig.machine.answersMayWait)
        #expect(rig.feed(.removed(b1)) == [])
    }

    @Test("An awaited flush waits on the answer: it comes at once")
    func awaitedFlushAnswerIsUrgent() {
        var rig = MachineRig(flushAt: 1000)
        rig.startEmpty()
        #expect(rig.write(1, tickets: [.init(waiterID: 7)]) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1) == [.send(b1)])
        #expect(!rig.machine.answersMayWait)
    }

    @Test("A backlog waits on the answer: a batch still to send, or flushAt events left queued")
    func backlogAnswerIsUrgent() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        #expect(rig.write(2) == [.list(limit: 20)])
        // Two batches listed, one request at a time: the second waits for the first's answer.
        #expect(rig.feed(.listed([b1, b2])) == [.read(b1)])
        let sent = rig.readAndSend(b1, events: 1)
        #expect(sent.contains(.send(b1)))
        #expect(!rig.machine.answersMayWait)

        // Alone in the work, but what stays queued after its answer starts another pass.
        var other = MachineRig(flushAt: 2)
        other.startEmpty()
        #expect(other.write(2) == [.list(limit: 20)])
        #expect(other.feed(.listed([b1])) == [.read(b1)])
        #expect(other.readAndSend(b1, events: 2) == [.send(b1)])
        #expect(other.write(1) == [])
        #expect(other.machine.answersMayWait)
        _ = other.write(1)
        #expect(!other.machine.answersMayWait)
    }

    @Test("Named events (a delivery observer, awaited outcomes) and a shutdown wait on the answer")
    func namedEventsAndShutdownAreUrgent() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        #expect(rig.write(2) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 2) == [.send(b1)])
        #expect(rig.machine.answersMayWait)
        var named = rig
        _ = named.feed(.stop(deadline: named.now.advanced(by: .seconds(5))))
        #expect(!named.machine.answersMayWait)
        named = rig
        _ = named.machine.uploads.handle(.awaitedEventsDrained)
        #expect(!named.machine.answersMayWait)
    }

    @Test("Where parks delay signals, an answer that may wait ends the park a window later; else at once")
    func inboxDefersAnswersItMayLetWait() throws {
        let thread = LoopThread(label: "test.loop")
        try #require(thread.delaysSignals || !isLinux)
        guard thread.delaysSignals else { return thread.stop() }
        let inbox = LoopInbox<PipelineInstant>(thread: thread)
        let clock = ContinuousClock()
        let hour = 3_600_000_000_000
        let answer = PipelineInput<PipelineInstant>.answered(b1, status: 200, retryAfter: nil, jitter: 0)
        // May wait: the answer posted before the park ends it one delay (here an hour) later, so at the deadline.
        inbox.letAnswersWait(true)
        var start = clock.now
        inbox.post(answer)
        thread.park(timeoutNanoseconds: 20_000_000, signalDelayNanoseconds: hour)
        #expect(clock.now >= start.advanced(by: .milliseconds(20)))
        let taken = inbox.take()
        #expect(taken.count == 1)
        if case .answered(b1, 200, _, _)? = taken.first {} else { Issue.record("not the answer: \(taken)") }
        // A stop never waits.
        inbox.post(.stop(deadline: PipelineInstant(offset: .seconds(1))))
        thread.park(timeoutNanoseconds: nil, signalDelayNanoseconds: hour)
        _ = inbox.take()
        // Must not wait: the answer ends an hour-long park at once.
        inbox.letAnswersWait(false)
        start = clock.now
        inbox.post(answer)
        thread.park(timeoutNanoseconds: hour, signalDelayNanoseconds: hour)
        #expect(clock.now < start.advanced(by: .seconds(3600)))
        thread.stop()
    }

    @Test("A signal of work withdrawn before the intake is drained does not end the next park")
    func withdrawnSignalDoesNotEndPark() throws {
        let thread = LoopThread(label: "test.loop")
        let inbox = LoopInbox<PipelineInstant>(thread: thread)
        let clock = ContinuousClock()
        // A signal during the turn, for work the turn then drains: the next park lasts until its deadline.
        inbox.intakeHasWork()
        inbox.intakeWillBeDrained()
        #expect(!inbox.holdsWork)
        var start = clock.now
        thread.park(until: start.advanced(by: .milliseconds(20)))
        #expect(clock.now >= start.advanced(by: .milliseconds(20)))
        // A wake is not withdrawn: the park ends at once.
        thread.wake()
        inbox.intakeWillBeDrained()
        start = clock.now
        thread.park(until: start.advanced(by: .seconds(3600)))
        #expect(clock.now < start.advanced(by: .seconds(3600)))
        // A signal after the drain (work that came later) ends the park as before.
        inbox.intakeHasWork()
        #expect(inbox.holdsWork)
        start = clock.now
        thread.park(until: start.advanced(by: .seconds(3600)))
        #expect(clock.now < start.advanced(by: .seconds(3600)))
        thread.stop()
    }
}
