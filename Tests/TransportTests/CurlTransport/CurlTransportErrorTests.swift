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
        // Where the engine knows more than the reason, the detail says it before libcurl's code.
        let noLibrary = CurlEventTransportError(reason: .unavailable, curlCode: nil)
        #expect(
            BinobanTransportFailure(noLibrary)
                == BinobanTransportFailure(reason: .unavailable, detail: "libcurl.so.4 could not be loaded"))
        let largeHead = CurlEventTransportError(reason: .protocolViolation, curlCode: 23)
        #expect(
            BinobanTransportFailure(largeHead)
                == BinobanTransportFailure(
                    reason: .protocolViolation, detail: "its head passed the 64 KiB limit; curl code 23"))
        #expect(BinobanTransportFailure(CurlEventTransportError(reason: .timeout, curlCode: nil)).detail.isEmpty)
    }

    @Test("An error's description says after its colon exactly what BinobanCore's report says about it")
    func descriptionsAreTheReportsWords() {
        for reason in CurlEventTransportError.Reason.allCases {
            for code in [nil, 1, 7, 8, 16, 23, 27, 28, 56, 92] as [Int?] {
                let error = CurlEventTransportError(reason: reason, curlCode: code)
                let words = BinobanTransportFailure(error).description
                #expect(error.description == "event upload got no HTTP answer: \(words)")
                #expect(
                    CurlBeaconTransportError(reason: reason, curlCode: code).description
                        == "beacon got no HTTP answer: \(words)")
                #expect(words.hasPrefix("\(reason.rawValue) (\(reason.explanation)"))
                #expect(code.map { words.hasSuffix("; curl code \($0))") } ?? true, "\(words)")
            }
        }
    }

    @Test("The descriptions say the reason in the shared words, then what the engine knows and libcurl's code")
    func descriptions() {
        #expect(
            "\(CurlEventTransportError(reason: .refused, curlCode: 7))"
                == "event upload got no HTTP answer: refused (the server refused the connection; curl code 7)")
        #expect(
            "\(CurlBeaconTransportError(reason: .unavailable, curlCode: nil))"
                == "beacon got no HTTP answer: unavailable (the transport cannot run on this system; libcurl.so.4 "
                + "could not be loaded)")
        #expect(
            "\(CurlEventTransportError(reason: .protocolViolation, curlCode: 8))"
                == "event upload got no HTTP answer: protocolViolation (the answer was not valid HTTP, or its head "
                + "was too large; its status line or a header line was malformed; curl code 8)")
        let violations: [(Int, String)] = [
            (23, "its head passed the 64 KiB limit"), (27, "a line of its head passed libcurl's 100 KiB limit"),
            (56, "its chunked body was malformed"), (1, "it had no HTTP status line"),
            (16, "its HTTP/2 framing was broken"), (92, "its HTTP/2 framing was broken"),
        ]
        for (code, circumstance) in violations {
            #expect(
                BinobanTransportFailure(CurlEventTransportError(reason: .protocolViolation, curlCode: code)).detail
                    == "\(circumstance); curl code \(code)")
        }
        // A code the engine has nothing to add about is the detail alone; so is a code for another reason.
        #expect(
            BinobanTransportFailure(CurlEventTransportError(reason: .protocolViolation, curlCode: 100)).detail
                == "curl code 100")
        #expect(BinobanTransportFailure(CurlEventTransportError(reason: .reset, curlCode: 56)).detail == "curl code 56")
        #expect(
            BinobanTransportFailure(CurlEventTransportError(reason: .unavailable, curlCode: 2)).detail == "curl code 2")
        let notTLS = CurlBeaconTransportError(reason: .notTLS, curlCode: 35)
        #expect(notTLS.description.contains("needs http://"))
    }
}
#endif
