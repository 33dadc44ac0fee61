/// How a ``LoopbackHTTPServer`` chooses the answer to each request.
///
/// ```swift
/// // 500, then 429 with Retry-After: 2, then 200 for ever after.
/// let responder = LoopbackHTTPResponder.script([
///     .status(500),
///     .status(429, headers: ["Retry-After": "2"]),
/// ], then: .ok)
/// ```
public enum LoopbackHTTPResponder: Sendable {
    /// The same answer to every request.
    case always(LoopbackHTTPResponse)
    /// The answers in order, one per request in arrival order; once they are used up, `then` for every
    /// later request.
    case script([LoopbackHTTPResponse], then: LoopbackHTTPResponse = .ok)
    /// A closure that computes each answer. It runs on a server connection thread, once per request,
    /// possibly concurrently for different connections; it must return promptly and must not call
    /// ``LoopbackHTTPServer/stop()``.
    case handler(@Sendable (LoopbackHTTPRequest) -> LoopbackHTTPResponse)
}
