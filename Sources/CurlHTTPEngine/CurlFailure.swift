import SDKCoreCommon

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A request that got no HTTP answer: the reason and libcurl's result code. Never the URL, headers or body.
///
/// The reason is the cores' shared `SDKCoreTransportFailureReason`, which the public errors of the libcurl
/// transports carry as it is. The engine never names `cancelled`: a cancelled caller gets `CancellationError`.
package struct CurlFailure: Error, Sendable, Hashable {
    /// Why.
    package var reason: SDKCoreTransportFailureReason
    /// libcurl's `CURLcode`, when libcurl reported one.
    package var curlCode: Int?

    /// Creates a failure.
    package init(reason: SDKCoreTransportFailureReason, curlCode: Int?) {
        self.reason = reason
        self.curlCode = curlCode
    }

    /// What the engine knows beyond the reason, then libcurl's code, e.g. `its head passed the 64 KiB limit; curl
    /// code 23` or `curl code 7`; empty when there is neither. The detail the libcurl transports give BinobanCore's
    /// reports (`BinobanTransportFailure.detail`), and what their errors' descriptions say after the reason's shared
    /// explanation. Names no host, address, header or value: safe to log.
    package var detail: String {
        let code = curlCode.map { "curl code \($0)" }
        return [circumstance, code].compactMap { $0 }.joined(separator: "; ")
    }

    /// The reason, its shared explanation and ``detail``, e.g. `refused (the server refused the connection; curl
    /// code 7)`: what the public errors' descriptions say after "got no HTTP answer: ", in the words of
    /// BinobanCore's reports and the CLI.
    package var reasonAndExplanation: String {
        reason.words(detail: detail)
    }

    /// What the system or the peer did, where the reason and libcurl's code tell it and the reason's shared
    /// explanation does not: which library is missing, which limit the answer's head passed, what was malformed.
    private var circumstance: String? {
        guard reason == .protocolViolation else {
            return reason == .unavailable && curlCode == nil ? "libcurl.so.4 could not be loaded" : nil
        }
        switch curlCode {
        // The engine refuses the line that takes the head past its limit, and libcurl ends the transfer as a write
        // error; classify(code:osErrno:message:headComplete:) names no other write error a protocol violation.
        case 23: return "its head passed the \(AnswerHead.limit / 1024) KiB limit"
        case 27: return "a line of its head passed libcurl's 100 KiB limit"
        case 56: return "its chunked body was malformed"
        case 1: return "it had no HTTP status line"
        case 8: return "its status line or a header line was malformed"
        case 16, 92: return "its HTTP/2 framing was broken"
        default: return nil
        }
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
    ) -> SDKCoreTransportFailureReason {
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
