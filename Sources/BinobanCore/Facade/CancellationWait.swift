/// Suspends until the current task is cancelled, without a clock or a polling loop.
enum CancellationWait {
    private struct State {
        var cancelled = false
        var continuation: CheckedContinuation<Void, Never>?
    }

    static func untilCancelled() async {
        let state = LockedValue(State())
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.cancelled { return true }
                    state.continuation = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.cancelled = true
                defer { state.continuation = nil }
                return state.continuation
            }
            continuation?.resume()
        }
    }
}
