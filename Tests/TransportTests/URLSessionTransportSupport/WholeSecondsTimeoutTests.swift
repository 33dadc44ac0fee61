import Testing
import URLSessionTransportSupport

/// Timeouts are rounded up to whole seconds for URLSession (Docs/Decisions/0302).
@Suite("WholeSecondsTimeout")
struct WholeSecondsTimeoutTests {
    @Test("positive durations round up to whole seconds")
    func roundsUp() {
        #expect(WholeSecondsTimeout.seconds(.milliseconds(300)) == 1)
        #expect(WholeSecondsTimeout.seconds(.seconds(10)) == 10)
        #expect(WholeSecondsTimeout.seconds(.milliseconds(10_001)) == 11)
        #expect(WholeSecondsTimeout.seconds(.nanoseconds(1)) == 1)
    }

    @Test("zero and negative durations have no timeout value")
    func notPositive() {
        #expect(WholeSecondsTimeout.seconds(.zero) == nil)
        #expect(WholeSecondsTimeout.seconds(.seconds(-5)) == nil)
    }

    @Test("a duration that is not positive falls back to the default, also rounded up")
    func fallback() {
        #expect(WholeSecondsTimeout.seconds(.zero, otherwise: .milliseconds(2_500)) == 3)
        #expect(WholeSecondsTimeout.seconds(.milliseconds(-1), otherwise: .seconds(30)) == 30)
        #expect(WholeSecondsTimeout.seconds(.milliseconds(300), otherwise: .seconds(30)) == 1)
    }
}
