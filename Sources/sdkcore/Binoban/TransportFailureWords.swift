import BinobanCore

/// Why an upload got no HTTP answer, in the words `sdkcore binoban send` prints beside the instance's report
/// ("batch-1 got no answer (refused (the server refused the connection; curl code 7))"), from the transport's
/// error.
///
/// Every transport's failure is read in one place, as the shared reason the instance's own reports carry
/// (`BinobanTransportFailure`, `SDKCoreTransportFailureReason`): the libcurl errors name it, the URLSession errors
/// map their coarser reasons and `URLError` codes to the closest one, and a transport of another kind names its own
/// through `BinobanTransportFailureReporting` or reads `other` (Docs/Decisions/0224). So the command's words are
/// the reports' words, whatever the transport, plus advice for the reasons an operator of the command can act on.
/// The failures carry no URL, header or body (Docs/Decisions/0304), so their words are safe to print.
enum TransportFailureWords {
    /// The words for `error`: its reason, the reason's explanation and the transport's code, then any advice.
    static func reason(of error: any Error) -> String {
        words(for: BinobanTransportFailure(error))
    }

    /// The words for `failure`, e.g. `timeout (the request timed out; URLError -1001)`, with ``advice(for:)``
    /// after a semicolon when there is any.
    static func words(for failure: BinobanTransportFailure) -> String {
        guard let advice = advice(for: failure.reason) else { return failure.description }
        return "\(failure.description); \(advice)"
    }

    /// What an operator of the command can do about `reason`, beyond the reason's own explanation; `nil` when the
    /// explanation says it all.
    static func advice(for reason: SDKCoreTransportFailureReason) -> String? {
        switch reason {
        // The URLSession transport cannot tell a plain-HTTP answer to its TLS hello from another handshake
        // failure (the libcurl transport names that `notTLS`, whose explanation already says http://).
        case .tlsHandshake: "if the ingest speaks plain HTTP, --api-host needs http://"
        // The libcurl transport's detail already says that libcurl.so.4 could not be loaded.
        case .unavailable: "install the libcurl4 package"
        default: nil
        }
    }

    /// Whether `error` says the address is wrong rather than the ingest down: a plain-HTTP server answered the TLS
    /// hello (`notTLS`: the address needs `http://`). Retrying cannot help.
    static func isMisaddressed(_ error: any Error) -> Bool {
        BinobanTransportFailure(error).reason == .notTLS
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
