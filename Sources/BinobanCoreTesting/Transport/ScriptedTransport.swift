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
/// let requests = try await transport.waitForRequests(count: 3)
/// ```
public final class ScriptedTransport: BinobanEventTransport {
    private struct State: WaitListHolder {
        var script: [ScriptedAnswer]
        var defaultAnswer: ScriptedAnswer
        var requests: [BinobanTransportRequest] = []
        /// Waiters for a number of requests.
        var waitList = WaitList<Int, [BinobanTransportRequest]>()

        func result(for count: Int) -> [BinobanTransportRequest]? {
            requests.count >= count ? requests : nil
        }

        func timeoutError(for count: Int, after timeout: Duration) -> BinobanTestKitTimeout {
            BinobanTestKitTimeout(
                awaited: "ScriptedTransport.waitForRequests", unit: "requests", seen: requests.count, expected: count,
                timeout: timeout)
        }
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
    ///
    /// It resumes as soon as the `count`-th request arrives; `timeout`, measured on the real `ContinuousClock`, is
    /// only a safety net so that a broken test fails instead of hanging.
    ///
    /// - Throws: ``BinobanTestKitTimeout`` after `timeout`, `CancellationError` when the task is cancelled.
    public func waitForRequests(
        count: Int, timeout: Duration = .seconds(300)
    ) async throws -> [BinobanTransportRequest] {
        try await state.wait(for: count, timeout: timeout)
    }

    /// How many tasks are suspended in ``waitForRequests(count:timeout:)``.
    var waiterCount: Int { state.withLock { $0.waitList.count } }

    /// Records the request and answers with the next scripted answer.
    public func send(_ request: BinobanTransportRequest) async throws -> BinobanTransportResponse {
        let (answer, ready) = state.withLock { state in
            state.requests.append(request)
            let answer = state.script.isEmpty ? state.defaultAnswer : state.script.removeFirst()
            return (answer, state.takeSatisfiedWaiters())
        }
        resumeAll(ready)
        switch answer {
        case .status(let code, let headers):
            return BinobanTransportResponse(statusCode: code, headers: headers)
        case .networkError:
            throw ScriptedNetworkError()
        }
    }
}
