import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a request sent through ``URLSessionExchange`` got no HTTP answer: a coarse reason and the
/// `URLError` code only, never the URL, headers or body.
///
/// The public transports convert it into their own public error types.
package struct URLSessionTransportFailure: Error, Sendable, Hashable {
    /// The kind of failure; the public error types spell their reasons the same way.
    package enum Reason: String, Sendable, Hashable, CaseIterable {
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
    package var reason: Reason
    /// The `URLError.Code` raw value when the URL loading system reported one.
    package var urlErrorCode: Int?

    /// Creates a failure from its parts.
    package init(reason: Reason, urlErrorCode: Int?) {
        self.reason = reason
        self.urlErrorCode = urlErrorCode
    }

    /// Classifies an error thrown by `URLSession`, dropping everything but its code.
    package init(classifying error: any Error) {
        guard let urlError = error as? URLError else {
            self.init(reason: .other, urlErrorCode: nil)
            return
        }
        let reason: Reason
        switch urlError.code {
        case .timedOut:
            reason = .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            reason = .cannotConnect
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            reason = .connectionLost
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            reason = .secureConnectionFailed
        default:
            reason = .other
        }
        self.init(reason: reason, urlErrorCode: urlError.code.rawValue)
    }
}
