/// Why an upload got no HTTP answer, as the transport said: the reason the pipeline puts in its
/// ``BinobanError/transportFailure`` reports and in the ``BinobanUploadFailure`` of a batch kept for retry.
///
/// It is built from the error the transport threw. ``CurlEventTransport`` and `URLSessionEventTransport` name
/// their reasons; the error of another transport names its own by conforming to
/// ``BinobanTransportFailureReporting``; any other error reads `other` with the error's type name.
/// It carries no URL, header or body, so it is safe to log.
public struct BinobanTransportFailure: Sendable, Hashable, CustomStringConvertible {
    /// Why no HTTP answer arrived: the reasons every transport of both cores names, `SDKCoreTransportFailureReason`
    /// (`CurlEventTransportError.Reason` is the same type, so a libcurl reason reaches the reports as it is).
    public typealias Reason = SDKCoreTransportFailureReason

    /// Why no HTTP answer arrived.
    public var reason: Reason
    /// What the transport knows beyond the reason and its own code, such as `curl code 7`, `its head passed the 64
    /// KiB limit; curl code 23` or `URLError -1004`, or, for an error that names no reason, its type's name; empty
    /// when there is none.
    public var detail: String

    /// Creates a failure.
    public init(reason: Reason, detail: String = "") {
        self.reason = reason
        self.detail = detail
    }

    /// The failure `error` names: its own (``BinobanTransportFailureReporting``), `cancelled` for a
    /// `CancellationError`, otherwise `other` with the error's type name (never its description, which
    /// a transport may fill with a URL).
    public init(_ error: any Error) {
        if let reporting = error as? any BinobanTransportFailureReporting {
            self = reporting.transportFailure
        } else if error is CancellationError {
            self.init(reason: .cancelled)
        } else {
            self.init(reason: .other, detail: String(describing: type(of: error)))
        }
    }

    /// The reason, its explanation and the detail, e.g. `refused (the server refused the connection; curl code
    /// 7)`: the same words as the transports' error descriptions after "got no HTTP answer: ".
    public var description: String {
        reason.words(detail: detail)
    }
}

/// An error a ``BinobanEventTransport`` throws that says why no HTTP answer arrived, so that the pipeline's reports
/// carry the reason (``BinobanError/transportFailure``, ``BinobanUploadFailure/noAnswer(_:)``).
///
/// `CurlEventTransportError` and `URLSessionEventTransportError` conform; a transport of your own conforms its
/// error to say more than `other`.
public protocol BinobanTransportFailureReporting: Error {
    /// The reason, with the transport's code.
    var transportFailure: BinobanTransportFailure { get }
}

/// Why an upload attempt failed without a final answer: a transient status, or no answer at all.
public enum BinobanUploadFailure: Sendable, Hashable, CustomStringConvertible {
    /// The ingest answered with a status that is retried (429, 5xx, 3xx or any other that is neither 2xx nor 4xx).
    case status(Int)
    /// No HTTP answer arrived, for this reason.
    case noAnswer(BinobanTransportFailure)

    /// Whether a retry of the same request cannot succeed: the address itself is wrong (`notTLS`: it needs
    /// `http://`), the request cannot be sent (`invalidRequest`), or the transport cannot run here (`unavailable`). The batch is kept without the
    /// retries of its flush; a later flush (a fixed configuration, after a restart) tries it again.
    var retryCannotHelp: Bool {
        guard case .noAnswer(let failure) = self else { return false }
        return [.notTLS, .invalidRequest, .unavailable].contains(failure.reason)
    }

    /// `no answer (reason (…))` for a request without an answer, as the reports word it; the description otherwise.
    var noAnswerWords: String {
        guard case .noAnswer(let failure) = self else { return description }
        return "no answer (\(failure))"
    }

    /// `status 503`, or `no answer: ` and the transport's reason.
    public var description: String {
        switch self {
        case .status(let status): "status \(status)"
        case .noAnswer(let failure): "no answer: \(failure)"
        }
    }
}

/// A transport of your own can throw the failure itself: it names its reason as it is.
extension BinobanTransportFailure: BinobanTransportFailureReporting {
    /// The failure itself.
    public var transportFailure: BinobanTransportFailure { self }
}
