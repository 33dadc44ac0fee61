public import BinobanCore
import URLSessionTransportSupport

/// Why an upload through ``URLSessionEventTransport`` got no HTTP answer.
///
/// It carries a coarse reason and the `URLError` code only: never the URL, headers or body, so it is safe
/// to log or to hand to an error handler.
public struct URLSessionEventTransportError: Error, Sendable, Hashable, CustomStringConvertible {
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

    /// A one-line explanation without the URL, e.g. `event upload got no HTTP answer: refused (the server refused
    /// the connection; URLError -1004)`: after the colon, the words of ``transportFailure``, which the instance's
    /// reports and the CLI print, so every transport says a reason the same way.
    public var description: String {
        "event upload got no HTTP answer: \(transportFailure)"
    }
}

extension URLSessionEventTransportError: BinobanTransportFailureReporting {
    /// The reason the `URLError` code names (refused, DNS, TLS handshake, certificate, …), else the coarse
    /// ``reason``'s; the code as the detail (`URLError -1004`).
    public var transportFailure: BinobanTransportFailure {
        let detail = urlErrorCode.map { "URLError \($0)" } ?? ""
        return BinobanTransportFailure(reason: Self.failureReason(code: urlErrorCode) ?? fallback, detail: detail)
    }

    private var fallback: BinobanTransportFailure.Reason {
        switch reason {
        case .timedOut: .timeout
        case .cannotConnect: .unreachable
        case .connectionLost: .closedEarly
        case .secureConnectionFailed: .tlsHandshake
        case .notHTTP: .protocolViolation
        case .other: .other
        }
    }

    /// The `URLError.Code` raw values that say more than the coarse reason.
    private static func failureReason(code: Int?) -> BinobanTransportFailure.Reason? {
        switch code {
        case -1001: .timeout  // timedOut
        case -1004: .refused  // cannotConnectToHost
        case -1003, -1006: .dns  // cannotFindHost, dnsLookupFailed
        case -1009, -1018, -1020: .unreachable  // notConnectedToInternet, internationalRoamingOff, dataNotAllowed
        case -1005: .closedEarly  // networkConnectionLost
        case -1200: .tlsHandshake  // secureConnectionFailed
        case -1201, -1202, -1203, -1204, -1205, -1206: .certificate  // serverCertificate…, clientCertificate…
        case -999: .cancelled  // cancelled
        case -1000, -1002: .invalidRequest  // badURL, unsupportedURL
        case -1011: .protocolViolation  // badServerResponse
        default: nil
        }
    }
}
