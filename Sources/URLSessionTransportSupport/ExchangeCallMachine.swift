import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The life of one request sent through ``URLSessionExchange``: the caller waits once and is resumed exactly
/// once, by whichever comes first of the answer, the caller's cancellation, the request's wall-clock deadline
/// and an answer body past its limit.
///
/// Rules:
/// - The caller is resumed once; every later input is ignored (URLSession reports the completion of a task the
///   exchange already stopped, and a deadline may fire after the answer).
/// - A cancellation that arrives before the caller starts waiting is kept, and resumes the caller as soon as it
///   waits; the task is stopped before it sends anything.
/// - The answer's body is never used, so it is counted, not kept: past ``answerBodyLimit`` bytes the caller
///   gets the status and headers that arrived, and the task is stopped (an endless or huge body costs nothing).
/// - A deadline or a cancellation stops the task: nothing keeps running for a caller that has gone.
///
/// The machine does no I/O and reads no clock; ``ExchangeCall`` holds it under a lock and performs its actions.
package struct ExchangeCallMachine<Waiter> {
    /// How many bytes of an answer's body are read before the answer is taken as complete: 64 KiB.
    package static var answerBodyLimit: Int { 64 * 1024 }

    /// Where the request is.
    enum State {
        /// The caller has not started waiting yet.
        case notStarted
        /// The caller's cancellation came first; the caller is resumed the moment it waits.
        case cancelledBeforeStart
        /// The task runs and the caller waits; `bodyBytes` of the answer's body have arrived.
        case waiting(Waiter, bodyBytes: Int)
        /// The caller has been resumed.
        case finished
    }

    /// What happened to the request.
    package enum Input {
        /// The caller waits with `waiter`.
        case started(Waiter)
        /// The calling task was cancelled.
        case callerCancelled
        /// `byteCount` more bytes of the answer's body arrived.
        case receivedBody(byteCount: Int)
        /// URLSession finished the task: the answer's status and headers, or why none arrived.
        case completed(Result<URLSessionExchange.Answer, URLSessionTransportFailure>)
        /// The request's wall-clock deadline passed.
        case deadlinePassed
    }

    /// What the holder must do.
    package enum Action {
        /// Resume the caller with the answer or the error.
        case resume(Waiter, Result<URLSessionExchange.Answer, any Error>)
        /// Resume the caller with the status and headers that arrived (the body is past its limit).
        case resumeWithTheAnswerSoFar(Waiter)
        /// Stop the URLSession task.
        case stopTask
        /// Start the URLSession task.
        case startTask
    }

    private var state = State.notStarted

    /// Creates the machine of a request that has not started.
    package init() {}

    /// Whether the caller has been resumed.
    package var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Takes one input and returns what to do, in order.
    package mutating func handle(_ input: Input) -> [Action] {
        switch (state, input) {
        case (.notStarted, .started(let waiter)):
            state = .waiting(waiter, bodyBytes: 0)
            return [.startTask]
        case (.cancelledBeforeStart, .started(let waiter)):
            state = .finished
            return [.stopTask, .resume(waiter, .failure(CancellationError()))]
        case (.notStarted, .callerCancelled):
            state = .cancelledBeforeStart
            return []
        case (.waiting(let waiter, _), .callerCancelled):
            state = .finished
            return [.stopTask, .resume(waiter, .failure(CancellationError()))]
        case (.waiting(let waiter, let bodyBytes), .receivedBody(let byteCount)):
            let total = bodyBytes + byteCount
            guard total > Self.answerBodyLimit else {
                state = .waiting(waiter, bodyBytes: total)
                return []
            }
            state = .finished
            return [.stopTask, .resumeWithTheAnswerSoFar(waiter)]
        case (.waiting(let waiter, _), .completed(let result)):
            state = .finished
            return [.resume(waiter, result.mapError { $0 })]
        case (.waiting(let waiter, _), .deadlinePassed):
            state = .finished
            return [.stopTask, .resume(waiter, .failure(URLSessionTransportFailure(.urlError(.timedOut))))]
        case (.finished, .started(let waiter)):
            // A wait after the resumption is a programming error; the waiter learns of it rather than hang.
            return [.resume(waiter, .failure(URLSessionTransportFailure(.otherError)))]
        case (.finished, _), (.cancelledBeforeStart, .callerCancelled):
            // Reports that arrive after the caller was resumed: the task's completion after a stop, a deadline
            // after the answer, a second cancellation.
            return []
        case (.notStarted, .receivedBody), (.notStarted, .completed), (.notStarted, .deadlinePassed),
            (.cancelledBeforeStart, .receivedBody), (.cancelledBeforeStart, .completed),
            (.cancelledBeforeStart, .deadlinePassed):
            // The task starts only once the caller waits, so it cannot report before then.
            return []
        case (.waiting(let waiter, _), .started(let second)):
            // One caller per request: a second wait is a programming error; both learn of it rather than hang.
            state = .finished
            let misuse = URLSessionTransportFailure(.otherError)
            return [.stopTask, .resume(waiter, .failure(misuse)), .resume(second, .failure(misuse))]
        }
    }
}
