/// The callers awaiting `flush()`, resumed exactly once: with the result, or `interrupted` on cancellation.
final class FlushWaiters: Sendable {
    private struct State {
        var nextID: UInt64 = 1
        var waiting: [UInt64: CheckedContinuation<BinobanFlushResult, Never>] = [:]
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

    func resume(_ id: UInt64, with result: BinobanFlushResult) {
        let continuation = state.withLock { $0.waiting.removeValue(forKey: id) }
        continuation?.resume(returning: result)
    }

    func resumeAll(with result: BinobanFlushResult) {
        let all = state.withLock { state -> [CheckedContinuation<BinobanFlushResult, Never>] in
            defer { state.waiting.removeAll() }
            return Array(state.waiting.values)
        }
        for continuation in all { continuation.resume(returning: result) }
    }
}
