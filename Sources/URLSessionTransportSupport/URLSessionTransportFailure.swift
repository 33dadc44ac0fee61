import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a request sent through ``URLSessionExchange`` got no HTTP answer, kept as the `URLError` code only:
/// never the URL, headers or body.
///
/// The public transports convert it into their own error types with ``reason(as:)`` and ``urlErrorCode``.
package struct URLSessionTransportFailure: Error, Sendable, Hashable {
    /// What the URL loading system reported.
    package enum Cause: Sendable, Hashable {
        /// A `URLError` with this code.
        case urlError(URLError.Code)
        /// An answer arrived that is not an `HTTPURLResponse`.
        case notHTTP
        /// Some error that is not a `URLError`.
        case otherError
    }

    /// What the URL loading system reported.
    package var cause: Cause

    /// Creates a failure for `cause`.
    package init(_ cause: Cause) {
        self.cause = cause
    }

    /// Keeps only the code of an error thrown by `URLSession`.
    package init(classifying error: any Error) {
        self.init((error as? URLError).map { .urlError($0.code) } ?? .otherError)
    }

    /// The `URLError.Code` raw value when the URL loading system reported one.
    package var urlErrorCode: Int? {
        guard case .urlError(let code) = cause else { return nil }
        return code.rawValue
    }

    /// The coarse reason a public error reports for this failure.
    package func reason<Reason: URLSessionFailureReason>(as _: Reason.Type = Reason.self) -> Reason {
        switch cause {
        case .notHTTP:
            return .notHTTP
        case .otherError:
            return .other
        case .urlError(let code):
            switch code {
            case .timedOut:
                return .timedOut
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
                return .cannotConnect
            case .networkConnectionLost, .badServerResponse, .zeroByteResource:
                return .connectionLost
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
                .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
                .clientCertificateRequired:
                return .secureConnectionFailed
            default:
                return .other
            }
        }
    }
}
