import BinobanCore
import BinobanCoreURLSession
import Testing

@testable import sdkcore

/// `sdkcore binoban send` words every transport's failure from one place: the shared reason and its explanation
/// (the words of the instance's own reports), then the command's advice (Decision 0224).
@Suite("sdkcore binoban send: the words for a request without an answer, for every transport")
struct TransportFailureWordsTests {
    /// The words of `reason` with `detail`, as the instance's reports say them, and the command's advice.
    private func expectedWords(_ reason: SDKCoreTransportFailureReason, _ detail: String) -> String {
        let head =
            detail.isEmpty
            ? "\(reason.rawValue) (\(reason.explanation))" : "\(reason.rawValue) (\(reason.explanation); \(detail))"
        switch reason {
        case .tlsHandshake: return head + "; if the ingest speaks plain HTTP, --api-host needs http://"
        case .unavailable: return head + "; install the libcurl4 package"
        default: return head
        }
    }

    @Test(arguments: SDKCoreTransportFailureReason.allCases)
    func eachSharedReasonFromATransportOfItsOwn(reason: SDKCoreTransportFailureReason) {
        // A transport of the host's own throws the failure as it is.
        let words = TransportFailureWords.reason(of: BinobanTransportFailure(reason: reason, detail: "code 9"))
        #expect(words == expectedWords(reason, "code 9"))
        #expect(words.hasPrefix("\(reason.rawValue) (\(reason.explanation)"))
        #expect(TransportFailureWords.isMisaddressed(BinobanTransportFailure(reason: reason)) == (reason == .notTLS))
    }

    #if os(Linux)
    @Test(arguments: SDKCoreTransportFailureReason.allCases)
    func eachSharedReasonFromTheLibcurlTransport(reason: SDKCoreTransportFailureReason) {
        let error = CurlEventTransportError(reason: reason, curlCode: 7)
        #expect(TransportFailureWords.reason(of: error) == expectedWords(reason, "curl code 7"))
        // The words match the instance's own report about the same error.
        #expect(TransportFailureWords.reason(of: error).hasPrefix(BinobanTransportFailure(error).description))
        #expect(TransportFailureWords.isMisaddressed(error) == (reason == .notTLS))
        // The same words as the error's own description, after its colon.
        #expect(error.description == "event upload got no HTTP answer: \(BinobanTransportFailure(error))")
    }

    @Test("libcurl missing: the engine's detail says which library, the advice which package")
    func libcurlMissing() {
        let error = CurlEventTransportError(reason: .unavailable, curlCode: nil)
        #expect(
            TransportFailureWords.reason(of: error)
                == "unavailable (the transport cannot run on this system; libcurl.so.4 could not be loaded); install "
                + "the libcurl4 package")
    }
    #endif

    /// The URLSession errors keep their coarser list (Decision 0228): each reason reads as the closest shared one.
    @Test(arguments: [
        (URLSessionEventTransportError.Reason.timedOut, SDKCoreTransportFailureReason.timeout),
        (.cannotConnect, .unreachable), (.connectionLost, .closedEarly), (.secureConnectionFailed, .tlsHandshake),
        (.notHTTP, .protocolViolation), (.other, .other),
    ])
    func eachURLSessionReason(reason: URLSessionEventTransportError.Reason, shared: SDKCoreTransportFailureReason) {
        let withoutCode = URLSessionEventTransportError(reason: reason, urlErrorCode: nil)
        #expect(TransportFailureWords.reason(of: withoutCode) == expectedWords(shared, ""))
        // A code that says no more keeps the coarse reason's words and shows the code.
        let withCode = URLSessionEventTransportError(reason: reason, urlErrorCode: -1)
        #expect(TransportFailureWords.reason(of: withCode) == expectedWords(shared, "URLError -1"))
        // The error's own description says the same, after its colon.
        #expect(
            withCode.description
                == "event upload got no HTTP answer: \(BinobanTransportFailure(withCode).description)")
        #expect(withCode.description.hasPrefix("event upload got no HTTP answer: \(shared.rawValue) ("))
        // The URLSession transport cannot tell a plain-HTTP answer apart, so no URLSession error ends a flush as
        // misaddressed; the TLS advice covers that case instead.
        #expect(!TransportFailureWords.isMisaddressed(withoutCode))
    }

    /// A `URLError` code that names more than the coarse reason reads as the finer shared reason.
    @Test(arguments: [
        (-1004, SDKCoreTransportFailureReason.refused), (-1003, .dns), (-1009, .unreachable), (-1005, .closedEarly),
        (-1001, .timeout), (-1200, .tlsHandshake), (-1202, .certificate), (-1011, .protocolViolation),
        (-1002, .invalidRequest), (-999, .cancelled),
    ])
    func urlErrorCodesNameTheFinerReason(code: Int, shared: SDKCoreTransportFailureReason) {
        let error = URLSessionEventTransportError(reason: .other, urlErrorCode: code)
        #expect(TransportFailureWords.reason(of: error) == expectedWords(shared, "URLError \(code)"))
    }

    /// An error that names no reason reads `other` with its type's name, never its description (which a transport
    /// may fill with a URL); a cancelled call reads `cancelled`.
    @Test func anErrorWithoutAReason() {
        struct SecretCarrying: Error, CustomStringConvertible {
            var description: String { "https://user:password@ingest.example/b" }
        }
        let words = TransportFailureWords.reason(of: SecretCarrying())
        #expect(words == "other (the request failed; SecretCarrying)")
        #expect(!words.contains("password"))
        #expect(TransportFailureWords.reason(of: CancellationError()) == "cancelled (the request was cancelled)")
    }

    /// The instance's report names the reason: the command adds its advice, never the ledger's words as well. A
    /// report without a reason gets the ledger's words; a report of another kind is left as it is.
    @Test func theInstancesReportsGetTheSameAdvice() {
        let handshake = BinobanError(
            kind: .uploadFailed,
            message: "batch-1 got no answer (tlsHandshake (the TLS handshake failed)); it will be retried",
            eventCount: 2, transportFailure: BinobanTransportFailure(reason: .tlsHandshake))
        #expect(
            SendMessages.text(of: handshake, lastTransportFailure: "timeout (the request timed out)")
                == "batch-1 got no answer (tlsHandshake (the TLS handshake failed)); it will be retried (2 events); "
                + "if the ingest speaks plain HTTP, --api-host needs http://")
        let refused = BinobanError(
            kind: .uploadFailed, message: "batch-1 got no answer (refused (the server refused the connection))",
            transportFailure: BinobanTransportFailure(reason: .refused))
        #expect(
            SendMessages.text(of: refused, lastTransportFailure: "x")
                == "batch-1 got no answer (refused (the server refused the connection))")
        let summary = BinobanError(kind: .uploadFailed, message: "batch-2 still failed (no answer) after 3 retries")
        let words = TransportFailureWords.reason(
            of: URLSessionEventTransportError(reason: .secureConnectionFailed, urlErrorCode: -1200))
        #expect(
            SendMessages.text(of: summary, lastTransportFailure: words)
                == "batch-2 still failed (no answer: tlsHandshake (the TLS handshake failed; URLError -1200); if the "
                + "ingest speaks plain HTTP, --api-host needs http://) after 3 retries")
        #expect(SendMessages.text(of: summary, lastTransportFailure: nil) == summary.message)
        let storage = BinobanError(kind: .storage, message: "no answer from the disk")
        #expect(SendMessages.text(of: storage, lastTransportFailure: "x") == "no answer from the disk")
    }
}
