import SDKCoreCommon

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests, demos and command-line checks.
///
/// It binds an ephemeral port, accepts connections on its own threads, records every request (method, target,
/// headers, body, arrival order) and answers from a ``LoopbackHTTPResponder``: one fixed answer, a script
/// such as "500, then 429, then 200", or a closure. It supports keep-alive, pipelining, `Content-Length` and
/// chunked request bodies and `Expect: 100-continue`. A malformed request gets `400` and a closed
/// connection; nothing a client sends can crash it.
///
/// After ``stop()`` the listener is closed, so new connections are refused: that is how a test simulates a
/// server that is down. `stop()` returns only when every server thread has ended and every descriptor is
/// closed. A server runs once; create a new one to run again.
///
/// ```swift
/// let server = LoopbackHTTPServer(responder: .script([.status(500)], then: .ok))
/// let port = try server.start()
/// defer { server.stop() }
/// // … point a client at http://127.0.0.1:\(port)/b …
/// let requests = try await server.waitForRequests(count: 2)
/// ```
///
/// A connection that stalls (sends nothing, or reads nothing of its answer) for
/// ``Configuration/idleTimeout`` is closed, so stalled clients free their slots.
///
/// Costs: one thread per open connection (capped by ``Configuration/maxConnections``); every request is kept
/// in memory until the server is released (or bodies are not kept, see ``Configuration/recordsBodies``).
public final class LoopbackHTTPServer: Sendable {
    /// Limits and options, fixed when the server is created.
    public struct Configuration: Sendable, Hashable {
        /// The port to bind on 127.0.0.1; `0` (the default) lets the system choose a free one.
        public var port: UInt16
        /// The largest request head accepted; a larger one gets `431`.
        public var maxHeadBytes: Int
        /// The largest request body accepted; a larger one gets `413`.
        public var maxBodyBytes: Int
        /// How many connections may be open at once; more are answered `503` and closed.
        public var maxConnections: Int
        /// Whether recorded requests keep their bodies. Turn off for long runs; a ``LoopbackHTTPResponder``
        /// handler still sees every body.
        public var recordsBodies: Bool
        /// How long a connection may go without progress before the server closes it: no byte from the client
        /// while it waits for a request (inside one or between keep-alive requests), or no room in the socket
        /// while it writes an answer the client does not read. A request cut short this way is answered
        /// `408 Request Timeout`; an idle keep-alive connection is closed without an answer. 5 seconds by
        /// default, so clients that connect and stall cannot hold every slot of ``maxConnections``; values
        /// below a millisecond count as one millisecond.
        public var idleTimeout: Duration = .seconds(5)
        /// How long a request head (its request line and header fields) may take from its first byte to its
        /// end, however steadily its bytes trickle in: a head that is not complete by then is answered
        /// `408 Request Timeout` and the connection is closed. ``idleTimeout`` alone is per read, so clients that
        /// send one byte every few seconds could hold every slot of ``maxConnections`` for as long as they
        /// liked. 10 seconds by default; values below a millisecond count as one millisecond.
        public var headTimeout: Duration = .seconds(10)

        /// Creates a configuration; the defaults suit tests (64 KiB heads, 64 MiB bodies, 128 connections,
        /// a 5-second ``idleTimeout``).
        public init(
            port: UInt16 = 0,
            maxHeadBytes: Int = 64 * 1024,
            maxBodyBytes: Int = 64 * 1024 * 1024,
            maxConnections: Int = 128,
            recordsBodies: Bool = true
        ) {
            self.port = port
            self.maxHeadBytes = max(1024, maxHeadBytes)
            self.maxBodyBytes = max(0, maxBodyBytes)
            self.maxConnections = max(1, maxConnections)
            self.recordsBodies = recordsBodies
        }
    }

    private let core: ServerCore

    /// Creates a stopped server; call ``start()`` to listen.
    ///
    /// - Parameters:
    ///   - responder: how requests are answered; by default every request gets `200` with an empty body.
    ///   - configuration: limits and options.
    public init(responder: LoopbackHTTPResponder = .always(.ok), configuration: Configuration = Configuration()) {
        core = ServerCore(responder: responder, configuration: configuration)
    }

    deinit {
        core.stop()
    }

    /// The configuration the server was created with.
    public var configuration: Configuration { core.configuration }

    /// Binds 127.0.0.1, starts accepting and returns the bound port.
    ///
    /// - Throws: ``LoopbackHTTPError/systemCallFailed(_:errno:)`` when the socket cannot be set up,
    ///   ``LoopbackHTTPError/alreadyStarted`` or ``LoopbackHTTPError/alreadyStopped``.
    @discardableResult
    public func start() throws(LoopbackHTTPError) -> UInt16 {
        try core.start()
    }

    /// Stops the server: closes the listener (new connections are refused), closes open connections, fails
    /// pending ``waitForRequests(count:timeout:)`` calls, and returns once every server thread has ended.
    ///
    /// Safe to call more than once and on a server that never started. Never call it from inside a
    /// ``LoopbackHTTPResponder/handler(_:)`` closure: it waits for that very thread.
    public func stop() {
        core.stop()
    }

    /// Whether the server is listening.
    public var isRunning: Bool {
        core.state.withLock { $0.isRunning }
    }

    /// The bound port once started (still reported after ``stop()``, so a test can aim at a dead port);
    /// `nil` before ``start()``.
    public var port: UInt16? {
        core.state.withLock { $0.port }
    }

    /// `http://127.0.0.1:<port><path>`, or `nil` before ``start()``. `path` should start with `/`.
    public func url(path: String = "/") -> URL? {
        guard let port else { return nil }
        return URL(string: "http://127.0.0.1:\(port)\(path)")
    }

    /// How requests are answered. Setting it takes effect for the next request and restarts a script.
    public var responder: LoopbackHTTPResponder {
        get { core.state.withLock { $0.responder } }
        set {
            core.state.withLock { state in
                state.responder = newValue
                state.scriptPosition = 0
            }
        }
    }

    /// Every request received so far, in arrival order (since the last ``removeAllRequests()``).
    public var requests: [LoopbackHTTPRequest] {
        core.state.withLock { $0.requests }
    }

    /// How many complete requests have arrived since ``start()``, including removed ones.
    public var requestCount: Int {
        core.state.withLock { $0.arrivedCount }
    }

    /// How many connections have been accepted since ``start()``.
    public var acceptedConnectionCount: Int {
        core.state.withLock { $0.acceptedConnections }
    }

    /// How many connections are open right now.
    public var openConnectionCount: Int {
        core.state.withLock { $0.openConnections }
    }

    /// Forgets the recorded requests (to free memory in long runs). ``requestCount`` keeps counting.
    public func removeAllRequests() {
        core.state.withLock { $0.requests.removeAll() }
    }

    /// Suspends until at least `count` requests have arrived in total, then returns ``requests``.
    ///
    /// Event-driven: it resumes as soon as the server records the `count`-th request, with no polling. The
    /// `timeout` is only a safety net so a broken test fails instead of hanging.
    ///
    /// - Throws: ``LoopbackHTTPError/timedOut(expected:received:)`` after `timeout`,
    ///   ``LoopbackHTTPError/stoppedWhileWaiting(expected:received:)`` when the server stops first, or
    ///   `CancellationError` when the calling task is cancelled.
    public func waitForRequests(count: Int, timeout: Duration = .seconds(30)) async throws -> [LoopbackHTTPRequest] {
        let id = core.state.withLock { state -> Int in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        let core = self.core
        defer { core.forgetWaiter(id: id) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                core.addWaiter(id: id, count: count, timeout: timeout, continuation: continuation)
            }
        } onCancel: {
            core.cancelWaiter(id: id)
        }
    }

    /// Starts a server, runs `body` with it and stops it afterwards, whether `body` returns or throws.
    ///
    /// ```swift
    /// try await LoopbackHTTPServer.withRunningServer(responder: .always(.status(500))) { server in
    ///     // …
    /// }
    /// ```
    public static func withRunningServer<Result>(
        responder: LoopbackHTTPResponder = .always(.ok),
        configuration: Configuration = Configuration(),
        _ body: (LoopbackHTTPServer) async throws -> Result
    ) async throws -> Result {
        let server = LoopbackHTTPServer(responder: responder, configuration: configuration)
        try server.start()
        defer { server.stop() }
        return try await body(server)
    }
}
