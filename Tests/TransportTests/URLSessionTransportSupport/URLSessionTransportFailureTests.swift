import BinobanCoreURLSession
import FalconCoreURLSession
import Foundation
import Testing
import URLSessionTransportSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one classification of URLSession errors both public transport errors rely on.
@Suite("URLSessionTransportFailure")
struct URLSessionTransportFailureTests {
    static let table: [(URLError.Code, URLSessionBeaconTransportError.Reason)] = [
        (.timedOut, .timedOut),
        (.cannotConnectToHost, .cannotConnect),
        (.cannotFindHost, .cannotConnect),
        (.dnsLookupFailed, .cannotConnect),
        (.notConnectedToInternet, .cannotConnect),
        (.networkConnectionLost, .connectionLost),
        (.badServerResponse, .connectionLost),
        (.zeroByteResource, .connectionLost),
        (.secureConnectionFailed, .secureConnectionFailed),
        (.serverCertificateUntrusted, .secureConnectionFailed),
        (.clientCertificateRequired, .secureConnectionFailed),
        (.badURL, .other),
        (.cancelled, .other),
    ]

    @Test("URLError codes map to the same reason for beacons and event uploads, and keep their code")
    func urlErrorCodes() {
        for (code, expected) in Self.table {
            let failure = URLSessionTransportFailure(classifying: URLError(code))
            #expect(failure.reason(as: URLSessionBeaconTransportError.Reason.self) == expected)
            #expect(failure.reason(as: URLSessionEventTransportError.Reason.self).rawValue == expected.rawValue)
            #expect(failure.urlErrorCode == code.rawValue)
        }
    }

    @Test("an error that is not a URLError is other, without a code")
    func foreignError() {
        struct Foreign: Error {}
        let failure = URLSessionTransportFailure(classifying: Foreign())
        #expect(failure.reason(as: URLSessionEventTransportError.Reason.self) == .other)
        #expect(failure.urlErrorCode == nil)
    }

    @Test("a non-HTTP answer is notHTTP, without a code")
    func notHTTP() {
        let failure = URLSessionTransportFailure(.notHTTP)
        #expect(failure.reason(as: URLSessionBeaconTransportError.Reason.self) == .notHTTP)
        #expect(failure.urlErrorCode == nil)
    }
}
