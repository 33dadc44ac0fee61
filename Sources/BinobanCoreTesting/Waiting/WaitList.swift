/// The waiters of one test-kit wait, kept inside the owner's locked state so that checking the condition and
/// registering happen under the same lock as the changes that satisfy it.
///
/// Each waiter is resumed exactly once, by whoever removes it from the list under the lock: the change that
/// satisfies it, its timeout, or its task's cancellation.
struct WaitList<Condition: Sendable, Result: Sendable> {
    struct Waiter {
        var id: UInt64
        var condition: Condition
        var continuation: CheckedContinuation<Result, any Error>
        var timer: Task<Void, Never>?

        /// Resumes with `result` and stops the timer.
        func resume(returning result: Result) {
            timer?.cancel()
            continuation.resume(returning: result)
        }

        /// Resumes with `error` and stops the timer.
        func resume(throwing error: any Error) {
            timer?.cancel()
            continuation.resume(throwing: error)
        }
    }

    private(set) var waiters: [Waiter] = []
    /// Ids whose task was cancelled before they registered.
    private var cancelledEarly: Set<UInt64> = []
    private var nextID: UInt64 = 1

    /// How many waiters are registered (for leak tests).
    var count: Int { waiters.count }

    mutating func makeID() -> UInt64 {
        defer { nextID += 1 }
        return nextID
    }

    /// Removes the waiter `id`, if it is still registered.
    mutating func remove(_ id: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }

    /// Removes every waiter for which `result` gives a value, in registration order.
    mutating func removeSatisfied(_ result: (Condition) -> Result?) -> [(Waiter, Result)] {
        var ready: [(Waiter, Result)] = []
        waiters.removeAll { waiter in
            guard let value = result(waiter.condition) else { return false }
            ready.append((waiter, value))
            return true
        }
        return ready
    }

    fileprivate mutating func register(_ waiter: Waiter) -> Bool {
        if cancelledEarly.remove(waiter.id) != nil { return false }
        waiters.append(waiter)
        return true
    }

    fileprivate mutating func setTimer(_ timer: Task<Void, Never>, for id: UInt64) -> Bool {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return false }
        waiters[index].timer = timer
        return true
    }

    fileprivate mutating func cancel(_ id: UInt64) -> Waiter? {
        if let waiter = remove(id) { return waiter }
        cancelledEarly.insert(id)
        return nil
    }

    fileprivate mutating func forget(_ id: UInt64) {
        cancelledEarly.remove(id)
    }
}

/// Locked state that holds a ``WaitList`` and can answer its conditions.
protocol WaitListHolder: SendableMetatype {
    associatedtype Condition: Sendable
    associatedtype Result: Sendable

    var waitList: WaitList<Condition, Result> { get set }

    /// The result for a waiter on `condition` when the condition holds now, else `nil`.
    func result(for condition: Condition) -> Result?

    /// The error for a waiter on `condition` whose `timeout` expired.
    func timeoutError(for condition: Condition, after timeout: Duration) -> BinobanTestKitTimeout
}

extension WaitListHolder {
    /// Removes the waiters whose condition now holds; resume them after leaving the lock.
    mutating func takeSatisfiedWaiters() -> [(WaitList<Condition, Result>.Waiter, Result)] {
        guard waitList.count > 0 else { return [] }
        let snapshot = self
        return waitList.removeSatisfied { snapshot.result(for: $0) }
    }
}

/// Resumes waiters taken by ``WaitListHolder/takeSatisfiedWaiters()``.
func resumeAll<Condition, Result>(_ ready: [(WaitList<Condition, Result>.Waiter, Result)]) {
    for (waiter, result) in ready { waiter.resume(returning: result) }
}

/// What registering a waiter found.
private enum WaitRegistration<Result> {
    case ready(Result)
    case cancelled
    case waiting
}

extension LockedValue where Value: WaitListHolder {
    private typealias PendingWaiter = WaitList<Value.Condition, Value.Result>.Waiter

    /// Suspends until `condition` holds, `timeout` passes on the real `ContinuousClock` (throwing
    /// ``BinobanTestKitTimeout``) or the task is cancelled (throwing `CancellationError`).
    func wait(for condition: Value.Condition, timeout: Duration) async throws -> Value.Result {
        try Task.checkCancellation()
        let id = withLock { $0.waitList.makeID() }
        defer { withLock { $0.waitList.forget(id) } }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value.Result, any Error>) in
                let registration = withLock { state -> WaitRegistration<Value.Result> in
                    if let result = state.result(for: condition) { return .ready(result) }
                    let waiter = PendingWaiter(id: id, condition: condition, continuation: continuation)
                    return state.waitList.register(waiter) ? .waiting : .cancelled
                }
                switch registration {
                case .ready(let result): continuation.resume(returning: result)
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .waiting: startTimer(for: id, condition: condition, timeout: timeout)
                }
            }
        } onCancel: {
            withLock { $0.waitList.cancel(id) }?.resume(throwing: CancellationError())
        }
    }

    private func startTimer(for id: UInt64, condition: Value.Condition, timeout: Duration) {
        let timer = Task.detached { [self] in
            do {
                try await Task.sleep(for: timeout, clock: .continuous)
            } catch {
                return  // resumed or cancelled: the timer is no longer needed
            }
            let expired = withLock { state -> (PendingWaiter, BinobanTestKitTimeout)? in
                guard let waiter = state.waitList.remove(id) else { return nil }
                return (waiter, state.timeoutError(for: condition, after: timeout))
            }
            if let (waiter, error) = expired { waiter.continuation.resume(throwing: error) }
        }
        if !withLock({ $0.waitList.setTimer(timer, for: id) }) { timer.cancel() }
    }
}
