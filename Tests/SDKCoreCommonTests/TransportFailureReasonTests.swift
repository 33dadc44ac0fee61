import SDKCoreCommon
import Testing

@Suite("SDKCoreTransportFailureReason: the one list of reasons the transports name")
struct TransportFailureReasonTests {
    /// The raw values hosts may have persisted or switched over (the libcurl errors' and BinobanCore's reports'
    /// reasons before they became this one type): a case renamed or removed breaks them, so the list is spelled out.
    @Test("The raw values are the documented case names, in order")
    func rawValues() {
        let names = SDKCoreTransportFailureReason.allCases.map(\.rawValue)
        #expect(
            names == [
                "refused", "unreachable", "dns", "reset", "closedEarly", "tlsHandshake", "notTLS", "certificate",
                "timeout", "protocolViolation", "invalidRequest", "unavailable", "cancelled", "other",
            ])
        for reason in SDKCoreTransportFailureReason.allCases {
            #expect(SDKCoreTransportFailureReason(rawValue: reason.rawValue) == reason)
            #expect("\(reason)" == reason.rawValue)
        }
    }

    @Test("Each reason has an explanation of its own that names no address")
    func explanations() {
        let explanations = SDKCoreTransportFailureReason.allCases.map(\.explanation)
        #expect(Set(explanations).count == explanations.count)
        #expect(explanations.allSatisfy { !$0.isEmpty && !$0.contains("127.0.0.1") && !$0.contains("%") })
        #expect(SDKCoreTransportFailureReason.notTLS.explanation.contains("http://"))
    }
}
