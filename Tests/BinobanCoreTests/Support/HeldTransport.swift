import BinobanCoreTesting
import Foundation

/// A healthy but slow ingest: answers 200, but holds every request until the test opens it.
final class HeldTransport: BinobanEventTransport {
    private struct State {
        var open = false
        var held: [CheckedContinuation<Void, Never>] = []
        var heldWatchers: [CheckedContinuation<Void, Never>] = []
        var bodies: [Data] = []
    }

    private let state = LockedValue(State())

    /// Every request body received so far.
    var bodies: [Data] { state.withLock { $0.bodies } }

    /// Returns once a request is being held.
    func waitUntilHolding() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if !state.held.isEmpty { return true }
                state.heldWatchers.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Answers the held requests and every later one at once.
    func open() {
        let held = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.held = [] }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let (now, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                state.bodies.append(request.body)
                if state.open { return (true, []) }
                state.held.append(continuation)
                defer { state.heldWatchers = [] }
                return (false, state.heldWatchers)
            }
            for watcher in watchers { watcher.resume() }
            if now { continuation.resume() }
        }
        return BinobanTransportResponse(statusCode: 200, headers: [:])
    }
}
