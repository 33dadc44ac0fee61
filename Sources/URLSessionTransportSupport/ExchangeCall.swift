import Foundation
import SDKCoreCommon

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request in flight through ``URLSessionExchange``: its URLSession task, its body (kept so that a retry
/// on a fresh connection can send it again), its wall-clock deadline, and its ``ExchangeCallMachine`` under a
/// lock. It performs the machine's actions and nothing else.
final class ExchangeCall: Sendable {
    typealias Waiter = CheckedContinuation<URLSessionExchange.Answer, any Error>

    /// The request's body, handed out again whenever libcurl rewinds the upload (see ``ExchangeDelegate``).
    let body: Data

    private let task: URLSessionDataTask
    private let machine: LockedValue<ExchangeCallMachine<Waiter>>
    /// The deadline's timer, cancelled when the caller is resumed (`DispatchWorkItem` is not `Sendable`, so it
    /// lives under a lock).
    private let deadline: LockedValue<DispatchWorkItem?>

    /// Creates the call of `task`; `timeout` seconds after the caller starts waiting the call fails with
    /// `timedOut`, whatever the task is doing.
    init(task: URLSessionDataTask, body: Data, timeout: TimeInterval) {
        self.task = task
        self.body = body
        // The deadline's work item holds the machine and the task, not the call; it is cancelled when the caller
        // is resumed, so a finished request is released at once rather than when its timer would have fired.
        let machine = LockedValue(ExchangeCallMachine<Waiter>())
        self.machine = machine
        let timer = DispatchWorkItem { [weak task] in
            guard let task else { return }
            ExchangeCall.perform(machine.withLock { $0.handle(.deadlinePassed) }, task: task, deadline: nil)
        }
        deadline = LockedValue(timer)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
    }

    /// The URLSession task's identifier, the key the session delegate finds the call by.
    var taskIdentifier: Int { task.taskIdentifier }

    /// Feeds one input to the machine and performs what it returns.
    func handle(_ input: ExchangeCallMachine<Waiter>.Input) {
        Self.perform(machine.withLock { $0.handle(input) }, task: task, deadline: deadline)
    }

    private static func perform(
        _ actions: [ExchangeCallMachine<Waiter>.Action], task: URLSessionDataTask,
        deadline: LockedValue<DispatchWorkItem?>?
    ) {
        for action in actions {
            switch action {
            case .startTask:
                task.resume()
            case .stopTask:
                task.cancel()
            case .resume(let waiter, let result):
                deadline?.withLock { $0?.cancel() }
                waiter.resume(with: result)
            case .resumeWithTheAnswerSoFar(let waiter):
                deadline?.withLock { $0?.cancel() }
                waiter.resume(with: URLSessionExchange.Answer.of(task.response).mapError { $0 })
            }
        }
    }
}
