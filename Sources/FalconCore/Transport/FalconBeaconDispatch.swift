/// Sends beacons fire-and-forget and keeps count of those in flight, so a test or a graceful shutdown can wait
/// for them.
final class FalconBeaconDispatch: Sendable {
    private struct State {
        var inFlight = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedValue(State())

    /// Sends `request` on a task of its own and calls `finished` with whether the transport answered.
    func send(
        _ request: FalconBeaconRequest, with transport: any FalconBeaconTransport,
        finished: @escaping @Sendable (Bool) -> Void
    ) {
        state.withLock { $0.inFlight += 1 }
        Task.detached { [weak self] in
            let answered = (try? await transport.send(request)) != nil
            finished(answered)
            self?.didFinish()
        }
    }

    /// Waits until every beacon sent so far has finished (sent or failed).
    func waitForPending() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.inFlight == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func didFinish() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.inFlight -= 1
            guard state.inFlight == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
