#if os(Linux)
import CurlHTTPEngine

/// Why an upload through ``CurlEventTransport`` got no HTTP answer.
///
/// It carries the reason and libcurl's result code only: never the URL, headers or body, so it is safe to log or
/// to hand to an error handler.
public struct CurlEventTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why no HTTP answer arrived.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
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
        /// The server answered a TLS handshake in plain text: the address should start with `http://`.
        case notTLS
        /// The server's certificate was refused, or the CA bundle could not be read.
        case certificate
        /// The request's deadline passed, or it made no progress for its request timeout.
        case timeout
        /// The answer is not HTTP, is malformed, or its head is larger than 64 KiB.
        case protocolViolation
        /// The request cannot be sent: a malformed address, a scheme other than `http` or `https`, or a line
        /// break inside a header.
        case invalidRequest
        /// `libcurl.so.4` could not be loaded (the `libcurl4` package is missing).
        case unavailable
        /// Any other failure.
        case other
    }

    /// Why no HTTP answer arrived.
    public var reason: Reason
    /// libcurl's result code (`CURLcode`) when libcurl reported one.
    public var curlCode: Int?

    /// Creates an error.
    public init(reason: Reason, curlCode: Int?) {
        self.reason = reason
        self.curlCode = curlCode
    }

    init(_ failure: CurlFailure) {
        self.init(reason: Reason(rawValue: failure.reason.rawValue) ?? .other, curlCode: failure.curlCode)
    }

    /// A one-line explanation without the URL, e.g. `event upload got no HTTP answer: refused (the server
    /// refused the connection; curl code 7)`.
    public var description: String {
        "event upload got no HTTP answer: \(reasonAndExplanation)"
    }

    /// The reason, its explanation and libcurl's code, e.g. `refused (the server refused the connection; curl
    /// code 7)`: the words the CLI prints after "got no answer".
    package var reasonAndExplanation: String {
        let explanation = CurlFailureReason(rawValue: reason.rawValue)?.explanation ?? reason.rawValue
        let code = curlCode.map { "; curl code \($0)" } ?? ""
        return "\(reason.rawValue) (\(explanation)\(code))"
    }
}
#endif

#if os(Linux)
extension CurlEventTransportError: BinobanTransportFailureReporting {
    /// The reason of the same name, with libcurl's code as the detail (`curl code 7`).
    public var transportFailure: BinobanTransportFailure {
        BinobanTransportFailure(
            reason: BinobanTransportFailure.Reason(rawValue: reason.rawValue) ?? .other,
            detail: curlCode.map { "curl code \($0)" } ?? "")
    }
}
#endif
