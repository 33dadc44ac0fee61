/// An execution that starts on the executor's next turn, as `FalconEmbeddedSwiftUIView` does after mounting.
///
/// Returned by `executeOnNextTurn(attributes:placement:…)` on ``Falcon`` and ``FalconClient``.
/// ``cancel()`` before that turn means nothing at all happens (not even `onShouldShowLoadingIndicator`);
/// after it, `cancel()` is a host teardown (`onUnload` if the placement had loaded, else only a pending hide).
public final class FalconPendingExecution: Sendable {
    private enum Phase {
        case waiting
        case starting(cancelRequested: Bool)
        case started(UInt64)
        case cancelled
    }

    private weak let client: FalconClient?
    private let phase = LockedValue(Phase.waiting)

    init(client: FalconClient) {
        self.client = client
    }

    /// Whether the execution has started (its `start` input was queued).
    package var hasStarted: Bool {
        phase.withLock {
            if case .started = $0 { return true }
            return false
        }
    }

    /// Cancels the execution: before it started nothing happens at all; after, it is torn down.
    public func cancel() {
        let started = phase.withLock { phase -> UInt64? in
            switch phase {
            case .waiting:
                phase = .cancelled
                return nil
            case .starting:
                phase = .starting(cancelRequested: true)
                return nil
            case .started(let id):
                return id
            case .cancelled:
                return nil
            }
        }
        if let started { client?.submit(.hostTeardown, executionID: started) }
    }

    /// Claims the start; `false` when cancelled first.
    func beginStart() -> Bool {
        phase.withLock { phase in
            guard case .waiting = phase else { return false }
            phase = .starting(cancelRequested: false)
            return true
        }
    }

    /// Records the started execution and tears it down at once if a cancel arrived while it was starting.
    func didStart(_ id: UInt64) {
        let cancelRequested = phase.withLock { phase -> Bool in
            defer { phase = .started(id) }
            if case .starting(let requested) = phase { return requested }
            return false
        }
        if cancelRequested { client?.submit(.hostTeardown, executionID: id) }
    }
}
