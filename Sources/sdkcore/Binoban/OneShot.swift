import BinobanCore

/// Something that happens at most once (an ingest that kept failing), with the actions to run when it does:
/// each action runs once, when it happens or at once if it already has.
final class OneShot: Sendable {
    private struct State {
        var fired = false
        var actions: [@Sendable () -> Void] = []
    }

    private let state = LockedValue(State())

    /// Whether it happened.
    var fired: Bool { state.withLock { $0.fired } }

    /// Marks it as happened and runs the actions waiting for it (only the first call does).
    func fire() {
        let actions = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.fired else { return [] }
            state.fired = true
            defer { state.actions = [] }
            return state.actions
        }
        for action in actions { action() }
    }

    /// Runs `action` once it happened (now, if it already has).
    func whenFired(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.fired { return true }
            state.actions.append(action)
            return false
        }
        if now { action() }
    }
}
