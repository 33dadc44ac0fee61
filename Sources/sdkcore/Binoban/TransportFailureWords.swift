import BinobanCore
import BinobanCoreURLSession

/// Why an upload got no HTTP answer, in the words `sdkcore binoban send` prints beside the instance's report
/// ("batch-1 got no answer (could not connect: …)"), from the transport's error. The errors carry no URL, header
/// or body (Docs/Decisions/0304), so their reasons are safe to print.
enum TransportFailureWords {
    /// The reason of `error`: the libcurl or URLSession transport's reason in words; for another transport its
    /// own description.
    static func reason(of error: any Error) -> String {
        #if os(Linux)
        if let failure = error as? CurlEventTransportError { return failure.reasonAndExplanation }
        #endif
        guard let failure = error as? URLSessionEventTransportError else { return "\(error)" }
        let code = failure.urlErrorCode.map { " (URLError \($0))" } ?? ""
        switch failure.reason {
        case .timedOut: return "timed out" + code
        case .cannotConnect: return "could not connect: refused, unknown host or no network" + code
        case .connectionLost: return "the connection closed before a complete answer" + code
        case .secureConnectionFailed:
            return "the TLS handshake or the certificate failed; a plain-HTTP ingest needs http:// in --api-host"
                + code
        case .notHTTP: return "the answer is not HTTP" + code
        case .other: return "the request failed" + code
        }
    }

    /// Whether `error` says the address is wrong rather than the ingest down: a plain-HTTP server answered the TLS
    /// hello (the address needs `http://`). Retrying cannot help.
    static func isMisaddressed(_ error: any Error) -> Bool {
        #if os(Linux)
        return (error as? CurlEventTransportError)?.reason == .notTLS
        #else
        return false
        #endif
    }

    /// `message` (an instance's report about a batch without an answer) with `reason` in it: after "got no
    /// answer" or "no answer", or at the end when the report words it otherwise.
    static func adding(_ reason: String, to message: String) -> String {
        var text = message
        if let range = text.firstRange(of: "got no answer") {
            text.replaceSubrange(range, with: "got no answer (\(reason))")
            return text
        }
        if let range = text.firstRange(of: "(no answer)") {
            text.replaceSubrange(range, with: "(no answer: \(reason))")
            return text
        }
        return message + "; the transport said: " + reason
    }
}
