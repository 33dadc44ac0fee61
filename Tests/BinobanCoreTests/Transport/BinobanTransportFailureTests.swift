import Testing

@testable import BinobanCore

/// How a thrown error becomes the reason on the pipeline's reports (the other rules: TransportFailureReportTests).
@Suite("BinobanTransportFailure from a thrown error")
struct BinobanTransportFailureTests {
    @Test func aFailureThrownAsItselfKeepsItsReasonAndDetail() {
        let thrown: any Error = BinobanTransportFailure(reason: .dns, detail: "resolver code 3")
        #expect(BinobanTransportFailure(thrown) == BinobanTransportFailure(reason: .dns, detail: "resolver code 3"))
    }
}
