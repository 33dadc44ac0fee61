/// Why a request got no HTTP answer: the one list of reasons every transport of both cores names.
///
/// The libcurl transports' errors (`CurlEventTransportError.Reason`, `CurlBeaconTransportError.Reason`) and
/// BinobanCore's reports (`BinobanTransportFailure.Reason`) are this type under their own names, so a reason
/// passes from the transport to the reports unchanged. The raw values are the case names; they are stable, safe
/// to persist and to compare.
///
/// A libcurl transport never names ``cancelled``: a cancelled call throws `CancellationError`, which BinobanCore's
/// reports read as ``cancelled``.
public enum SDKCoreTransportFailureReason: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The server refused the connection (nothing listens on the port).
    case refused
    /// The address could not be reached (no route, network down).
    case unreachable
    /// The host name could not be resolved.
    case dns
    /// The connection was reset by the peer.
    case reset
    /// The connection closed before a complete answer arrived.
    case closedEarly
    /// The TLS handshake failed.
    case tlsHandshake
    /// The server answered the TLS handshake in plain HTTP: the address needs `http://`. Retrying cannot help.
    case notTLS
    /// The server's certificate was refused, or the CA bundle could not be read.
    case certificate
    /// The request made no progress for its timeout, or its deadline passed.
    case timeout
    /// The answer is not HTTP, is malformed, or its head is larger than the transport accepts (64 KiB for the
    /// libcurl transports).
    case protocolViolation
    /// The request cannot be sent: a malformed address, a scheme other than `http` or `https`, or a line break
    /// inside a header.
    case invalidRequest
    /// The transport cannot work on this system (for the libcurl transports: `libcurl.so.4` could not be loaded,
    /// the `libcurl4` package is missing).
    case unavailable
    /// The request was cancelled (the shutdown's deadline passed).
    case cancelled
    /// Any other failure, or a transport that names no reason.
    case other

    /// The case's name, such as `refused`.
    public var description: String { rawValue }

    /// A short explanation that names no host, address, header or value, so it is safe to log.
    public var explanation: String {
        switch self {
        case .refused: "the server refused the connection"
        case .unreachable: "the server's address could not be reached"
        case .dns: "the host name could not be resolved"
        case .reset: "the connection was reset"
        case .closedEarly: "the connection closed before a complete answer"
        case .tlsHandshake: "the TLS handshake failed"
        case .notTLS:
            "the server answered the TLS handshake in plain HTTP: the address probably needs http://, not https://"
        case .certificate: "the server's certificate was not trusted (or the CA bundle could not be read)"
        case .timeout: "the request timed out"
        case .protocolViolation: "the answer was not valid HTTP, or its head was too large"
        case .invalidRequest: "the request cannot be sent (bad address, scheme or header)"
        case .unavailable: "the transport cannot run on this system"
        case .cancelled: "the request was cancelled"
        case .other: "the request failed"
        }
    }

    /// The reason, its ``explanation`` and the transport's `detail` (what the transport knows beyond the reason, and
    /// its own code), e.g. `refused (the server refused the connection; curl code 7)`: the one wording of a request
    /// without an answer, shared by the transports' error descriptions, BinobanCore's reports and the CLI, so an
    /// operator reads the same words whichever of them speaks.
    package func words(detail: String) -> String {
        detail.isEmpty ? "\(rawValue) (\(explanation))" : "\(rawValue) (\(explanation); \(detail))"
    }
}
