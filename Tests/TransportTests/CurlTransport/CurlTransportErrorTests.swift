#if os(Linux)
import BinobanCore
import FalconCore
import Testing

/// The libcurl transports' public errors: one reason type with BinobanCore's reports, and the engine's own words in
/// their descriptions.
@Suite("The libcurl transports' errors")
struct CurlTransportErrorTests {
    @Test("Every reason reaches BinobanCore's report as it is, with libcurl's code as the detail")
    func reasonsPassUnchanged() {
        for reason in CurlEventTransportError.Reason.allCases where reason != .cancelled {
            let error = CurlEventTransportError(reason: reason, curlCode: 7)
            #expect(BinobanTransportFailure(error) == BinobanTransportFailure(reason: reason, detail: "curl code 7"))
            let beacon = CurlBeaconTransportError(reason: reason, curlCode: nil)
            #expect(beacon.reason.rawValue == error.reason.rawValue)
        }
        let noCode = CurlEventTransportError(reason: .unavailable, curlCode: nil)
        #expect(BinobanTransportFailure(noCode) == BinobanTransportFailure(reason: .unavailable))
    }

    @Test("The descriptions say the reason in the engine's words, with libcurl's code")
    func descriptions() {
        #expect(
            "\(CurlEventTransportError(reason: .refused, curlCode: 7))"
                == "event upload got no HTTP answer: refused (the server refused the connection; curl code 7)")
        #expect(
            "\(CurlBeaconTransportError(reason: .unavailable, curlCode: nil))"
                == "beacon got no HTTP answer: unavailable (libcurl.so.4 could not be loaded (install the libcurl4 "
                + "package))")
        #expect(
            "\(CurlEventTransportError(reason: .protocolViolation, curlCode: 8))"
                .hasSuffix(
                    "protocolViolation (the answer was not valid HTTP/1.1 (or its head was too large); curl "
                        + "code 8)"))
        let notTLS = CurlBeaconTransportError(reason: .notTLS, curlCode: 35)
        #expect(notTLS.description.contains("needs http://"))
        // BinobanCore's report says it in words that fit any transport.
        #expect(
            "\(BinobanTransportFailure(CurlEventTransportError(reason: .unavailable, curlCode: nil)))"
                == "unavailable (the transport cannot run on this system)")
    }
}
#endif
