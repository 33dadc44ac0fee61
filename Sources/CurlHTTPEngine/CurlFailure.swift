#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a request through the engine got no HTTP answer. The public error types of the cores' libcurl
/// transports mirror these cases by raw value.
package enum CurlFailureReason: String, Sendable, Hashable, CaseIterable {
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
    /// The request's deadline passed, or it made no progress for its stall timeout.
    case timeout
    /// The answer is not HTTP, is malformed, or its head is larger than the engine accepts.
    case protocolViolation
    /// The request itself cannot be sent: a malformed address, a scheme other than `http` or `https`, or a line
    /// break inside a header.
    case invalidRequest
    /// libcurl (`libcurl.so.4`) could not be loaded.
    case unavailable
    /// Any other failure.
    case other

    /// A short explanation, safe to log: it names no host, address, header or body.
    package var explanation: String {
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
        case .protocolViolation: "the answer was not valid HTTP/1.1 (or its head was too large)"
        case .invalidRequest: "the request cannot be sent (bad address, scheme or header)"
        case .unavailable: "libcurl.so.4 could not be loaded (install the libcurl4 package)"
        case .other: "the transfer failed"
        }
    }
}

/// A request that got no HTTP answer: the reason and libcurl's result code. Never the URL, headers or body.
package struct CurlFailure: Error, Sendable, Hashable {
    /// Why.
    package var reason: CurlFailureReason
    /// libcurl's `CURLcode`, when libcurl reported one.
    package var curlCode: Int?

    /// Creates a failure.
    package init(reason: CurlFailureReason, curlCode: Int?) {
        self.reason = reason
        self.curlCode = curlCode
    }

    /// Names a finished transfer's result.
    ///
    /// - Parameters:
    ///   - code: the transfer's `CURLcode`, not zero.
    ///   - osErrno: `CURLINFO_OS_ERRNO`, the last socket error.
    ///   - message: libcurl's message for the transfer (`CURLOPT_ERRORBUFFER`). Only searched for the words that
    ///     tell causes apart where the code does not (a plain-text record where a TLS handshake was due, a
    ///     malformed chunked body); never kept, because it may name the host.
    ///   - headComplete: whether the answer's head had ended when the transfer did.
    package static func classify(code: Int, osErrno: Int, message: String, headComplete: Bool) -> CurlFailure {
        let plainText = message.contains("wrong version number") || message.contains("packet length too long")
        let badChunks = message.contains("chunked-encod") || message.contains("chunky")
        let reason = reason(
            code: code, osErrno: osErrno, plainTextAnswer: plainText, malformedChunks: badChunks,
            headComplete: headComplete)
        return CurlFailure(reason: reason, curlCode: code)
    }

    private static func reason(
        code: Int, osErrno: Int, plainTextAnswer: Bool, malformedChunks: Bool, headComplete: Bool
    ) -> CurlFailureReason {
        let reset = osErrno == Int(ECONNRESET) || osErrno == Int(EPIPE)
        switch code {
        case 1, 8, 16, 92, 95, 100: return .protocolViolation  // unsupported protocol (HTTP/0.9), weird reply, HTTP/2
        case 3: return .invalidRequest  // malformed URL
        case 5, 6: return .dns  // proxy or host name not resolved
        case 7:  // could not connect
            return osErrno == Int(ECONNREFUSED) ? .refused : .unreachable
        case 45: return .unreachable  // interface failed
        case 18, 52: return .closedEarly  // partial body; nothing at all
        case 28: return .timeout
        case 35:  // TLS handshake. The socket errno is not read here: libcurl keeps the last one, which may be stale.
            return plainTextAnswer ? .notTLS : .tlsHandshake
        case 51, 58, 60, 77, 83, 90, 91: return .certificate  // peer verification, CA bundle, pinning, OCSP
        case 53, 54, 59, 64, 66, 80, 98: return .tlsHandshake  // engine, cipher, client certificate
        case 55, 56:  // send / receive failed; libcurl 7.88 also reports a malformed chunked body as 56
            if plainTextAnswer { return .notTLS }
            if malformedChunks { return .protocolViolation }
            return reset ? .reset : .closedEarly
        case 27:
            // libcurl refuses a head line over 100 KiB as "out of memory", before the engine's head cap sees it.
            return headComplete ? .other : .protocolViolation
        default: return .other
        }
    }
}
