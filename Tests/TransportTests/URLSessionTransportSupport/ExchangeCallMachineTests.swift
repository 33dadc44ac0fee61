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
            case .startAttempt(let attempt): "start \(attempt)"
            case .stopAttempt(let attempt): "stop \(attempt)"
            case .resumeWithTheAnswerSoFar(let waiter, let attempt): "answer-so-far \(waiter) \(attempt)"
            case .resume(let waiter, .success(let answer)): "resume \(waiter) \(answer.statusCode)"
            case .resume(let waiter, .failure(let error)):
                if error is CancellationError {
                    "resume \(waiter) cancelled"
                } else if let failure = error as? URLSessionTransportFailure, case .urlError(let code) = failure.cause {
                    "resume \(waiter) \(code == .timedOut ? "timedOut" : code == .networkConnectionLost ? "lost" : "\(code)")"
                } else {
                    "resume \(waiter) \(error)"
                }
            }
        }
    }

    @Test("the first attempt starts when the caller waits, and its answer resumes the caller once")
    func answered() {
        var machine = Machine()
        #expect(names(machine.handle(.started("a"))) == ["start 1"])
        #expect(names(machine.handle(.receivedBody(attempt: 1, byteCount: 100))).isEmpty)
        #expect(names(machine.handle(.completed(attempt: 1, .success(Self.answer)))) == ["resume a 202"])
        #expect(machine.isFinished)
        #expect(names(machine.handle(.deadlinePassed)).isEmpty)
        #expect(names(machine.handle(.callerCancelled)).isEmpty)
    }

    @Test("a re-send libcurl asks for stops the attempt and starts a new one, once; then the request is lost")
    func resend() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        #expect(names(machine.handle(.resendRequested(attempt: 1))) == ["stop 1", "start 2"])
        // The stopped attempt's last words change nothing.
        let cancelled = URLSessionTransportFailure(.urlError(.cancelled))
        #expect(names(machine.handle(.completed(attempt: 1, .failure(cancelled)))).isEmpty)
        #expect(names(machine.handle(.receivedBody(attempt: 1, byteCount: 1_000_000))).isEmpty)
        #expect(names(machine.handle(.resendRequested(attempt: 2))) == ["stop 2", "resume a lost"])
    }

    @Test("the second attempt's answer is the answer")
    func resendAnswered() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        _ = machine.handle(.resendRequested(attempt: 1))
        #expect(names(machine.handle(.completed(attempt: 2, .success(Self.answer)))) == ["resume a 202"])
    }

    @Test("a cancellation before the wait resumes the caller at once and never starts an attempt")
    func cancelledBeforeTheWait() {
        var machine = Machine()
        #expect(names(machine.handle(.callerCancelled)).isEmpty)
        #expect(names(machine.handle(.started("a"))) == ["resume a cancelled"])
        #expect(names(machine.handle(.completed(attempt: 1, .success(Self.answer)))).isEmpty)
    }

    @Test("a cancellation while waiting stops the attempt and resumes the caller; the late completion is ignored")
    func cancelledWhileWaiting() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        #expect(names(machine.handle(.callerCancelled)) == ["stop 1", "resume a cancelled"])
        let cancelled = URLSessionTransportFailure(.urlError(.cancelled))
        #expect(names(machine.handle(.completed(attempt: 1, .failure(cancelled)))).isEmpty)
    }

    @Test("the deadline stops the attempt and fails the caller with timedOut")
    func deadline() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        #expect(names(machine.handle(.deadlinePassed)) == ["stop 1", "resume a timedOut"])
    }

    @Test(
        "a head without a short declared body is the answer: the caller gets it and the attempt stops at once",
        arguments: [nil, Machine.answerBodyLimit + 1, 2_000 * 1024 * 1024])
    func headIsTheAnswer(declaredBodyLength: Int?) {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        let head = Machine.Input.receivedHead(attempt: 1, Self.answer, declaredBodyLength: declaredBodyLength)
        #expect(names(machine.handle(head)) == ["stop 1", "resume a 202"])
        #expect(machine.isFinished)
        // The stopped task's body and completion change nothing.
        #expect(names(machine.handle(.receivedBody(attempt: 1, byteCount: 1_000_000))).isEmpty)
        let cancelled = URLSessionTransportFailure(.urlError(.cancelled))
        #expect(names(machine.handle(.completed(attempt: 1, .failure(cancelled)))).isEmpty)
    }

    @Test(
        "a short declared body is read to its end (the connection stays usable); its completion is the answer",
        arguments: [0, 17, Machine.answerBodyLimit])
    func shortBodyIsRead(declaredBodyLength: Int) {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        let head = Machine.Input.receivedHead(attempt: 1, Self.answer, declaredBodyLength: declaredBodyLength)
        #expect(names(machine.handle(head)).isEmpty)
        #expect(!machine.isFinished)
        #expect(names(machine.handle(.completed(attempt: 1, .success(Self.answer)))) == ["resume a 202"])
    }

    @Test("the head of a stopped attempt changes nothing")
    func headOfAStoppedAttempt() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        _ = machine.handle(.resendRequested(attempt: 1))
        #expect(names(machine.handle(.receivedHead(attempt: 1, Self.answer, declaredBodyLength: nil))).isEmpty)
        #expect(!machine.isFinished)
    }

    @Test("past 64 KiB of answer body the caller gets the answer so far and the attempt stops")
    func bodyLimit() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        _ = machine.handle(.receivedHead(attempt: 1, Self.answer, declaredBodyLength: 10))
        let limit = Machine.answerBodyLimit
        #expect(names(machine.handle(.receivedBody(attempt: 1, byteCount: limit - 1))).isEmpty)
        #expect(names(machine.handle(.receivedBody(attempt: 1, byteCount: 1))).isEmpty)
        #expect(names(machine.handle(.receivedBody(attempt: 1, byteCount: 1))) == ["stop 1", "answer-so-far a 1"])
        #expect(names(machine.handle(.receivedBody(attempt: 1, byteCount: 1))).isEmpty)
    }

    @Test("a second wait on one request resumes both callers instead of leaving either hanging")
    func secondWait() {
        var machine = Machine()
        _ = machine.handle(.started("a"))
        let actions = names(machine.handle(.started("b")))
        #expect(actions.first == "stop 1")
        #expect(actions.count == 3)
        #expect(names(machine.handle(.started("c"))).count == 1)
    }
}
