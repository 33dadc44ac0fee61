/// Everything a ``LoopbackHTTPServer`` shares between the caller's threads and its own, kept behind one
/// lock in ``ServerCore``.
struct ServerState {
    /// Where the server is in its single run.
    enum Lifecycle {
        case idle
        case running(listener: Int32, stopSignal: StopSignal, port: UInt16)
        case stopped(port: UInt16?)
    }

    /// A caller suspended in `waitForRequests(count:timeout:)`.
    struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<[LoopbackHTTPRequest], any Error>
        var timeout: Task<Void, Never>?
    }

    /// How the answer to one request is produced, decided under the lock in arrival order.
    enum Answer {
        case fixed(LoopbackHTTPResponse)
        case computed(@Sendable (LoopbackHTTPRequest) -> LoopbackHTTPResponse)
    }

    var lifecycle: Lifecycle = .idle
    var responder: LoopbackHTTPResponder
    var scriptPosition = 0
    var requests: [LoopbackHTTPRequest] = []
    var arrivedCount = 0
    var acceptedConnections = 0
    var openConnections = 0
    var waiters: [Int: Waiter] = [:]
    var cancelledWaiters: Set<Int> = []
    var nextWaiterID = 0

    init(responder: LoopbackHTTPResponder) {
        self.responder = responder
    }

    var port: UInt16? {
        switch lifecycle {
        case .idle: return nil
        case .running(_, _, let port): return port
        case .stopped(let port): return port
        }
    }

    var isRunning: Bool {
        if case .running = lifecycle { return true }
        return false
    }

    /// The answer for the next request in arrival order (advances a script).
    mutating func nextAnswer() -> Answer {
        switch responder {
        case .always(let response):
            return .fixed(response)
        case .script(let responses, let fallback):
            defer { scriptPosition += 1 }
            return .fixed(scriptPosition < responses.count ? responses[scriptPosition] : fallback)
        case .handler(let handler):
            return .computed(handler)
        }
    }

    /// Removes and returns the waiters whose count has been reached.
    mutating func takeSatisfiedWaiters() -> [Waiter] {
        let ready = waiters.filter { $0.value.count <= arrivedCount }
        for id in ready.keys { waiters[id] = nil }
        return Array(ready.values)
    }
}
