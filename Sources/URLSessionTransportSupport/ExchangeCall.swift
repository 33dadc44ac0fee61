import Foundation
import SDKCoreCommon

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request in flight through ``URLSessionExchange``: the request, the URLSession task of each attempt, the
/// wall-clock deadline, and the ``ExchangeCallMachine`` under a lock. It performs the machine's actions and
/// nothing else.
final class ExchangeCall: Sendable {
    typealias Waiter = CheckedContinuation<URLSessionExchange.Answer, any Error>
    private typealias Machine = ExchangeCallMachine<Waiter>

    private let session: URLSession
    private let request: URLRequest
    private let delegate: ExchangeDelegate
    private let timeout: TimeInterval
    private let machine = LockedValue(Machine())
    /// The task of each attempt that has started.
    private let tasks = LockedValue([Int: URLSessionDataTask]())
    /// When the call was made, and whom to tell how long it took when its caller is resumed with an answer or a
    /// failure (``URLSessionExchange``'s `ended`); `nil` when nobody asked.
    private let timing: (started: ContinuousClock.Instant, ended: @Sendable (Duration) -> Void)?
    /// Creates the call of `request` on `session`, whose delegate is `delegate`; `timeout` seconds after the
    /// caller starts waiting, the call fails with `timedOut` whatever its tasks are doing.
    init(
        session: URLSession, request: URLRequest, delegate: ExchangeDelegate, timeout: TimeInterval,
        ended: (@Sendable (Duration) -> Void)?
    ) {
        self.session = session
        self.request = request
        self.delegate = delegate
        self.timeout = timeout
        timing = ended.map { (.now, $0) }
    }

    /// Sends the request and waits for its answer.
    func answer() async throws -> URLSessionExchange.Answer {
        // The deadline is forgotten when the caller is resumed: a finished request is released at once, not when
        // its deadline would have come.
        let deadline = ExchangeDeadlines.shared.add(self, after: timeout)
        defer {
            ExchangeDeadlines.shared.remove(deadline)
            delegate.unregister(tasks.withLock { Array($0.values) })
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiter in
                handle(.started(waiter))
            }
        } onCancel: {
            handle(.callerCancelled)
        }
    }

    /// Feeds the head of `attempt`'s answer to the machine; `true` when the body is to be read, `false` when the
    /// head was the answer and the attempt has been stopped (or the request was already over).
    func headArrived(_ response: URLResponse, attempt: Int) -> Bool {
        guard case .success(let answer) = URLSessionExchange.Answer.of(response) else {
            // Not an HTTP answer: the task's completion reports it.
            return true
        }
        let http = response as? HTTPURLResponse
        let encoding = http?.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
        let declared = response.expectedContentLength
        let length = declared >= 0 && (encoding == nil || encoding == "identity") ? Int(declared) : nil
        handle(.receivedHead(attempt: attempt, answer, declaredBodyLength: length))
        return !machine.withLock { $0.isFinished }
    }

    /// Feeds one input to the machine and performs what it returns.
    func handle(_ input: ExchangeCallMachine<Waiter>.Input) {
        for action in machine.withLock({ $0.handle(input) }) {
            switch action {
            case .startAttempt(let attempt):
                let task = session.dataTask(with: request)
                tasks.withLock { $0[attempt] = task }
                delegate.register(task, of: self, attempt: attempt)
                task.resume()
            case .stopAttempt(let attempt):
                tasks.withLock { $0[attempt] }?.cancel()
            case .resume(let waiter, let result):
                // A cancellation is the caller's doing, not how the request ended.
                let cancelled = if case .failure(let error) = result { error is CancellationError } else { false }
                if !cancelled { report() }
                waiter.resume(with: result)
            case .resumeWithTheAnswerSoFar(let waiter, let attempt):
                let response = tasks.withLock { $0[attempt] }?.response
                report()
                waiter.resume(with: URLSessionExchange.Answer.of(response).mapError { $0 })
            }
        }
    }

    /// Tells `ended` how long the call took, on the thread that ends it: before its caller resumes, which on a busy
    /// executor can be much later.
    private func report() {
        if let timing { timing.ended(timing.started.duration(to: .now)) }
    }
}
