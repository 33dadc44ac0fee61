import Foundation
import Testing
import URLSessionTransportSupport

@Suite("ExchangeCallMachine")
struct ExchangeCallMachineTests {
    private typealias Machine = ExchangeCallMachine<String>
    private static let answer = URLSessionExchange.Answer(statusCode: 202, headers: ["X": "1"])

    /// The actions as text, so that a whole sequence is compared at once.
    private func names(_ actions: [Machine.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .startTask: "start"
            case .stopTask: "stop"
            case .resumeWithTheAnswerSoFar(let waiter): "answer-so-far \(waiter)"
            case .resume(let waiter, .success(let answer)): "resume \(waiter) \(answer.statusCode)"
            case .resume(let waiter, .failure(let error)):
                if error is CancellationError {
                    "resume \(waiter) cancelled"
                } else if let failure = error as? URLSessionTransportFailure, failure.cause == .urlError(.timedOut) {
                    "resume \(waiter) timedOut"
                } else {
                    "resume \(waiter) \(error)"
                }
            }
        }
    }

    @Test("the task starts when the caller waits, and its answer resumes the caller once")
    func answered() {
        var machine = Machine()
        #expect(names(machine.handle(.started("a"))) == ["start"])
        #expect(names(machine.handle(.receivedBody(byteCount: 100))).isEmpty)
        #expect(names(machine.handle(.completed(.success(Self.answer)))) == ["resume a 202"])
        #expect(machine.isFinished)
        #expect(names(machine.handle(.deadlinePassed)).isEmpty)
        #expect(names(machine.handle(.callerCancelled)).isEmpty)
    }

    @Test("a cancellation before the wait resumes the caller at once and never starts the task")
    func cancelledBeforeTheWait() {
        var machine = Machine()
        #expect(names(machine.handle(.callerCancelled)).isEmpty)
        #expect(names(machine.handle(.started("a"))) == ["stop", "resume a cancelled"])
        #expect(names(machine.handle(.completed(.success(Self.answer)))).isEmpty)
    }

    @Test("a cancellation while waiting stops the task and resumes the caller; the late completion is ignored")
    func cancelledWhileWaiting() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        #expect(names(machine.handle(.callerCancelled)) == ["stop", "resume a cancelled"])
        #expect(names(machine.handle(.completed(.failure(URLSessionTransportFailure(.urlError(.cancelled)))))).isEmpty)
    }

    @Test("the deadline stops the task and fails the caller with timedOut")
    func deadline() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        #expect(names(machine.handle(.deadlinePassed)) == ["stop", "resume a timedOut"])
    }

    @Test("past 64 KiB of answer body the caller gets the answer so far and the task stops")
    func bodyLimit() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        let limit = Machine.answerBodyLimit
        #expect(names(machine.handle(.receivedBody(byteCount: limit - 1))).isEmpty)
        #expect(names(machine.handle(.receivedBody(byteCount: 1))).isEmpty)
        #expect(names(machine.handle(.receivedBody(byteCount: 1))) == ["stop", "answer-so-far a"])
        #expect(names(machine.handle(.receivedBody(byteCount: 1))).isEmpty)
    }

    @Test("a second wait on one request resumes both callers instead of leaving either hanging")
    func secondWait() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        let actions = names(machine.handle(.started("b")))
        #expect(actions.first == "stop")
        #expect(actions.count == 3)
        #expect(names(machine.handle(.started("c"))).count == 1)
    }
}
