import Testing

@testable import BinobanCore

@Suite("Error report rate limit")
struct ErrorReportLimiterTests {
    @Test("One report per kind per 10 s; the next one carries the suppressed count")
    func limit() {
        var limiter = ErrorReportLimiter()
        let a = BinobanError(kind: .uploadFailed, message: "a")
        let b = BinobanError(kind: .batchRejected, message: "b")
        #expect(limiter.admit(a, at: .zero)?.suppressedCount == 0)
        #expect(limiter.admit(a, at: .seconds(3)) == nil)
        #expect(limiter.admit(b, at: .seconds(4)) != nil)
        #expect(limiter.admit(a, at: .seconds(9)) == nil)
        let next = limiter.admit(a, at: .seconds(10))
        #expect(next?.suppressedCount == 2)
        #expect(next?.description.contains("2 similar reports suppressed") == true)
    }
}
