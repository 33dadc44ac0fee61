import Testing

@testable import BinobanCore

/// How a thrown error becomes the reason on the pipeline's reports.
@Suite("BinobanTransportFailure from a thrown error")
struct BinobanTransportFailureTests {
    private struct SecretBearingError: Error, CustomStringConvertible {
        var description: String { "https://example.invalid/?token=SECRET" }
    }

    @Test func aFailureThrownAsItselfKeepsItsReasonAndDetail() {
        let thrown: any Error = BinobanTransportFailure(reason: .dns, detail: "resolver code 3")
        #expect(BinobanTransportFailure(thrown) == BinobanTransportFailure(reason: .dns, detail: "resolver code 3"))
    }

    @Test func cancellationIsCancelled() {
        #expect(BinobanTransportFailure(CancellationError()).reason == .cancelled)
    }

    @Test func anyOtherErrorIsOtherWithItsTypeNameOnly() {
        let failure = BinobanTransportFailure(SecretBearingError())
        #expect(failure.reason == .other)
        #expect(failure.detail == "SecretBearingError")
        #expect(!failure.description.contains("SECRET"))
    }
}
