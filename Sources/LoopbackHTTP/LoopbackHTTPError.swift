/// Why a ``LoopbackHTTPServer`` call failed.
public enum LoopbackHTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed while starting the server; `errno` is the C error number.
    case systemCallFailed(String, errno: Int32)
    /// ``LoopbackHTTPServer/start()`` was called on a server that is already running.
    case alreadyStarted
    /// ``LoopbackHTTPServer/start()`` was called after ``LoopbackHTTPServer/stop()``; a server runs once.
    case alreadyStopped
    /// ``LoopbackHTTPServer/waitForRequests(count:timeout:)`` gave up: fewer than `expected` requests
    /// arrived within the timeout.
    case timedOut(expected: Int, received: Int)
    /// The server was stopped while a caller was still waiting for `expected` requests.
    case stoppedWhileWaiting(expected: Int, received: Int)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .systemCallFailed(let call, let errno):
            return "LoopbackHTTP: \(call) failed (errno \(errno))"
        case .alreadyStarted:
            return "LoopbackHTTP: the server is already running"
        case .alreadyStopped:
            return "LoopbackHTTP: the server was stopped; create a new one"
        case .timedOut(let expected, let received):
            return "LoopbackHTTP: waited for \(expected) requests, \(received) arrived before the timeout"
        case .stoppedWhileWaiting(let expected, let received):
            return "LoopbackHTTP: stopped while waiting for \(expected) requests (\(received) arrived)"
        }
    }
}
