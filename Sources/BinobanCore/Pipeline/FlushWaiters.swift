/// The callers awaiting `flush()` or the shutdown, resumed exactly once: with the result, or `interrupted` when an
/// awaited flush's task is cancelled (the shutdown's wait ignores cancellation).
final class FlushWaiters: Sendable {
    private struct State {
        var nextID: UInt64 = 1
        var waiting: [UInt64: CheckedContinuation<BinobanFlushResult, Never>] = [:]
        /// Waiters that are callbacks, called synchronously where the pipeline resolves them (test kits).
        var observers: [UInt64: @Sendable (BinobanFlushResult) -> Void] = [:]
        var cancelledEarly: Set<UInt64> = []
    }

    private let state = LockedValue(State())

    func makeID() -> UInt64 {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    /// Waits for `id` to be resumed; `register` runs once the continuation is stored (to send the request).
    func wait(id: UInt64, register: () -> Void) async -> BinobanFlushResult {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BinobanFlushResult, Never>) in
                let cancelled = state.withLock { state -> Bool in
                    if state.cancelledEarly.remove(id) != nil { return true }
                    state.waiting[id] = continuation
                    return false
                }
                if cancelled {
                    continuation.resume(returning: BinobanFlushResult(outcome: .interrupted))
                } else {
                    register()
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<BinobanFlushResult, Never>? in
                guard let continuation = state.waiting.removeValue(forKey: id) else {
                    state.cancelledEarly.insert(id)
                    return nil
                }
                return continuation
            }
            continuation?.resume(returning: BinobanFlushResult(outcome: .interrupted))
        }
    }

    /// Waits for `id` to be resumed whatever the calling task's cancellation: for the shutdown, whose final flush
    /// only its grace period bounds. `register` runs once the continuation is stored.
    func waitIgnoringCancellation(id: UInt64, register: () -> Void) async -> BinobanFlushResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<BinobanFlushResult, Never>) in
            state.withLock { $0.waiting[id] = continuation }
            register()
        }
    }

    /// Registers a callback waiter: `observer` is called once, synchronously, when `id` is resolved.
    func observe(id: UInt64, _ observer: @escaping @Sendable (BinobanFlushResult) -> Void) {
        state.withLock { $0.observers[id] = observer }
    }

    func resume(_ id: UInt64, with result: BinobanFlushResult) {
        let (continuation, observer) = state.withLock {
            ($0.waiting.removeValue(forKey: id), $0.observers.removeValue(forKey: id))
        }
        continuation?.resume(returning: result)
        observer?(result)
    }

    func resumeAll(with result: BinobanFlushResult) {
        let (all, observers) = state.withLock { state in
            defer {
                state.waiting.removeAll()
                state.observers.removeAll()
            }
            return (Array(state.waiting.values), Array(state.observers.values))
        }
        for continuation in all { continuation.resume(returning: result) }
        for observer in observers { observer(result) }
    }
}
