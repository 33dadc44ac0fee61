#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One scripted answer of a ``ScriptedTransport``.
public enum ScriptedAnswer: Sendable, Hashable, ExpressibleByIntegerLiteral {
    /// Answer with a status and headers.
    case status(Int, headers: [String: String])
    /// Throw, as when no answer arrives.
    case networkError

    /// An answer with `status` and no headers: `[500, 500, 200]` scripts statuses.
    public init(integerLiteral status: Int) {
        self = .status(status, headers: [:])
    }

    /// A `429` (or other status) with `Retry-After: seconds`.
    public static func retryAfter(_ seconds: Int, status: Int = 429) -> ScriptedAnswer {
        .status(status, headers: ["Retry-After": String(seconds)])
    }
}

/// The error a ``ScriptedTransport`` throws for ``ScriptedAnswer/networkError``.
public struct ScriptedNetworkError: Error, Sendable, Hashable {}

/// A transport that records every request and answers from a script, then with a default status.
///
/// ```swift
/// let transport = ScriptedTransport(script: [500, 500, 200])
/// // … uploads …
/// let requests = await transport.waitForRequests(count: 3)
/// ```
public final class ScriptedTransport: BinobanEventTransport {
    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<[BinobanTransportRequest], Never>
    }

    private struct State {
        var script: [ScriptedAnswer]
        var defaultAnswer: ScriptedAnswer
        var requests: [BinobanTransportRequest] = []
        var waiters: [Waiter] = []
    }

    private let state: LockedValue<State>

    /// Creates a transport that answers with `script` in order, then with `defaultAnswer` (200).
    public init(script: [ScriptedAnswer] = [], defaultAnswer: ScriptedAnswer = 200) {
        state = LockedValue(State(script: script, defaultAnswer: defaultAnswer))
    }

    /// Appends answers to the script.
    public func enqueue(_ answers: [ScriptedAnswer]) {
        state.withLock { $0.script.append(contentsOf: answers) }
    }

    /// Every request received so far, in order.
    public var requests: [BinobanTransportRequest] { state.withLock { $0.requests } }

    /// Every event of every request received so far, decoded.
    public func uploadedEvents() throws -> [UploadedEvent] {
        try requests.flatMap { try UploadedBatch.decode($0.body).batch }
    }

    /// Returns once at least `count` requests were received, with all requests so far.
    public func waitForRequests(count: Int) async -> [BinobanTransportRequest] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[BinobanTransportRequest], Never>) in
            let ready = state.withLock { state -> [BinobanTransportRequest]? in
                if state.requests.count >= count { return state.requests }
                state.waiters.append(Waiter(count: count, continuation: continuation))
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Records the request and answers with the next scripted answer.
    public func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let (answer, ready) = state.withLock { state -> (ScriptedAnswer, [(Waiter, [BinobanTransportRequest])]) in
            state.requests.append(request)
            let answer = state.script.isEmpty ? state.defaultAnswer : state.script.removeFirst()
            let requests = state.requests
            var ready: [(Waiter, [BinobanTransportRequest])] = []
            state.waiters.removeAll { waiter in
                guard requests.count >= waiter.count else { return false }
                ready.append((waiter, requests))
                return true
            }
            return (answer, ready)
        }
        for (waiter, requests) in ready { waiter.continuation.resume(returning: requests) }
        switch answer {
        case .status(let code, let headers):
            return BinobanTransportResponse(statusCode: code, headers: headers)
        case .networkError:
            throw ScriptedNetworkError()
        }
    }
}
