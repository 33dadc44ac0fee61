import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The life of one request sent through ``URLSessionExchange``: the caller waits once and is resumed exactly
/// once, by whichever comes first of the answer (its head, or its end when its body is short), the caller's
/// cancellation, the request's wall-clock deadline, an answer body past its limit, and a second re-send.
///
/// Rules:
/// - The caller is resumed once; every later input is ignored (URLSession reports the completion of a task the
///   exchange already stopped, and a deadline may fire after the answer).
/// - A request goes out in attempts, each a URLSession task; reports about an attempt that is not the current
///   one are ignored.
/// - When libcurl wants to send an attempt again (a kept connection turned out closed before any answer byte),
///   that attempt is stopped and the request starts over as a new attempt, once: FoundationNetworking cannot give
///   libcurl a `Data` body a second time, and the re-send would go out headers-only and wait for its whole
///   timeout (Docs/Decisions/0307). A second attempt that meets the same fails with `connectionLost`.
/// - A cancellation that arrives before the caller starts waiting is kept, and resumes the caller as soon as it
///   waits; no attempt starts.
/// - The answer's body is never used. Once the head is in, the caller gets it at once and the attempt is
///   stopped, unless the head declares a body of at most ``answerBodyLimit`` bytes that is not content-encoded:
///   such a body is let through, so that the connection can be kept, and the caller waits for its end
///   (Docs/Decisions/0313). FoundationNetworking reads and queues body bytes for the delegate as fast as they
///   arrive, so stopping when the head is in is what keeps an endless or huge answer out of memory.
/// - A body that is let through is counted, never kept: past ``answerBodyLimit`` bytes (a lying server, a
///   decoded body larger than its declared length) the caller gets the status and headers, and the attempt is
///   stopped.
/// - A deadline or a cancellation stops the attempt: nothing keeps running for a caller that has gone.
///
/// The machine does no I/O and reads no clock; ``ExchangeCall`` holds it under a lock and performs its actions.
package struct ExchangeCallMachine<Waiter> {
    /// The largest answer body that is read (to keep the connection) rather than cut off when the head is in, and
    /// the most body bytes counted before the answer is taken as complete: 64 KiB.
    package static var answerBodyLimit: Int { 64 * 1024 }
    /// How many attempts a request gets when libcurl wants to re-send one: the first and one more.
    package static var maxAttempts: Int { 2 }

    /// Where the request is.
    enum State {
        /// The caller has not started waiting yet.
        case notStarted
        /// The caller's cancellation came first; the caller is resumed the moment it waits.
        case cancelledBeforeStart
        /// Attempt `attempt` runs and the caller waits; `bodyBytes` of its answer's body have arrived.
        case waiting(Waiter, attempt: Int, bodyBytes: Int)
        /// The caller has been resumed.
        case finished
    }

    /// What happened to the request.
    package enum Input {
        /// The caller waits with `waiter`.
        case started(Waiter)
        /// The calling task was cancelled.
        case callerCancelled
        /// The head of `attempt`'s answer is in: its status and headers, and the length of its body when the head
        /// declares one that is not content-encoded (`nil`: unknown, chunked, read to the close, or encoded).
        case receivedHead(attempt: Int, URLSessionExchange.Answer, declaredBodyLength: Int?)
        /// `byteCount` more bytes of the answer's body arrived for `attempt`.
        case receivedBody(attempt: Int, byteCount: Int)
        /// libcurl wants to send `attempt` again from its first byte.
        case resendRequested(attempt: Int)
        /// URLSession finished `attempt`: the answer's status and headers, or why none arrived.
        case completed(attempt: Int, Result<URLSessionExchange.Answer, URLSessionTransportFailure>)
        /// The request's wall-clock deadline passed.
        case deadlinePassed
    }

    /// What the holder must do.
    package enum Action {
        /// Start `attempt`: a new URLSession task for the request.
        case startAttempt(Int)
        /// Stop `attempt`'s URLSession task.
        case stopAttempt(Int)
        /// Resume the caller with the answer or the error.
        case resume(Waiter, Result<URLSessionExchange.Answer, any Error>)
        /// Resume the caller with the status and headers `attempt` has received (its body is past the limit).
        case resumeWithTheAnswerSoFar(Waiter, attempt: Int)
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
            state = .waiting(waiter, attempt: 1, bodyBytes: 0)
            return [.startAttempt(1)]
        case (.cancelledBeforeStart, .started(let waiter)):
            state = .finished
            return [.resume(waiter, .failure(CancellationError()))]
        case (.notStarted, .callerCancelled):
            state = .cancelledBeforeStart
            return []
        case (.waiting(let waiter, let attempt, _), .callerCancelled):
            state = .finished
            return [.stopAttempt(attempt), .resume(waiter, .failure(CancellationError()))]
        case (.waiting(let waiter, let attempt, _), .receivedHead(let reported, let answer, let length))
        where reported == attempt:
            if answer.statusCode < 200 {
                // An interim answer (`100 Continue`) is not the answer; the final one follows.
                return []
            }
            if let length, length <= Self.answerBodyLimit {
                // A short body is read to its end: the connection stays usable for the next request.
                return []
            }
            state = .finished
            return [.stopAttempt(attempt), .resume(waiter, .success(answer))]
        case (.waiting(let waiter, let attempt, let bodyBytes), .receivedBody(let reported, let byteCount))
        where reported == attempt:
            let total = bodyBytes + byteCount
            guard total > Self.answerBodyLimit else {
                state = .waiting(waiter, attempt: attempt, bodyBytes: total)
                return []
            }
            state = .finished
            return [.stopAttempt(attempt), .resumeWithTheAnswerSoFar(waiter, attempt: attempt)]
        case (.waiting(let waiter, let attempt, _), .resendRequested(let reported)) where reported == attempt:
            guard attempt < Self.maxAttempts else {
                state = .finished
                let lost = URLSessionTransportFailure(.urlError(.networkConnectionLost))
                return [.stopAttempt(attempt), .resume(waiter, .failure(lost))]
            }
            state = .waiting(waiter, attempt: attempt + 1, bodyBytes: 0)
            return [.stopAttempt(attempt), .startAttempt(attempt + 1)]
        case (.waiting(let waiter, let attempt, _), .completed(let reported, let result)) where reported == attempt:
            state = .finished
            return [.resume(waiter, result.mapError { $0 })]
        case (.waiting(let waiter, let attempt, _), .deadlinePassed):
            state = .finished
            let timedOut = URLSessionTransportFailure(.urlError(.timedOut))
            return [.stopAttempt(attempt), .resume(waiter, .failure(timedOut))]
        case (.waiting, .receivedHead), (.waiting, .receivedBody), (.waiting, .resendRequested), (.waiting, .completed):
            // Reports about an attempt that was stopped: its task's last words.
            return []
        case (.waiting(let waiter, let attempt, _), .started(let second)):
            // One caller per request: a second wait is a programming error; both learn of it rather than hang.
            state = .finished
            let misuse = URLSessionTransportFailure(.otherError)
            return [.stopAttempt(attempt), .resume(waiter, .failure(misuse)), .resume(second, .failure(misuse))]
        case (.finished, .started(let waiter)):
            // A wait after the resumption is a programming error; the waiter learns of it rather than hang.
            return [.resume(waiter, .failure(URLSessionTransportFailure(.otherError)))]
        case (.finished, _), (.cancelledBeforeStart, .callerCancelled):
            // Reports that arrive after the caller was resumed: the task's completion after a stop, a deadline
            // after the answer, a second cancellation.
            return []
        case (.notStarted, .receivedHead), (.notStarted, .receivedBody), (.notStarted, .resendRequested),
            (.notStarted, .completed), (.notStarted, .deadlinePassed), (.cancelledBeforeStart, .receivedHead),
            (.cancelledBeforeStart, .receivedBody), (.cancelledBeforeStart, .resendRequested),
            (.cancelledBeforeStart, .completed), (.cancelledBeforeStart, .deadlinePassed):
            // No attempt starts before the caller waits, so none can report before then.
            return []
        }
    }
}
