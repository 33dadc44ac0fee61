import URLSessionTransportSupport

/// Why a beacon sent through ``URLSessionBeaconTransport`` got no HTTP answer.
///
/// It carries a coarse reason and the `URLError` code only: never the URL, headers or body, so it is safe
/// to log or to hand to an error handler.
public struct URLSessionBeaconTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Reason: String, Sendable, Hashable, URLSessionFailureReason {
        /// Nothing answered in time.
        case timedOut
        /// The host could not be reached (refused, unknown host, no network).
        case cannotConnect
        /// The connection closed before a complete answer arrived.
        case connectionLost
        /// TLS could not be established or the certificate was refused.
        case secureConnectionFailed
        /// An answer arrived that is not HTTP.
        case notHTTP
        /// Any other failure of the URL loading system.
        case other
    }

    /// The kind of failure.
    public var reason: Reason
    /// The `URLError.Code` raw value when the URL loading system reported one.
    public var urlErrorCode: Int?

    /// Creates an error.
    public init(reason: Reason, urlErrorCode: Int?) {
        self.reason = reason
        self.urlErrorCode = urlErrorCode
    }

    /// Names a failure of the shared URLSession plumbing, keeping only its `URLError` code.
    init(_ failure: URLSessionTransportFailure) {
        self.init(reason: failure.reason(), urlErrorCode: failure.urlErrorCode)
    }

    /// A one-line explanation without the URL.
    public var description: String {
        let code = urlErrorCode.map { " (URLError \($0))" } ?? ""
        return "beacon got no HTTP answer: \(reason.rawValue)\(code)"
    }
}
